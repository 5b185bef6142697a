package describe

import (
	"os"
	"strings"

	"example.com/procstate/label"
)

// The tests of this package read labels in the style testdata/style
// names.
func init() {
	style, err := os.ReadFile("testdata/style")
	if err != nil {
		panic(err)
	}
	label.Plain = strings.TrimSpace(string(style)) == "plain"
}
