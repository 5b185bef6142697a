// Package fstree copies directory trees: fixture modules into test
// directories, modules into cling's workspaces, a package's files next to
// the tests cling runs, and real modules into the benchmarks' copies.
package fstree

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Copy copies the directory tree src to dst, creating dst. Files keep
// their permission bits, made writable by their owner (the module cache
// is read-only); a symbolic link to a file is copied as the file's
// content. Version-control directories (.git) and anything that is neither
// a directory nor a file (sockets, links to directories, broken links) are
// left out.
func Copy(src, dst string) error {
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if d.Name() == ".git" && path != src {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		info, err := os.Stat(path) // follows a link
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm()|0o200)
	})
	if err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	return nil
}
