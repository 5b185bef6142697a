package probe

import "github.com/cling-go/cling/internal/srcedit"

// editor collects the line-preserving edits of one file.
type editor struct {
	src   []byte
	edits []srcedit.Edit
}

// wrap surrounds src[off:end] with open and close.
func (e *editor) wrap(off, end int, open, close string, depth, layer int) {
	e.edits = append(e.edits,
		srcedit.Edit{Off: off, Kind: srcedit.Open, Text: open, Depth: depth, Layer: layer},
		srcedit.Edit{Off: end, Kind: srcedit.Close, Text: close, Depth: depth, Layer: layer})
}

// insert inserts a statement (or any text) at off.
func (e *editor) insert(off int, text string) {
	e.edits = append(e.edits, srcedit.Edit{Off: off, Kind: srcedit.Insert, Text: text})
}

// replace replaces src[off:end] with text.
func (e *editor) replace(off, end int, text string) {
	e.edits = append(e.edits, srcedit.Edit{Off: off, End: end, Kind: srcedit.Replace, Text: text})
}

// apply returns the edited source.
func (e *editor) apply() ([]byte, error) {
	out, _, err := srcedit.Apply(e.src, e.edits)
	return out, err
}
