package probe

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/internal/srcedit"
)

// Exits in the packages R and E import. A logger's Fatal or a package's
// exit helper often lives in a third package (zap's internal/exit holds
// `var _exit = os.Exit`, logrus keeps os.Exit as a field), which the
// probes do not rewrite: the exit then ends the worker, the search pays a
// process start for it, and the test is a crash rather than an exit. In
// search mode the references to exit functions in those packages are
// routed through the runtime as in R and E, and nothing else of them
// changes.

// exitWords are the words a file must hold to refer to a function that
// ends the process: a cheap filter before anything is type-checked.
var exitWords = [][]byte{[]byte("Exit"), []byte("Fatal")}

// dependencyExits rewrites, into out, the exits of the packages outside
// the standard library that R and E import, directly or not (not R, E or
// packages that use cgo).
func (p *Plan) dependencyExits(ctx context.Context, rtImport string, out *Instrumented) error {
	prog := p.A.Prog
	var roots []string
	for _, c := range p.A.Packages() {
		roots = append(roots, c.Pkg.Path)
	}
	// Where the packages cannot be listed or loaded, their exits stay
	// real, as before: a crash costs a worker, not the run (the build
	// says what is wrong, if anything is).
	candidates, err := exitCandidates(ctx, prog.Dir, prog.Tags, roots...)
	if err != nil || len(candidates) == 0 {
		return nil
	}
	deps, err := ccfg.Load(ccfg.LoadConfig{Dir: prog.Dir, Tags: prog.Tags, Patterns: candidates, TypesOnly: true})
	if err != nil {
		return nil
	}
	for _, pkg := range deps.Packages {
		if pkg.Standard {
			continue
		}
		sources, err := deps.SourceFiles(pkg)
		if err != nil {
			continue // cgo: left as it is
		}
		for _, f := range sources {
			fi := &fileInstr{p: p, pkg: pkg, file: f.AST, path: f.Path, tf: f.TF, ed: &editor{src: f.Src}, tree: srcedit.NewTree(f.AST)}
			fi.exits()
			if err := fi.output(rtImport, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// exitCandidates lists the packages outside the standard library that
// the packages roots import, directly or not, other than the roots, and
// one of whose files holds an exit word, sorted.
func exitCandidates(ctx context.Context, dir string, tags []string, roots ...string) ([]string, error) {
	args := []string{"list", "-deps", "-f", "{{if not .Standard}}{{if not .CgoFiles}}{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \"\\t\"}}{{end}}{{end}}"}
	if len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
	}
	listed, err := goCommand(ctx, dir, append(args, roots...)...)
	if err != nil {
		return nil, fmt.Errorf("listing the packages %s imports: %w", strings.Join(roots, " and "), err)
	}
	var out []string
	for _, line := range strings.Split(string(listed), "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) < 3 || slices.Contains(roots, fields[0]) {
			continue
		}
		for _, name := range fields[2:] {
			src, err := os.ReadFile(filepath.Join(fields[1], name))
			if err == nil && holdsAny(src, exitWords) {
				out = append(out, fields[0])
				break
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func holdsAny(src []byte, words [][]byte) bool {
	for _, w := range words {
		if bytes.Contains(src, w) {
			return true
		}
	}
	return false
}
