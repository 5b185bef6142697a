// Package catalog is a second caller of the registry fixture: it keeps
// entries in a package-level list, which its own test expects empty,
// writes them to a file named by its caller, which a test that names a
// relative path creates in its working directory, to a directory an
// option names, and to a snapshot file in the working directory, whatever
// the caller does.
package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"example.com/registry/format"
)

var entries []string

// Label shows name as the catalog would, in the custom style when it
// starts with "!".
func Label(name string) string {
	return format.Style(name, strings.HasPrefix(name, "!"))
}

// Add adds a name to the catalog.
func Add(name string) { entries = append(entries, name) }

// Show shows every entry, in the custom style when it starts with "!".
func Show() []string {
	var shown []string
	for _, e := range entries {
		shown = append(shown, format.Style(e, strings.HasPrefix(e, "!")))
	}
	return shown
}

// Save writes name, shown in the custom style when it starts with "!",
// to the file at path.
func Save(path, name string) error {
	if path == "" {
		return errors.New("catalog: no path")
	}
	return os.WriteFile(path, []byte(format.Style(name, strings.HasPrefix(name, "!"))+"\n"), 0o644)
}

// Snapshot writes name, shown in the custom style when it starts with
// "!", to snapshot.txt in the working directory.
func Snapshot(name string) error {
	if name == "" {
		return errors.New("catalog: no name")
	}
	return os.WriteFile("snapshot.txt", []byte(format.Style(name, strings.HasPrefix(name, "!"))+"\n"), 0o644)
}

// Options say where Export writes, and what.
type Options struct {
	// Dir is the directory Export writes export.txt into.
	Dir  string
	Name string
}

// Export writes o.Name, shown in the custom style when it starts with
// "!", to export.txt in o.Dir.
func Export(o Options) error {
	if o.Dir == "" {
		return errors.New("catalog: no directory")
	}
	return os.WriteFile(filepath.Join(o.Dir, "export.txt"), []byte(format.Style(o.Name, strings.HasPrefix(o.Name, "!"))+"\n"), 0o644)
}
