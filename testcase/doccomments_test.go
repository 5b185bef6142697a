package testcase

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The lines of the deprecated declarations of a file: a function, a type,
// a field by its doc or line comment, a var of a one-spec group, a method
// of an interface; not a declaration whose comment only mentions the word,
// nor one whose "Deprecated:" does not begin a paragraph, nor the specs
// of a group whose doc says it.
func TestDocsInDeprecated(t *testing.T) {
	src := `package p

// Old does it.
//
// Deprecated: use New.
func Old() {} // line 6

// New says Deprecated: but not at the start of a paragraph.
func New() {} // line 9

// Deprecated: gone.
type Gone struct{} // line 12

type S struct {
	// A is old.
	//
	// Deprecated: use B.
	A int // line 18
	B int // Deprecated: use C.
	// C is old.
	// Deprecated: not a paragraph of its own.
	C int // line 22
}

// Deprecated: do not use.
var V = 1 // line 26

// Deprecated: the group, not its specs.
const (
	K1 = 1 // line 30
	K2 = 2
)

type I interface {
	// Deprecated: use N.
	M() // line 36
}
`
	path := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	docs := docsIn(path)
	assert.Equal(t, map[int]bool{6: true, 12: true, 18: true, 19: true, 26: true, 36: true}, docs.deprecated)
	assert.Empty(t, docs.zeroValue)
	assert.Nil(t, docsIn(filepath.Join(t.TempDir(), "missing.go")))
}

// The types whose doc comment says their zero value is a value to use,
// not one to use after a condition.
func TestZeroValueDocumented(t *testing.T) {
	src := `package p

// Buffer holds bytes. The zero value for Buffer is an empty buffer ready to use.
type Buffer struct{ b []byte } // line 4

// Writer writes to a pipe.
type Writer struct{ p *int } // line 7

type (
	// List is a list; its Zero Value is empty.
	List struct{ n int } // line 11
	Other struct{}       // line 12
)

// Reader reads. Alternatively the zero value of a Reader may be used
// after calling [Reader.Reset].
type Reader struct{ r *int } // line 17

// Mutex locks. The zero value for a Mutex is an unlocked mutex. It must
// not be copied.
type Mutex struct{ n int } // line 21
`
	path := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, map[int]bool{4: true, 11: true, 21: true}, docsIn(path).zeroValue)
}
