package gen

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/cling-go/cling/emit"
)

// maxVerifyRounds bounds how often failing tests are dropped and the file
// verified again.
const maxVerifyRounds = 6

// verdict is what verify made of a set of tests.
type verdict struct {
	// src is the file of the tests that passed; nil when, after
	// maxVerifyRounds, some still failed.
	src []byte
	// passed are the tests of src, under the names they have in it.
	passed []namedTest
	// dropped are the names of the tests that did not compile or failed.
	dropped []string
}

// verify emits the tests and runs them, through an overlay of the output
// file only, with go test -count=N (vet included), dropping the tests
// that do not compile or fail, until the file passes. First it renames the
// tests whose names a test file of R's directory declares (avoidNames).
// It keeps the tests that passed, in the order of their first goal.
func (j *job) verify(ctx context.Context, tests []namedTest) (verdict, error) {
	declared := j.declaredInTests()
	avoidNames(tests, declared)
	var dropped []string
	for round := 0; round < maxVerifyRounds && len(tests) > 0; round++ {
		sortNamed(tests)
		src, err := j.render(tests, declared)
		if err != nil {
			return verdict{}, err
		}
		failed, err := j.runFile(ctx, src, tests)
		if err != nil {
			return verdict{}, err
		}
		if len(failed) == 0 {
			return verdict{src: src, passed: tests, dropped: dropped}, nil
		}
		var keep []namedTest
		for _, t := range tests {
			if failed[t.Name] {
				dropped = append(dropped, t.Name)
			} else {
				keep = append(keep, t)
			}
		}
		tests = keep
	}
	if len(tests) > 0 {
		dropped = append(dropped, namesOf(tests)...)
	}
	return verdict{dropped: dropped}, nil
}

// render renders the file of the tests, whose package-scope names must
// differ from the declared ones.
func (j *job) render(tests []namedTest, declared map[string]bool) ([]byte, error) {
	a := j.a
	ets := make([]emit.Test, len(tests))
	for i, t := range tests {
		ets[i] = t.Test
	}
	header := fmt.Sprintf("%s\n\nIntegration tests of %s calling into %s. Each test drives %s's API so that a branch of %s runs inside a call made at one of %s's call sites (a coupled branch).",
		strings.TrimPrefix(Marker, "// "), a.Caller.Pkg.Path, a.Callee.Pkg.Path, a.Caller.Pkg.Name, a.Callee.Pkg.Name, a.Caller.Pkg.Name)
	goVersion := "go1.16" // the go command's default without a go directive
	if m := a.Caller.Pkg.Module; m != nil && m.GoVersion != "" {
		goVersion = "go" + m.GoVersion
	}
	return emit.File(j.cluster, ets, emit.Options{
		Package:       a.Caller.Pkg.Name + "_test",
		Header:        header,
		Dialect:       j.dialect,
		MaxEndAsserts: 4,
		GoVersion:     goVersion,
		Declared:      declared,
	})
}

// declaredInTests returns the package-scope names the other test files
// of R's directory declare: in package R_test every kind of
// declaration, with which an import or a test of the generated file would
// clash, and in any test file the functions, so that a generated test is
// never confused with a hand-written one of the same name.
func (j *job) declaredInTests() map[string]bool {
	pkg := j.a.Caller.Pkg.Name + "_test"
	taken := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(j.a.Caller.Pkg.Dir, "*_test.go"))
	for _, f := range files {
		if filepath.Clean(f) == filepath.Clean(j.out) {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		external := parsed.Name.Name == pkg
		for _, d := range parsed.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					taken[d.Name.Name] = true
				}
			case *ast.GenDecl:
				if !external || d.Tok == token.IMPORT {
					continue
				}
				for _, spec := range d.Specs {
					switch sp := spec.(type) {
					case *ast.TypeSpec:
						taken[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							taken[n.Name] = true
						}
					}
				}
			}
		}
	}
	return taken
}
