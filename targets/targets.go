// Package targets lists what the coverage criteria other than the coupled
// branches aim at in an analysed pair (R, E), and numbers it for the
// probes and the criteria:
//
//   - the source lines of R and E on which a statement begins, in the
//     functions R's exported API can reach (Lines), each with the
//     branches that lead to it, for the search's approach level;
//   - R's externally callable functions (Funcs), which a test calls
//     directly, and the partitions of their results (Outputs);
//   - the interface mutants of RetStaRep and FunCalDel (Mutants), the
//     same mutants, in the same order and with the same IDs, that
//     `cling mutate` evaluates with its default operators.
//
// Package probe instruments these targets on request; the criteria turn
// them into goals.
package targets

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/srcedit"
)

// Targets are the targets of one pair.
type Targets struct {
	A *couple.Analysis
	// Reachable are the functions R's API reaches: R's reachable from its
	// externally callable functions, then E's reachable from the
	// functions R's call sites call.
	Reachable []*ccfg.Function
	// Lines are in file and line order, R's files and E's together.
	Lines []Line
	// Funcs are R's externally callable functions, by position.
	Funcs []Func
	// Outputs are the result partitions of Funcs, by function, result and
	// partition.
	Outputs []Output
	// Mutants are the interface mutants, numbered from 1 as `cling mutate`
	// numbers them.
	Mutants []*Mutant

	files map[*token.File]*File
}

// File is a non-test source file of R or E.
type File struct {
	ccfg.SourceFile
	Pkg *ccfg.Package
	// Rel is the file's name relative to the module root.
	Rel  string
	Tree *srcedit.Tree
}

// Of computes the targets of an analysed pair.
func Of(a *couple.Analysis) (*Targets, error) {
	t, err := newTargets(a)
	if err != nil {
		return nil, err
	}
	t.Reachable = reachable(a)
	t.Lines = t.lines()
	t.Funcs, t.Outputs = t.api()
	t.Mutants = t.mutants()
	return t, nil
}

// newTargets reads the source files of the pair.
func newTargets(a *couple.Analysis) (*Targets, error) {
	t := &Targets{A: a, files: map[*token.File]*File{}}
	for _, c := range []*ccfg.CCFG{a.Caller, a.Callee} {
		sources, err := a.Prog.SourceFiles(c.Pkg)
		if err != nil {
			return nil, fmt.Errorf("listing the targets of %s: %w", c.Pkg.Path, err)
		}
		for _, f := range sources {
			t.files[f.TF] = &File{SourceFile: f, Pkg: c.Pkg, Rel: a.Prog.RelFile(f.Path), Tree: srcedit.NewTree(f.AST)}
		}
	}
	return t, nil
}

// FileOf returns the source file holding pos, or nil.
func (t *Targets) FileOf(pos token.Pos) *File { return t.files[t.A.Prog.Fset.File(pos)] }

// body returns the body of a source function.
func body(f *ccfg.Function) *ast.BlockStmt {
	switch d := f.SSA.Syntax().(type) {
	case *ast.FuncDecl:
		return d.Body
	case *ast.FuncLit:
		return d.Body
	}
	return nil
}
