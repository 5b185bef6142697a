package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSearchLimit(t *testing.T) {
	cases := []struct {
		limit   searchLimit
		name    string
		flags   []string
		timeout time.Duration
	}{
		{searchLimit{time: time.Minute}, "1m0s", []string{"--budget", "1m0s"}, 14 * time.Minute},
		{searchLimit{time: time.Minute, evals: 20000}, "20000 evals", []string{"--max-evals", "20000", "--budget", "30m0s"}, 40 * time.Minute},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.name, tc.limit.String())
		assert.Equal(t, tc.flags, tc.limit.flags())
		assert.Equal(t, tc.timeout, tc.limit.timeout())
	}
	assert.Equal(t, "20000 evals", (&options{budget: time.Minute, maxEvals: 20000}).limit().String())
}

func TestShortName(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/expr-lang/expr":       "expr",
		"github.com/pelletier/go-toml/v2": "go-toml",
		"github.com/goccy/go-yaml":        "go-yaml",
		"gopkg.in/yaml.v3":                "yaml.v3",
		"example.com/v2":                  "example.com",
		"v2":                              "v2",
	} {
		assert.Equal(t, want, shortName(path), path)
	}
}
