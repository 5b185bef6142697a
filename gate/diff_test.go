package gate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseDiff(t *testing.T) {
	type file struct {
		path    string
		lines   []int
		deleted bool
	}
	tests := []struct {
		name string
		diff string
		want []file
	}{
		{"a replaced line", `diff --git a/p/x.go b/p/x.go
index 1..2 100644
--- a/p/x.go
+++ b/p/x.go
@@ -108 +108 @@ func (e *Engine) priceLine(l Line) QuotedLine {
-	if best > sub.Cents() {
+	if best >= sub.Cents() {
`, []file{{"p/x.go", []int{108}, false}}},
		{"added and replaced lines", `diff --git a/x.go b/x.go
--- a/x.go
+++ b/x.go
@@ -3,2 +3,4 @@
-a
-b
+a
+b
+c
+d
@@ -10,0 +13,2 @@ func f() {
+x
+y
`, []file{{"x.go", []int{3, 4, 5, 6, 13, 14}, false}}},
		{"a deletion touches the lines around it", `diff --git a/x.go b/x.go
--- a/x.go
+++ b/x.go
@@ -5,2 +4,0 @@
-gone
-gone too
`, []file{{"x.go", []int{4, 5}, false}}},
		{"a deletion at the start of a file", `diff --git a/x.go b/x.go
--- a/x.go
+++ b/x.go
@@ -1 +0,0 @@
-// comment
`, []file{{"x.go", []int{1}, false}}},
		{"a new file", `diff --git a/n.go b/n.go
new file mode 100644
--- /dev/null
+++ b/n.go
@@ -0,0 +1,3 @@
+package n
+
+func F() {}
`, []file{{"n.go", []int{1, 2, 3}, false}}},
		{"a deleted file", `diff --git a/d.go b/d.go
deleted file mode 100644
--- a/d.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package d
-func G() {}
`, []file{{"d.go", nil, true}}},
		{"a mode change and a binary file have no lines", `diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/img.png b/img.png
index 1..2 100644
Binary files a/img.png and b/img.png differ
diff --git a/y.go b/y.go
--- a/y.go
+++ b/y.go
@@ -2 +2 @@
-x
+y
`, []file{{"y.go", []int{2}, false}}},
		{"quoted paths and paths with spaces", `diff --git "a/sp\303\244ter.go" "b/sp\303\244ter.go"
--- "a/sp\303\244ter.go"
+++ "b/sp\303\244ter.go"
@@ -1 +1 @@
-a
+b
diff --git a/my dir/z.go b/my dir/z.go
` + "--- a/my dir/z.go\t\n+++ b/my dir/z.go\t\n" + `@@ -7 +7 @@
-a
+b
`, []file{{"später.go", []int{1}, false}, {"my dir/z.go", []int{7}, false}}},
		{"no change", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := parseDiff(tt.diff)
			require.NoError(t, err)
			var got []file
			for _, f := range files {
				var lines []int
				if len(f.Lines) > 0 {
					lines = f.SortedLines()
				}
				got = append(got, file{f.Path, lines, f.Deleted})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseDiffErrors(t *testing.T) {
	for _, tc := range []struct{ diff, err string }{
		{"@@ -1 +1 @@\n", `a hunk outside a file: "@@ -1 +1 @@"`},
		{"--- a/x.go\n+++ b/x.go\n@@ nonsense @@\n", `a malformed hunk header: "@@ nonsense @@"`},
		{"--- a/x.go\n+++ x.go\n", "a path without the prefix b/ in the diff: x.go"},
	} {
		_, err := parseDiff(tc.diff)
		assert.EqualError(t, err, tc.err)
	}
}

func TestChangesTouched(t *testing.T) {
	c := &Changes{Root: "/repo", Files: map[string]*FileChange{}}
	c.add([]*FileChange{{Path: "p/x.go", Lines: map[int]bool{10: true, 12: true}}})
	c.add([]*FileChange{{Path: "p/x.go", Lines: map[int]bool{20: true}}})
	for _, tc := range []struct {
		file     string
		from, to int
		want     bool
	}{
		{"/repo/p/x.go", 10, 10, true},
		{"/repo/p/x.go", 11, 11, false},
		{"/repo/p/x.go", 11, 12, true},
		{"/repo/p/x.go", 20, 20, true},
		{"/repo/p/x.go", 13, 19, false},
		{"/repo/p/y.go", 10, 10, false},
	} {
		assert.Equal(t, tc.want, c.Touched(tc.file, tc.from, tc.to), "%s:%d-%d", tc.file, tc.from, tc.to)
	}
}
