package gate

import (
	"bufio"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// FileChange is what a change did to one file: the lines of the new file
// it touched, or that it deleted the file.
type FileChange struct {
	// Path is the file's path relative to the repository root, with
	// slashes.
	Path string
	// Lines are the touched lines of the new file (see parseDiff).
	Lines map[int]bool
	// Deleted is set when the change removes the file.
	Deleted bool
}

// SortedLines returns the touched lines in order.
func (f *FileChange) SortedLines() []int {
	out := make([]int, 0, len(f.Lines))
	for l := range f.Lines {
		out = append(out, l)
	}
	sort.Ints(out)
	return out
}

// Changes are the files a change touched, by absolute path (symbolic links
// resolved) below the repository root Root.
type Changes struct {
	Root  string
	Files map[string]*FileChange
}

// Touched reports whether the change touched a line from..to (inclusive)
// of the file at the absolute path file (symbolic links resolved).
func (c *Changes) Touched(file string, from, to int) bool {
	fc := c.Files[file]
	if fc == nil {
		return false
	}
	for l := from; l <= to; l++ {
		if fc.Lines[l] {
			return true
		}
	}
	return false
}

// Sorted returns the changed files in path order.
func (c *Changes) Sorted() []*FileChange {
	out := make([]*FileChange, 0, len(c.Files))
	for _, f := range c.Files {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// add merges the changes of other files into c.
func (c *Changes) add(files []*FileChange) {
	for _, f := range files {
		abs := filepath.Join(c.Root, filepath.FromSlash(f.Path))
		have := c.Files[abs]
		if have == nil {
			c.Files[abs] = f
			continue
		}
		for l := range f.Lines {
			have.Lines[l] = true
		}
		have.Deleted = f.Deleted
	}
}

// hunkHeader matches the header of a hunk of a unified diff: the old and
// the new file's start line and line count (1 when left out).
var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parseDiff reads the output of `git diff -U0 --no-renames` with the
// prefixes a/ and b/ and returns the touched lines of every file.
//
// A hunk that adds or replaces lines touches those lines of the new file.
// A hunk that only deletes lines touches the lines on both sides of the
// gap it leaves in the new file (the line before, when there is one, and
// the line after): the code that ran around the deleted lines is what
// behaves differently. A deleted file has no lines and is marked Deleted;
// a file whose mode alone changed, or a binary file, has no lines.
func parseDiff(out string) ([]*FileChange, error) {
	var files []*FileChange
	var cur *FileChange
	var oldPath string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur, oldPath = nil, ""
		case strings.HasPrefix(line, "--- "):
			p, err := diffPath(line[4:], "a/")
			if err != nil {
				return nil, err
			}
			oldPath = p
		case strings.HasPrefix(line, "+++ "):
			p, err := diffPath(line[4:], "b/")
			if err != nil {
				return nil, err
			}
			cur = &FileChange{Path: p, Lines: map[int]bool{}}
			if p == "" {
				cur.Path, cur.Deleted = oldPath, true
			}
			files = append(files, cur)
		case strings.HasPrefix(line, "@@ "):
			if cur == nil {
				return nil, fmt.Errorf("a hunk outside a file: %q", line)
			}
			if cur.Deleted {
				continue
			}
			m := hunkHeader.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("a malformed hunk header: %q", line)
			}
			start, _ := strconv.Atoi(m[3])
			count := 1
			if m[4] != "" {
				count, _ = strconv.Atoi(m[4])
			}
			if count == 0 {
				// Lines deleted after line start of the new file.
				if start > 0 {
					cur.Lines[start] = true
				}
				cur.Lines[start+1] = true
				continue
			}
			for l := start; l < start+count; l++ {
				cur.Lines[l] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the diff: %w", err)
	}
	return files, nil
}

// diffPath returns the path of a ---/+++ line without its prefix, and ""
// for /dev/null. Git quotes paths with unusual characters C-style, and
// ends a path that holds a space with a tab.
func diffPath(s, prefix string) (string, error) {
	s = strings.TrimSuffix(s, "\t")
	if s == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			return "", fmt.Errorf("a quoted path in the diff: %s: %w", s, err)
		}
		s = u
	}
	p, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return "", fmt.Errorf("a path without the prefix %s in the diff: %s", prefix, s)
	}
	return p, nil
}
