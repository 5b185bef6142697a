// Package render is the caller of the registry fixture: a package-level
// registry, written by Register, decides how Render calls format.Style.
package render

import "example.com/registry/format"

var custom = map[string]bool{}

// Register makes Render show name in the custom style.
func Register(name string) { custom[name] = true }

// Render shows name.
func Render(name string) string { return format.Style(name, custom[name]) }
