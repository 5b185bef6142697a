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

// docLines caches, per source file, what the doc comments of its
// declarations say that tests must heed, by the line of the declared
// name, for the whole process: the sources of the packages a run loads do
// not change while it runs.
var docLines struct {
	sync.Mutex
	files map[string]*fileDocs
}

// fileDocs are the lines of the names of a file's declarations whose doc
// comment marks them deprecated, and of the types whose doc comment says
// their zero value is a value to use.
type fileDocs struct {
	deprecated, zeroValue map[int]bool
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
	docs, line := docsOf(fset, obj)
	return docs != nil && docs.deprecated[line]
}

// ZeroValueDocumented reports whether the doc comment of a type says its
// zero value is a value to use ("The zero value for Buffer is an empty
// buffer ready to use"; see usableZero): a struct type without exported
// fields whose doc does not is one whose zero value a test must not make
// up (an io.PipeWriter, a bufio.Writer, a regexp.Regexp), as its package
// hands out the values that work.
func ZeroValueDocumented(fset *token.FileSet, tn *types.TypeName) bool {
	docs, line := docsOf(fset, tn)
	return docs != nil && docs.zeroValue[line]
}

// docsOf returns what the doc comments of obj's file say, and the line of
// obj's name; nil if obj has no source to read.
func docsOf(fset *token.FileSet, obj types.Object) (*fileDocs, int) {
	if obj == nil || !obj.Pos().IsValid() {
		return nil, 0
	}
	pos := fset.Position(obj.Pos())
	if pos.Filename == "" {
		return nil, 0
	}
	if rest, ok := strings.CutPrefix(pos.Filename, "$GOROOT"); ok {
		// Export data names the standard library's files so.
		pos.Filename = build.Default.GOROOT + rest
	}
	docLines.Lock()
	defer docLines.Unlock()
	if docLines.files == nil {
		docLines.files = map[string]*fileDocs{}
	}
	docs, ok := docLines.files[pos.Filename]
	if !ok {
		docs = docsIn(pos.Filename)
		docLines.files[pos.Filename] = docs
	}
	return docs, pos.Line
}

// docsIn reads the doc comments of the declarations of a source file
// (nil if it cannot be parsed).
func docsIn(filename string) *fileDocs {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	docs := &fileDocs{deprecated: map[int]bool{}, zeroValue: map[int]bool{}}
	lineOf := func(n *ast.Ident) int { return fset.Position(n.Pos()).Line }
	mark := func(names []*ast.Ident, comments ...*ast.CommentGroup) {
		for _, c := range comments {
			if isDeprecation(c) {
				for _, n := range names {
					docs.deprecated[lineOf(n)] = true
				}
				return
			}
		}
	}
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, fd := range fl.List {
			mark(fd.Names, fd.Doc, fd.Comment)
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
					if usableZero(s.Doc) || usableZero(group) {
						docs.zeroValue[lineOf(s.Name)] = true
					}
					switch t := s.Type.(type) {
					case *ast.StructType:
						fields(t.Fields)
					case *ast.InterfaceType:
						fields(t.Methods)
					}
				case *ast.ValueSpec:
					mark(s.Names, s.Doc, s.Comment, group)
				}
			}
		}
	}
	return docs
}

// usableZero reports whether a type's doc comment says its zero value is
// a value to use: a sentence that names the zero value ("The zero value
// for Buffer is an empty buffer ready to use") without a condition or a
// warning ("the zero value of a Reader may be used after calling Reset",
// "must not", "not valid").
func usableZero(cg *ast.CommentGroup) bool {
	if cg == nil {
		return false
	}
	text := strings.ToLower(strings.Join(strings.Fields(cg.Text()), " "))
	for _, sentence := range strings.Split(text, ". ") {
		if !strings.Contains(sentence, "zero value") {
			continue
		}
		usable := true
		for _, w := range strings.Fields(sentence) {
			switch strings.Trim(w, ".,;:()[]") {
			case "after", "must", "not", "cannot", "reset", "invalid", "unusable":
				usable = false
			}
		}
		if usable {
			return true
		}
	}
	return false
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
