package main

import (
	"math"
	"testing"

	"github.com/cling-go/cling/bench/internal/measure"
)

func TestParseCommands(t *testing.T) {
	cmds, err := parseCommands([]string{"one", "prog", "-x", "---", "two", "other", "a", "b"}, "/d")
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 2 || cmds[0].Label != "one" || cmds[0].String() != "prog -x" || cmds[1].String() != "other a b" || cmds[1].Dir != "/d" {
		t.Errorf("parseCommands = %+v", cmds)
	}
	for _, bad := range [][]string{{"lonely"}, {"a", "x", "---", "a", "y"}, {"a/b", "x"}} {
		if _, err := parseCommands(bad, ""); err == nil {
			t.Errorf("parseCommands(%q): no error", bad)
		}
	}
}

func TestRatioAndTarget(t *testing.T) {
	by := map[string]measure.Summary{
		"cbc":     {WallSec: 6, RSSMiB: 100},
		"plain":   {WallSec: 2, RSSMiB: 50},
		"analyze": {WallSec: 1, RSSMiB: 20},
	}
	for spec, want := range map[string]float64{
		"cbc/plain":         3,
		"cbc/plain+analyze": 2,
		"cbc-analyze/plain": 2.5,
		"rss:cbc/plain":     2,
	} {
		got, _, err := evalRatio(spec, by)
		if err != nil || math.Abs(got-want) > 1e-12 {
			t.Errorf("evalRatio(%q) = %v, %v; want %v", spec, got, err, want)
		}
	}
	if _, _, err := evalRatio("cbc/nope", by); err == nil {
		t.Error("evalRatio with an unknown label: no error")
	}
	for spec, want := range map[string]bool{
		"cbc/plain+analyze<=2": true,
		"cbc/plain+analyze<2":  false,
		"cbc/plain<=2.5":       false,
	} {
		_, met, err := checkTarget(spec, by)
		if err != nil || met != want {
			t.Errorf("checkTarget(%q) = %v, %v; want %v", spec, met, err, want)
		}
	}
}
