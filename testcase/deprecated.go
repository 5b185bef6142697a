package testcase

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"sync"
)

// deprecatedLines caches, per source file, the lines of the names of the
// declarations its doc comments mark deprecated, for the whole process:
// the sources of the packages a run loads do not change while it runs.
var deprecatedLines struct {
	sync.Mutex
	files map[string]map[int]bool
}

// Deprecated reports whether obj, a function, method, type or struct
// field whose position fset knows, is deprecated: its doc comment (or,
// for a field, its line comment) has a paragraph that begins
// "Deprecated:", the convention go doc, gopls and staticcheck read. A
// test cling writes uses nothing deprecated outside R's API, so that the
// linters a module runs over its tests find nothing to say. The source
// file is parsed once, when first asked; a declaration whose source
// cannot be read is not deprecated.
func Deprecated(fset *token.FileSet, obj types.Object) bool {
	if obj == nil || !obj.Pos().IsValid() {
		return false
	}
	pos := fset.Position(obj.Pos())
	if pos.Filename == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(pos.Filename, "$GOROOT"); ok {
		// Export data names the standard library's files so.
		pos.Filename = build.Default.GOROOT + rest
	}
	deprecatedLines.Lock()
	defer deprecatedLines.Unlock()
	if deprecatedLines.files == nil {
		deprecatedLines.files = map[string]map[int]bool{}
	}
	lines, ok := deprecatedLines.files[pos.Filename]
	if !ok {
		lines = deprecatedIn(pos.Filename)
		deprecatedLines.files[pos.Filename] = lines
	}
	return lines[pos.Line]
}

// deprecatedIn returns the lines of the names of the deprecated
// declarations of a source file (nil if it cannot be parsed).
func deprecatedIn(filename string) map[int]bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	lines := map[int]bool{}
	mark := func(names []*ast.Ident, docs ...*ast.CommentGroup) {
		for _, d := range docs {
			if isDeprecation(d) {
				for _, n := range names {
					lines[fset.Position(n.Pos()).Line] = true
				}
				return
			}
		}
	}
	fields := func(fl *ast.FieldList, outer *ast.CommentGroup) {
		if fl == nil {
			return
		}
		for _, fd := range fl.List {
			mark(fd.Names, fd.Doc, fd.Comment, outer)
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			mark([]*ast.Ident{d.Name}, d.Doc)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				// A group's doc comment speaks for a spec of its own only
				// when the group has one spec.
				var group *ast.CommentGroup
				if len(d.Specs) == 1 {
					group = d.Doc
				}
				switch s := spec.(type) {
				case *ast.TypeSpec:
					mark([]*ast.Ident{s.Name}, s.Doc, group)
					switch t := s.Type.(type) {
					case *ast.StructType:
						fields(t.Fields, nil)
					case *ast.InterfaceType:
						fields(t.Methods, nil)
					}
				case *ast.ValueSpec:
					mark(s.Names, s.Doc, s.Comment, group)
				}
			}
		}
	}
	return lines
}

// isDeprecation reports whether a comment has a paragraph that begins
// "Deprecated:".
func isDeprecation(cg *ast.CommentGroup) bool {
	if cg == nil {
		return false
	}
	for _, para := range strings.Split(cg.Text(), "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(para), "Deprecated:") {
			return true
		}
	}
	return false
}
