package srcedit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApplyNestsAndTracksSpans(t *testing.T) {
	src := []byte("x := a + b")
	eds := []Edit{
		{Off: 5, Kind: Open, Text: "O(", Depth: 1},
		{Off: 10, Kind: Close, Text: ")", Depth: 1},
		{Off: 5, Kind: Open, Text: "I(", Depth: 2},
		{Off: 6, Kind: Close, Text: ")", Depth: 2},
		{Off: 7, End: 8, Kind: Replace, Text: ","},
		{Off: 0, Kind: Insert, Text: "_ = 1; "},
	}
	out, spans, err := Apply(src, eds)
	require.NoError(t, err)
	assert.Equal(t, "_ = 1; x := O(I(a) , b)", string(out))
	assert.Equal(t, Span{12, 14}, spans[0])
	assert.Equal(t, "I(", string(out[spans[2].Start:spans[2].End]))
	assert.Equal(t, ",", string(out[spans[4].Start:spans[4].End]))
}

func TestApplyOrdersEditsAtOneOffset(t *testing.T) {
	// Closing texts of wrappers ending at 1, then a statement, then a
	// replacement, then opening texts of wrappers starting at 1; layers
	// nest wrappers of one node.
	src := []byte("ab")
	eds := []Edit{
		{Off: 1, Kind: Open, Text: "[1", Depth: 1, Layer: 1},
		{Off: 1, Kind: Open, Text: "[0", Depth: 1, Layer: 0},
		{Off: 1, Kind: Replace, End: 1, Text: "R"},
		{Off: 1, Kind: Insert, Text: "S"},
		{Off: 1, Kind: Close, Text: "0]", Depth: 1, Layer: 0},
		{Off: 1, Kind: Close, Text: "1]", Depth: 1, Layer: 1},
	}
	out, _, err := Apply(src, eds)
	require.NoError(t, err)
	assert.Equal(t, "a1]0]SR[0[1b", string(out))
}

func TestApplyRejectsNewlinesAndOverlaps(t *testing.T) {
	_, _, err := Apply([]byte("abc"), []Edit{{Off: 1, Kind: Replace, End: 2, Text: "\n"}})
	assert.ErrorContains(t, err, "would add a line")
	_, _, err = Apply([]byte("abcdef"), []Edit{{Off: 1, End: 4, Kind: Replace, Text: "x"}, {Off: 2, Kind: Insert, Text: "y"}})
	assert.ErrorContains(t, err, "overlapping edits")
}

func TestParents(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\nfunc f() { g(1) }\n", 0)
	require.NoError(t, err)
	m := Parents(f)
	assert.Nil(t, m[f])
	fd := f.Decls[0]
	assert.Equal(t, f, m[fd])
	assert.Len(t, m, 10) // every node but the file has a parent
}

func TestTree(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\nfunc f() { _ = ((g(1))) }\n", 0)
	require.NoError(t, err)
	tr := NewTree(f)
	assign := f.Decls[0].(*ast.FuncDecl).Body.List[0].(*ast.AssignStmt)
	outerParen := assign.Rhs[0].(*ast.ParenExpr)
	call := outerParen.X.(*ast.ParenExpr).X.(*ast.CallExpr)
	assert.Equal(t, 0, tr.Depth(f))
	assert.Equal(t, 3, tr.Depth(assign)) // below the file, the func decl, the body
	assert.Equal(t, 6, tr.Depth(call))   // and two parentheses

	outer, parent := tr.Unparen(call)
	assert.Same(t, outerParen, outer)
	assert.Same(t, assign, parent)
	outer, parent = tr.Unparen(assign)
	assert.Same(t, assign, outer, "no parentheses around a statement")
	assert.Same(t, f.Decls[0].(*ast.FuncDecl).Body, parent)
}
