package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/internal/proc"
)

// RuntimeDeps maps each standard-library package the probe runtime
// imports, directly or not, to the runtime's direct import through which
// it does ("" for a direct import), as the go command in dir lists them.
// The probes cannot go into any of those packages: the instrumented
// package would import the runtime that imports it.
func RuntimeDeps(ctx context.Context, dir string) (map[string]string, error) {
	direct, err := runtimeImports()
	if err != nil {
		return nil, err
	}
	out, err := goCommand(ctx, dir, append([]string{"list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`}, direct...)...)
	if err != nil {
		return nil, fmt.Errorf("listing the packages the probe runtime imports: %w", err)
	}
	deps := map[string]string{}
	for _, p := range direct {
		deps[p] = ""
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		for _, d := range fields[1:] {
			if _, ok := deps[d]; !ok {
				deps[d] = fields[0]
			}
		}
	}
	return deps, nil
}

// runtimeImports returns the packages the runtime's files import, sorted.
func runtimeImports() ([]string, error) {
	seen := map[string]bool{}
	fset := token.NewFileSet()
	err := eachRuntimeFile(func(name string, src []byte) error {
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("reading the probe runtime: %w", err)
		}
		for _, imp := range f.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil {
				seen[p] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(seen))
	for p := range seen {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths, nil
}

// CheckInstrumentable returns an error naming the first of paths that is
// a standard-library package the probe runtime imports, and so cannot
// hold probes; nil if there is none. It runs the go command in dir only
// when one of paths is in the standard library.
func CheckInstrumentable(ctx context.Context, dir string, paths ...string) error {
	if !slices.ContainsFunc(paths, ccfg.IsStdPath) {
		return nil
	}
	deps, err := RuntimeDeps(ctx, dir)
	if err != nil {
		return err
	}
	for _, p := range paths {
		via, ok := deps[p]
		if !ok {
			continue
		}
		how := "imports it"
		if via != "" {
			how = "imports it through " + via
		}
		return fmt.Errorf("cannot put probes into %s: cling's probe runtime %s (of the standard library, cling pairs --std lists the callees it can instrument)", p, how)
	}
	return nil
}

// goCommand runs the go command in dir and returns its output; its error
// is the command's first line of complaint.
func goCommand(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := oneLine(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out, nil
}
