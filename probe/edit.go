package probe

import (
	"fmt"
	"sort"
	"strings"
)

// editKind orders the edits that land on the same offset: closing texts of
// wrappers that end there come first, then inserted statements, then
// replacements, then opening texts of wrappers that start there.
type editKind int

const (
	kindClose editKind = iota
	kindStmt
	kindReplace
	kindOpen
)

// edit is one change to a source file. Every edit keeps line numbers: no
// inserted or replacing text contains a newline (checked by apply).
type edit struct {
	off, end int // byte offsets; end > off only for replacements
	kind     editKind
	text     string
	// For wrappers: the AST depth of the node that owns the wrapper and a
	// layer among wrappers of one node (lower is outer), used to nest
	// wrappers that cover the same range.
	depth, layer int
	seq          int
}

// editor collects the edits of one file.
type editor struct {
	src   []byte
	edits []edit
	seq   int
}

func (e *editor) add(ed edit) {
	e.seq++
	ed.seq = e.seq
	e.edits = append(e.edits, ed)
}

// wrap surrounds src[off:end] with open and close.
func (e *editor) wrap(off, end int, open, close string, depth, layer int) {
	e.add(edit{off: off, kind: kindOpen, text: open, depth: depth, layer: layer})
	e.add(edit{off: end, kind: kindClose, text: close, depth: depth, layer: layer})
}

// insert inserts a statement (or any text) at off.
func (e *editor) insert(off int, text string) {
	e.add(edit{off: off, kind: kindStmt, text: text})
}

// replace replaces src[off:end] with text.
func (e *editor) replace(off, end int, text string) {
	e.add(edit{off: off, end: end, kind: kindReplace, text: text})
}

// less orders two edits at the same offset.
func less(a, b edit) bool {
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	switch a.kind {
	case kindOpen: // outer first
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		if a.layer != b.layer {
			return a.layer < b.layer
		}
	case kindClose: // inner first
		if a.depth != b.depth {
			return a.depth > b.depth
		}
		if a.layer != b.layer {
			return a.layer > b.layer
		}
	}
	return a.seq < b.seq
}

// apply returns the edited source.
func (e *editor) apply() ([]byte, error) {
	eds := append([]edit(nil), e.edits...)
	sort.SliceStable(eds, func(i, j int) bool {
		if eds[i].off != eds[j].off {
			return eds[i].off < eds[j].off
		}
		return less(eds[i], eds[j])
	})
	var out strings.Builder
	out.Grow(len(e.src) + 64*len(eds))
	pos := 0
	for _, ed := range eds {
		if strings.ContainsAny(ed.text, "\n\r") {
			return nil, fmt.Errorf("internal error: edit at offset %d would add a line", ed.off)
		}
		if ed.off < pos {
			return nil, fmt.Errorf("internal error: overlapping edits at offset %d", ed.off)
		}
		out.Write(e.src[pos:ed.off])
		pos = ed.off
		out.WriteString(ed.text)
		if ed.kind == kindReplace {
			pos = ed.end
		}
	}
	out.Write(e.src[pos:])
	return []byte(out.String()), nil
}
