// Package srcedit applies line-preserving text edits to Go source files.
// Both the probe instrumenter and the mutant-schemata writer change source
// by wrapping expressions, inserting statements and replacing tokens; they
// must keep every line number so that positions in compiler errors, panics
// and coverage map back to the user's file. An Edit therefore never adds a
// line, and edits landing on the same offset are ordered so that wrappers
// nest properly.
package srcedit

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"
)

// Kind orders the edits that land on the same offset: closing texts of
// wrappers that end there come first (inner first), then inserted
// statements, then replacements, then opening texts of wrappers that start
// there (outer first).
type Kind int

// The edit kinds, in the order they apply at one offset.
const (
	Close Kind = iota
	Insert
	Replace
	Open
)

// Edit is one change: Text inserted at Off, or, for Replace, replacing
// src[Off:End].
type Edit struct {
	Off, End int
	Kind     Kind
	Text     string
	// Depth is the AST depth of the node a wrapper belongs to and Layer
	// orders wrappers of one node (lower is outer); together they nest
	// wrappers that cover the same range.
	Depth, Layer int
}

// Span is a byte range of an edited output.
type Span struct{ Start, End int }

// Apply returns src with the edits applied and, for each edit in the order
// of eds, the span of the output that holds its text. An edit whose text
// holds a newline, or edits that overlap, are an error.
func Apply(src []byte, eds []Edit) ([]byte, []Span, error) {
	order := make([]int, len(eds))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := eds[order[i]], eds[order[j]]
		if a.Off != b.Off {
			return a.Off < b.Off
		}
		return before(a, b)
	})
	spans := make([]Span, len(eds))
	var out strings.Builder
	out.Grow(len(src) + 48*len(eds))
	pos := 0
	for _, i := range order {
		ed := eds[i]
		if strings.ContainsAny(ed.Text, "\n\r") {
			return nil, nil, fmt.Errorf("internal error: edit at offset %d would add a line", ed.Off)
		}
		if ed.Off < pos {
			return nil, nil, fmt.Errorf("internal error: overlapping edits at offset %d", ed.Off)
		}
		out.Write(src[pos:ed.Off])
		pos = ed.Off
		start := out.Len()
		out.WriteString(ed.Text)
		spans[i] = Span{start, out.Len()}
		if ed.Kind == Replace && ed.End > ed.Off {
			pos = ed.End
		}
	}
	out.Write(src[pos:])
	return []byte(out.String()), spans, nil
}

// before orders two edits at the same offset; edits that tie keep their
// order in the input (Apply sorts stably).
func before(a, b Edit) bool {
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	switch a.Kind {
	case Open: // outer first
		if a.Depth != b.Depth {
			return a.Depth < b.Depth
		}
		return a.Layer < b.Layer
	case Close: // inner first
		if a.Depth != b.Depth {
			return a.Depth > b.Depth
		}
		return a.Layer > b.Layer
	}
	return false
}

// Tree is a file's syntax tree seen from below: every node's parent and,
// computed on demand, its depth (the nesting the edits are ordered by).
type Tree struct {
	Parent map[ast.Node]ast.Node
	depths map[ast.Node]int
}

// NewTree indexes the nodes of f.
func NewTree(f *ast.File) *Tree {
	return &Tree{Parent: Parents(f), depths: map[ast.Node]int{}}
}

// Depth is the number of ancestors of n.
func (t *Tree) Depth(n ast.Node) int {
	if d, ok := t.depths[n]; ok {
		return d
	}
	d := 0
	if p := t.Parent[n]; p != nil {
		d = t.Depth(p) + 1
	}
	t.depths[n] = d
	return d
}

// Unparen climbs from n through the parentheses around it: it returns the
// outermost parenthesised expression holding n (n itself without any) and
// that expression's parent.
func (t *Tree) Unparen(n ast.Node) (outer, parent ast.Node) {
	for {
		p := t.Parent[n]
		pe, ok := p.(*ast.ParenExpr)
		if !ok {
			return n, p
		}
		n = pe
	}
}

// Parents maps every node of a file to its parent.
func Parents(f *ast.File) map[ast.Node]ast.Node {
	m := map[ast.Node]ast.Node{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			m[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return m
}
