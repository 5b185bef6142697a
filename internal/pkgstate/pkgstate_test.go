package pkgstate_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"testing"

	"github.com/cling-go/cling/internal/pkgstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const src = `package p

var (
	registry = map[string]func() int{}
	cache    = map[string]int{}
	level    int
	opts     = &options{}
	regexpish *int
	list     []string
)

type options struct{ verbose bool }

func init() { registry["zero"] = func() int { return 0 } }

var preset = setUp()

func setUp() int { return 1 }

// Register writes the registry.
func Register(name string, f func() int) { registry[name] = f }

// Unregister deletes from it.
func Unregister(name string) { delete(registry, name) }

// SetLevel writes a variable.
func SetLevel(l int) { level = l }

// Verbose writes through a pointer a variable holds.
func Verbose() { opts.verbose = true }

// Add appends to a slice.
func Add(s string) { list = append(list, s) }

// Setup calls a writer.
func Setup() { SetLevel(3) }

// Memo memoises.
func Memo(k string) int {
	if v, ok := cache[k]; ok {
		return v
	}
	cache[k] = len(k)
	return len(k)
}

// Lazy initialises lazily.
func Lazy() int {
	if regexpish == nil {
		n := 4
		regexpish = &n
	}
	return *regexpish
}

// Read only reads.
func Read() int { return level + len(registry) }

// Local writes a local map.
func Local() map[string]int { m := map[string]int{}; m["a"] = 1; return m }

// Generic writes through an instantiation.
func Generic[T any](v T) { list = append(list, "x") }

// CallsGeneric calls it.
func CallsGeneric() { Generic(1) }

type Counter struct{ n int }

// Incr writes its receiver only.
func (c *Counter) Incr() { c.n++ }

// Reset writes a variable.
func (c *Counter) Reset() { c.n = 0; level = 0 }
`

func TestWriters(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, types.NewPackage("p", "p"), []*ast.File{f}, ssa.InstantiateGenerics)
	require.NoError(t, err)
	var names []string
	for fn := range pkgstate.Writers([]*ssa.Package{pkg}) {
		name := fn.Name()
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
			name = "Counter." + name
		}
		names = append(names, name)
	}
	sort.Strings(names)
	assert.Equal(t, []string{"Add", "CallsGeneric", "Counter.Reset", "Generic", "Register", "SetLevel", "Setup", "Unregister", "Verbose"}, names)
}
