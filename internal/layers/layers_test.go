package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A unit is a package path relative to the module root: "p" names the
// package p alone, "p/..." p and every package below it. A package belongs
// to the unit that names it most specifically, and the packages of one
// unit may import each other.
//
// A stage is a step of the pipeline: its units may import the units of
// earlier stages, never those of a later stage nor each other.
type stage []string

// pipeline is cling's pipeline order, first stage first. Data flows down
// this list: analysis, objectives, probes, test cases, the executor and
// emission, the search, the main job (and the plans of runs over many
// pairs), the pre-merge gate (and the runs over many pairs), the commands.
// docs/architecture.md draws it; a new package is placed here before it
// can be imported.
func pipeline() []stage {
	return []stage{
		// The runtimes are copied into the code under test (probe/rt into
		// the instrumented module, harness/hrt into the executor's main
		// package): they may import the standard library only.
		{"probe/rt", "harness/hrt"},
		// Helpers every stage may use.
		{"internal/..."},
		{"ccfg/..."},
		{"couple/..."},
		{"targets/..."},
		{"fitness/..."},
		{"probe/..."},
		{"criteria/..."},
		{"testcase/..."},
		{"emit/...", "harness/...", "repair/...", "recombine/..."},
		{"mosa/...", "fault/..."},
		// The main job; beside it, the plans and results of runs over many
		// pairs, plain data that knows no stage.
		{"gen/...", "shard/..."},
		// The pre-merge gate and the runs over many pairs join the
		// pipeline and the mutation branch.
		{"gate/...", "batch/..."},
		// The commands may import every package, the branch's included.
		{"cmd/...", "bench/..."},
	}
}

// branch is a chain of stages beside the pipeline: it may import the
// pipeline up to and including the stage of the unit base, and only the
// pipeline's stages from that of the unit join on may import it.
type branch struct {
	base, join string
	stages     []stage
}

// branches are the chains beside the pipeline: mutation analysis, which
// uses the analysis and the probes but no test generation, and which the
// gate and the commands use.
func branches() []branch {
	return []branch{{base: "probe/...", join: "gate/...", stages: []stage{{"mutate/..."}, {"mutate/report/..."}}}}
}

// place is where a unit sits: the chain (-1 for the pipeline, else the
// index of a branch) and the stage index within it.
type place struct {
	unit  string
	chain int
	stage int
}

// order is the pipeline and its branches, ready for lookups.
type order struct {
	places []place
	bases  []int // per branch, the pipeline stage of its base
	joins  []int // per branch, the first pipeline stage that may import it
}

func newOrder(pipe []stage, brs []branch) (*order, error) {
	o := &order{}
	stageOf := map[string]int{}
	for i, st := range pipe {
		for _, u := range st {
			o.places = append(o.places, place{unit: u, chain: -1, stage: i})
			stageOf[u] = i
		}
	}
	for b, br := range brs {
		base, ok := stageOf[br.base]
		if !ok {
			return nil, fmt.Errorf("branch base %s is not a unit of the pipeline", br.base)
		}
		join, ok := stageOf[br.join]
		if !ok {
			return nil, fmt.Errorf("branch join %s is not a unit of the pipeline", br.join)
		}
		if join <= base {
			return nil, fmt.Errorf("branch join %s does not come after its base %s", br.join, br.base)
		}
		o.bases = append(o.bases, base)
		o.joins = append(o.joins, join)
		for i, st := range br.stages {
			for _, u := range st {
				o.places = append(o.places, place{unit: u, chain: b, stage: i})
			}
		}
	}
	return o, nil
}

// placeOf returns the place of the unit that names pkg most specifically.
func (o *order) placeOf(pkg string) (place, bool) {
	best, bestScore := place{}, -1
	for _, p := range o.places {
		score := -1
		if prefix, ok := strings.CutSuffix(p.unit, "/..."); ok {
			if pkg == prefix || strings.HasPrefix(pkg, prefix+"/") {
				score = 2 * len(prefix)
			}
		} else if pkg == p.unit {
			score = 2*len(p.unit) + 1
		}
		if score > bestScore {
			best, bestScore = p, score
		}
	}
	return best, bestScore >= 0
}

// allowed reports whether a package at from may import one at to.
func (o *order) allowed(from, to place) bool {
	switch {
	case from.unit == to.unit:
		return true
	case from.chain < 0 && to.chain < 0:
		return to.stage < from.stage
	case from.chain < 0:
		return from.stage >= o.joins[to.chain]
	case to.chain < 0:
		return to.stage <= o.bases[from.chain]
	default:
		return from.chain == to.chain && to.stage < from.stage
	}
}

// listed is what the check needs of `go list -json`: a package and its
// imports (test files excluded), as paths relative to the module root.
type listed struct {
	Path    string
	Imports []string
}

// violations checks every package of the module against the order and
// returns one line per misplaced package or forbidden import.
func violations(o *order, pkgs []listed) []string {
	var out []string
	for _, p := range pkgs {
		from, ok := o.placeOf(p.Path)
		if !ok {
			out = append(out, fmt.Sprintf("%s has no place in the pipeline order: add it to pipeline() or branches()", p.Path))
			continue
		}
		for _, imp := range p.Imports {
			to, ok := o.placeOf(imp)
			if !ok {
				continue // reported as a package of its own
			}
			if !o.allowed(from, to) {
				out = append(out, fmt.Sprintf("%s imports %s: %s", p.Path, imp, o.why(from, to)))
			}
		}
	}
	return out
}

// why says which rule an import from from to to breaks.
func (o *order) why(from, to place) string {
	switch {
	case from.chain < 0 && to.chain >= 0:
		return fmt.Sprintf("%s is beside the pipeline, only stages from %s on may import it", to.unit, o.joinUnit(to.chain))
	case from.chain >= 0 && to.chain < 0:
		return fmt.Sprintf("%s comes after the branch's base in the pipeline", to.unit)
	case from.chain != to.chain:
		return fmt.Sprintf("%s is in another branch", to.unit)
	case from.stage == to.stage:
		return fmt.Sprintf("%s is in the same stage as %s", to.unit, from.unit)
	default:
		return fmt.Sprintf("%s comes later in the pipeline than %s", to.unit, from.unit)
	}
}

// joinUnit names the first unit of the stage where branch b joins the
// pipeline.
func (o *order) joinUnit(b int) string {
	for _, p := range o.places {
		if p.chain < 0 && p.stage == o.joins[b] {
			return p.unit
		}
	}
	return ""
}

// listModule runs `go list -json ./...` in the module and returns its
// packages with their imports of the module's own packages.
func listModule(t *testing.T) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Module,Error", "./...")
	cmd.Dir = fixture.Root()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Module     *struct{ Path string }
			Error      *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else {
			require.NoError(t, err, "decoding go list output")
		}
		require.Nil(t, p.Error, "go list %s", p.ImportPath)
		require.NotNil(t, p.Module, "%s is in no module", p.ImportPath)
		prefix := p.Module.Path + "/"
		rel := func(path string) (string, bool) { return strings.CutPrefix(path, prefix) }
		path, ok := rel(p.ImportPath)
		require.True(t, ok, "%s is outside module %s", p.ImportPath, p.Module.Path)
		l := listed{Path: path}
		for _, imp := range p.Imports {
			if r, ok := rel(imp); ok {
				l.Imports = append(l.Imports, r)
			}
		}
		pkgs = append(pkgs, l)
	}
	return pkgs
}

func TestModuleFollowsPipelineOrder(t *testing.T) {
	o, err := newOrder(pipeline(), branches())
	require.NoError(t, err)
	pkgs := listModule(t)
	paths := map[string]bool{}
	for _, p := range pkgs {
		paths[p.Path] = true
	}
	// The listing is the module's, not an empty or partial one.
	for _, p := range []string{"ccfg", "probe/rt", "mosa", "mutate/report", "cmd/cling"} {
		assert.True(t, paths[p], "go list did not list %s", p)
	}
	for _, v := range violations(o, pkgs) {
		t.Error(v)
	}
}

func TestViolations(t *testing.T) {
	pipe := []stage{{"rt"}, {"internal/..."}, {"a/..."}, {"b/...", "c"}, {"d"}, {"top"}, {"cmd/..."}}
	brs := []branch{{base: "b/...", join: "top", stages: []stage{{"m/..."}, {"m/report"}}}}
	o, err := newOrder(pipe, brs)
	require.NoError(t, err)
	tests := []struct {
		name string
		pkgs []listed
		want []string
	}{
		{"down the pipeline", []listed{{"d", []string{"c", "b", "a", "internal/x", "rt"}}}, nil},
		{"within a unit", []listed{{"a", []string{"a/sub"}}, {"a/sub/deeper", []string{"a"}}}, nil},
		{"helpers among themselves", []listed{{"internal/x", []string{"internal/y", "rt"}}}, nil},
		{"a later stage", []listed{{"b/x", []string{"d"}}},
			[]string{"b/x imports d: d comes later in the pipeline than b/..."}},
		{"the same stage", []listed{{"c", []string{"b"}}},
			[]string{"c imports b: b/... is in the same stage as c"}},
		{"a runtime imports a helper", []listed{{"rt", []string{"internal/x"}}},
			[]string{"rt imports internal/x: internal/... comes later in the pipeline than rt"}},
		{"a helper imports the pipeline", []listed{{"internal/x", []string{"a"}}},
			[]string{"internal/x imports a: a/... comes later in the pipeline than internal/..."}},
		{"the branch up to its base", []listed{{"m", []string{"b", "a", "internal/x"}}, {"m/report", []string{"m"}}}, nil},
		{"the branch past its base", []listed{{"m/x", []string{"d"}}},
			[]string{"m/x imports d: d comes after the branch's base in the pipeline"}},
		{"the branch backwards", []listed{{"m", []string{"m/report"}}},
			[]string{"m imports m/report: m/report comes later in the pipeline than m/..."}},
		{"the pipeline imports the branch", []listed{{"d", []string{"m"}}},
			[]string{"d imports m: m/... is beside the pipeline, only stages from top on may import it"}},
		{"the join imports the branch and the pipeline", []listed{{"top", []string{"m/report", "m", "d"}}}, nil},
		{"the branch imports the join", []listed{{"m", []string{"top"}}},
			[]string{"m imports top: top comes after the branch's base in the pipeline"}},
		{"the commands import everything", []listed{{"cmd/tool", []string{"m/report", "top", "d", "rt", "cmd/lib"}}}, nil},
		{"an unplaced package", []listed{{"e", nil}, {"d", []string{"e"}}},
			[]string{"e has no place in the pipeline order: add it to pipeline() or branches()"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, violations(o, tt.pkgs))
		})
	}
}

func TestBranchMustSitInPipeline(t *testing.T) {
	pipe := []stage{{"a"}, {"b"}}
	for _, tc := range []struct {
		br   branch
		want string
	}{
		{branch{base: "z", join: "b"}, "branch base z is not a unit of the pipeline"},
		{branch{base: "a", join: "z"}, "branch join z is not a unit of the pipeline"},
		{branch{base: "b", join: "a"}, "branch join a does not come after its base b"},
	} {
		_, err := newOrder(pipe, []branch{tc.br})
		assert.EqualError(t, err, tc.want)
	}
}
