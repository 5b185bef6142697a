// Package fstree copies directory trees (fixture modules into test
// directories, modules into cling's workspaces, a package's files next to
// the tests cling runs, real modules into the benchmarks' copies) and
// takes snapshots of them, to check that a run left a tree byte-identical.
package fstree

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
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

// Snapshot records every directory (its mode) and file (mode and content
// hash) under dir, keyed by path relative to dir (directories end in /),
// so that Diff can show whether a run left the tree byte-identical.
func Snapshot(dir string) (map[string]string, error) {
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			snap[rel+"/"] = info.Mode().String()
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		snap[rel] = info.Mode().String() + " " + hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot of %s: %w", dir, err)
	}
	return snap, nil
}

// Diff lists, sorted, the paths that differ between two snapshots: added,
// removed or changed.
func Diff(before, after map[string]string) []string {
	var out []string
	for k, v := range before {
		if after[k] != v {
			out = append(out, k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// CopyPackage copies a package directory's files and its testdata tree,
// the files its tests may read, to dst: where cling runs the package's
// tests, so that nothing they write lands in the module.
func CopyPackage(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		from, to := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		switch {
		case e.IsDir() && e.Name() == "testdata":
			if err := Copy(from, to); err != nil {
				return err
			}
		case e.Type().IsRegular():
			b, err := os.ReadFile(from)
			if err != nil {
				return err
			}
			if err := os.WriteFile(to, b, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
