package main

import (
	"io"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/stretchr/testify/assert"
)

func TestInterspersedFlags(t *testing.T) {
	t.Parallel()
	app := newApp(io.Discard, io.Discard)
	cases := []struct{ in, want string }{
		{"cling pairs ./... --json", "cling pairs --json ./..."},
		{"cling pairs ./... --min-coupled 20 ./x", "cling pairs --min-coupled 20 ./... ./x"},
		{"cling pairs ./... --min-coupled=20", "cling pairs --min-coupled=20 ./..."},
		{"cling -C dir pairs ./a --all", "cling -C dir pairs --all ./a"},
		{"cling --tags=x pairs ./a --all", "cling --tags=x pairs --all ./a"},
		// Everything after -- is go test's.
		{"cling cbc -r ./a -e ./b -- -run X -v", "cling cbc -r ./a -e ./b -- -run X -v"},
		{"cling cbc -- -v --json", "cling cbc -- -v --json"},
		// Unknown commands and flags are left for the parser to report.
		{"cling nosuch ./a --json", "cling nosuch ./a --json"},
		{"cling pairs ./a --bogus", "cling pairs --bogus ./a"},
		{"cling", "cling"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got := interspersed(app, strings.Fields(tc.in))
			assert.Equal(t, tc.want, strings.Join(got, " "))
		})
	}
}

func TestFlagsAfterPatterns(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "shop")
	r := runCling(t, t.TempDir(), "-C", dir, "pairs", "./...", "--json", "--min-coupled", "20")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stdout, "{"), r.stdout)
}
