package main

import (
	"strings"
	"testing"
)

const modX = "example.com/x"

func pkgsWithTests(paths ...string) map[string]goPackage {
	m := map[string]goPackage{}
	for _, p := range paths {
		m[p] = goPackage{ImportPath: p, TestGoFiles: []string{"a_test.go"}}
	}
	return m
}

func TestStaticReason(t *testing.T) {
	r := selectRules{MinCoupled: 50, MaxCoupled: 3000, PerModule: 2}
	pkgs := pkgsWithTests(modX+"/parser", modX+"/internal/testify/require", modX+"/test/mock", modX)
	pkgs[modX+"/notests"] = goPackage{ImportPath: modX + "/notests"}
	cases := []struct {
		p    pairInfo
		want string // substring of the reason; "" = eligible
	}{
		{pairInfo{Caller: modX + "/parser", Callee: modX + "/lexer", CoupledBranches: 500}, ""},
		{pairInfo{Caller: modX, Callee: modX + "/parser", CoupledBranches: 3000}, ""},
		{pairInfo{Caller: modX + "/parser", Callee: modX + "/lexer", CoupledBranches: 500, Trivial: true}, "trivial"},
		{pairInfo{Caller: modX + "/parser", Callee: "github.com/other/lib", CoupledBranches: 500}, "not in module"},
		{pairInfo{Caller: modX + "/internal/testify/require", Callee: modX + "/internal/testify/assert", CoupledBranches: 500}, "third-party"},
		{pairInfo{Caller: modX + "/test/mock", Callee: modX + "/ast", CoupledBranches: 500}, "test-support"},
		{pairInfo{Caller: modX + "/parser", Callee: modX + "/lexer", CoupledBranches: 49}, "fewer than 50"},
		{pairInfo{Caller: modX + "/parser", Callee: modX + "/lexer", CoupledBranches: 3001}, "more than 3000"},
		{pairInfo{Caller: modX + "/notests", Callee: modX + "/lexer", CoupledBranches: 500}, "no tests"},
		{pairInfo{Caller: modX + "/unlisted", Callee: modX + "/lexer", CoupledBranches: 500}, "no tests"},
	}
	for _, c := range cases {
		got := staticReason(c.p, modX, pkgs, r)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("staticReason(%s -> %s, %d) = %q, want %q", c.p.Caller, c.p.Callee, c.p.CoupledBranches, got, c.want)
		}
	}
}

func TestChoose(t *testing.T) {
	r := selectRules{MinCoupled: 50, MaxCoupled: 3000, PerModule: 2}
	a, b, c, d := modX+"/a", modX+"/b", modX+"/c", modX+"/d"
	pkgs := pkgsWithTests(a, b, c, d)
	pairs := []pairInfo{
		{Caller: a, Callee: b, CoupledBranches: 100},
		{Caller: a, Callee: c, CoupledBranches: 900},  // rank 2
		{Caller: c, Callee: d, CoupledBranches: 1000}, // rank 1, probe fails
		{Caller: b, Callee: d, CoupledBranches: 800},  // rank 3
		{Caller: d, Callee: a, CoupledBranches: 5000}, // too big
	}
	var probed []string
	probe := func(x *candidate) (string, string) {
		probed = append(probed, x.Caller+">"+x.Callee)
		if x.Caller == c {
			return "gen failed", ""
		}
		return "", "ok"
	}
	got := choose(pairs, modX, pkgs, r, probe)
	status := map[string]string{}
	for _, x := range got {
		status[x.Caller+">"+x.Callee] = x.Status
	}
	want := map[string]string{
		a + ">" + c: "chosen",
		b + ">" + d: "chosen",
		c + ">" + d: "probe failed",
		a + ">" + b: "not needed",
		d + ">" + a: "ineligible",
	}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("%s: status %q, want %q (all: %v)", k, status[k], v, status)
		}
	}
	if got[0].Caller != a || got[0].Callee != c || got[1].Caller != b {
		t.Errorf("chosen pairs should come first in the order chosen: %+v", got[:2])
	}
	if len(probed) != 3 {
		t.Errorf("probed %v, want the three best eligible pairs only", probed)
	}

	// When every pair shares a package, the second pass fills up.
	pairs = []pairInfo{
		{Caller: a, Callee: b, CoupledBranches: 300},
		{Caller: a, Callee: c, CoupledBranches: 200},
	}
	got = choose(pairs, modX, pkgs, r, func(*candidate) (string, string) { return "", "ok" })
	if got[0].Status != "chosen" || got[1].Status != "chosen" || got[1].Callee != c {
		t.Errorf("second pass: %+v", got)
	}
}

func TestParsePairSpecs(t *testing.T) {
	got, err := parsePairSpecs("expr:./parser:./parser/lexer, hcl:hcl/parser:hcl/scanner")
	if err != nil || len(got) != 2 || got[0] != (pairSpec{"expr", "./parser", "./parser/lexer"}) || got[1].Module != "hcl" {
		t.Errorf("parsePairSpecs = %+v, %v", got, err)
	}
	for _, bad := range []string{"", "expr:./parser", "expr::x", "a:b:c:d"} {
		if _, err := parsePairSpecs(bad); err == nil {
			t.Errorf("parsePairSpecs(%q) should fail", bad)
		}
	}
}

func TestResolvePkg(t *testing.T) {
	for in, want := range map[string]string{
		".":                   modX,
		"./parser":            modX + "/parser",
		"parser/lexer":        modX + "/parser/lexer",
		modX + "/parser":      modX + "/parser",
		"github.com/other/pk": "github.com/other/pk",
	} {
		if got := resolvePkg(in, modX); got != want {
			t.Errorf("resolvePkg(%q) = %q, want %q", in, got, want)
		}
	}
}
