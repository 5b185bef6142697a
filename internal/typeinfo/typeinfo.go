// Package typeinfo answers the questions about Go types that the
// instrumenters and the mutation operators ask of the code they rewrite:
// what kind of basic type a type is, whether a type can be named in a
// file, whether a call's function is a generic one with inferred type
// arguments.
package typeinfo

import (
	"go/ast"
	"go/types"
	"strings"
)

// IsUntyped reports whether t is an untyped basic type (or nil).
func IsUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return t == nil || (ok && b.Info()&types.IsUntyped != 0)
}

// BasicInfo returns the basic-type information of t's underlying type, 0
// for non-basic types and type parameters.
func BasicInfo(t types.Type) types.BasicInfo {
	if t == nil {
		return 0
	}
	if _, isParam := t.(*types.TypeParam); isParam {
		return 0
	}
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Info()
	}
	return 0
}

// IsNumeric reports whether t is an integer or floating-point type.
func IsNumeric(t types.Type) bool {
	i := BasicInfo(t)
	return i&(types.IsInteger|types.IsFloat) != 0 && i&types.IsComplex == 0
}

// IsInteger reports whether t is an integer type.
func IsInteger(t types.Type) bool { return BasicInfo(t)&types.IsInteger != 0 }

// IsBool reports whether t is a boolean type.
func IsBool(t types.Type) bool { return BasicInfo(t)&types.IsBoolean != 0 }

// TypeText names t in file of package pkg (type-checked with info), with
// the file's import names, and false if it cannot be named there.
func TypeText(pkg *types.Package, info *types.Info, file *ast.File, t types.Type) (string, bool) {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		for _, spec := range file.Imports {
			if pn := info.PkgNameOf(spec); pn != nil && pn.Imported() == p {
				if pn.Name() == "." {
					return ""
				}
				if pn.Name() != "_" {
					return pn.Name()
				}
			}
		}
		ok = false
		return p.Name()
	})
	if strings.Contains(s, "untyped") || strings.Contains(s, "invalid type") || strings.ContainsAny(s, "\n\r") {
		return "", false
	}
	return s, ok
}

// InferredGeneric reports whether fun names a generic function whose type
// arguments are inferred at the call: such a function is no value.
func InferredGeneric(info *types.Info, fun ast.Expr) bool {
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	_, ok := info.Instances[id]
	return ok
}
