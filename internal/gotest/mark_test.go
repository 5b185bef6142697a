package gotest

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// describe is a statement that shows what Mark saw of each function.
func describe(fn TestFunc) string {
	return fmt.Sprintf("rt.Begin(%q, %q, %q)", fn.Name, fn.Param, fn.Type)
}

func TestMark(t *testing.T) {
	tests := []struct {
		what  string
		src   string
		want  string
		tests []string
	}{
		{
			what: "T, B and F parameters",
			src: `package p

import "testing"

func TestA(t *testing.T) {
	t.Log("a")
}

func FuzzB(f *testing.F) {}

func TestC(b *testing.B) {}
`,
			want: `package p; import rt "example.com/rt"

import "testing"

func TestA(t *testing.T) { rt.Begin("TestA", "t", "T");
	t.Log("a")
}

func FuzzB(f *testing.F) { rt.Begin("FuzzB", "f", "F");}

func TestC(b *testing.B) { rt.Begin("TestC", "b", "B");}
`,
			tests: []string{"TestA", "FuzzB", "TestC"},
		},
		{
			what: "unnamed, underscore and other parameters",
			src: `package p_test

import tt "testing"

func TestA(_ *tt.T) {}
func TestB(*tt.T) {}
func TestC(t tt.T) {}
func TestD(t, u *tt.T) {}
func TestE(t *T) {}
func Example() {}
func ExampleF_g() {}
`,
			want: `package p_test; import rt "example.com/rt"

import tt "testing"

func TestA(_ *tt.T) { rt.Begin("TestA", "", "");}
func TestB(*tt.T) { rt.Begin("TestB", "", "");}
func TestC(t tt.T) { rt.Begin("TestC", "", "");}
func TestD(t, u *tt.T) { rt.Begin("TestD", "", "");}
func TestE(t *T) { rt.Begin("TestE", "", "");}
func Example() { rt.Begin("Example", "", "");}
func ExampleF_g() { rt.Begin("ExampleF_g", "", "");}
`,
			tests: []string{"TestA", "TestB", "TestC", "TestD", "TestE", "Example", "ExampleF_g"},
		},
		{
			what: "no test functions",
			src: `package p

import "testing"

func TestMain(m *testing.M) {}
func Testify(t *testing.T) {}
func helper(t *testing.T) {}
func (s suite) TestX(t *testing.T) {}
func BenchmarkY(b *testing.B) {}
`,
			want: `package p

import "testing"

func TestMain(m *testing.M) {}
func Testify(t *testing.T) {}
func helper(t *testing.T) {}
func (s suite) TestX(t *testing.T) {}
func BenchmarkY(b *testing.B) {}
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			out, marked, err := Mark("p_test.go", []byte(tt.src), "rt", "example.com/rt", describe)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(out))
			assert.Equal(t, tt.tests, marked)
			assert.Equal(t, strings.Count(tt.src, "\n"), strings.Count(string(out), "\n"), "every line keeps its number")
		})
	}
}

func TestMarkRejectsWhatDoesNotParse(t *testing.T) {
	_, _, err := Mark("bad_test.go", []byte("package p\nfunc TestA(t *testing.T) {"), "rt", "example.com/rt", describe)
	assert.ErrorContains(t, err, "parsing bad_test.go: bad_test.go:2:")
}

func TestIsTestFunc(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"Test", true},
		{"TestA", true},
		{"Test_a", true},
		{"Test1", true},
		{"TestÉté", true},
		{"Testify", false},
		{"TestMain", false},
		{"Example", true},
		{"ExampleFoo_bar", true},
		{"Examples", false},
		{"Fuzz", true},
		{"FuzzParse", true},
		{"Fuzzy", false},
		{"BenchmarkA", false},
		{"test", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IsTestFunc(tt.name), tt.name)
	}
}

// The names a file declares at package scope: functions but not methods,
// and with all also types, variables and constants; never imports.
func TestPackageScopeNames(t *testing.T) {
	src := `package p_test

import (
	"testing"
	alias "strings"
)

type fixture struct{}

func (fixture) Method() {}

var x, y = 1, alias.ToUpper

const (
	z = 3
)

func TestA(t *testing.T) {}

func helper() {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "a_test.go", src, parser.SkipObjectResolution)
	require.NoError(t, err)
	assert.Equal(t, []string{"TestA", "helper"}, PackageScopeNames(f, false))
	assert.Equal(t, []string{"fixture", "x", "y", "z", "TestA", "helper"}, PackageScopeNames(f, true))
}
