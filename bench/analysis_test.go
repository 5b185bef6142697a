// Package bench holds cling's benchmarks; run.sh drives them (make bench).
// The Go benchmarks here time the analysis in-process so that it can be
// profiled without touching the command:
//
//	CLING_BENCH_MODULE=/path/to/module go test ./bench -run '^$' -bench . -cpuprofile cpu.out
//
// CLING_BENCH_CALLER and CLING_BENCH_CALLEE name the pair BenchmarkAnalyze
// loads (default ./parser and ./parser/lexer, a pair of expr). Without
// CLING_BENCH_MODULE the benchmarks are skipped.
package bench

import (
	"os"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
)

func benchModule(b *testing.B) string {
	dir := os.Getenv("CLING_BENCH_MODULE")
	if dir == "" {
		b.Skip("CLING_BENCH_MODULE is not set")
	}
	return dir
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// BenchmarkPairs is `cling pairs ./...`: loading with direct imports, then
// every pair's analysis.
func BenchmarkPairs(b *testing.B) {
	dir := benchModule(b)
	for b.Loop() {
		prog, err := ccfg.Load(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./..."}, WithImports: true})
		if err != nil {
			b.Fatal(err)
		}
		var callers []*ccfg.Package
		for _, p := range prog.Packages {
			if p.Matched {
				callers = append(callers, p)
			}
		}
		if len(couple.AllPairs(prog, callers)) == 0 {
			b.Fatal("no pairs")
		}
	}
}

// BenchmarkPairsAnalysisOnly is BenchmarkPairs without the loading: the
// CCFGs, call sites and coupled branches of every pair.
func BenchmarkPairsAnalysisOnly(b *testing.B) {
	dir := benchModule(b)
	prog, err := ccfg.Load(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./..."}, WithImports: true})
	if err != nil {
		b.Fatal(err)
	}
	var callers []*ccfg.Package
	for _, p := range prog.Packages {
		if p.Matched {
			callers = append(callers, p)
		}
	}
	for b.Loop() {
		couple.AllPairs(prog, callers)
	}
}

// BenchmarkAnalyze is `cling analyze --caller R --callee E`.
func BenchmarkAnalyze(b *testing.B) {
	dir := benchModule(b)
	caller, callee := envOr("CLING_BENCH_CALLER", "./parser"), envOr("CLING_BENCH_CALLEE", "./parser/lexer")
	for b.Loop() {
		if _, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee); err != nil {
			b.Fatal(err)
		}
	}
}
