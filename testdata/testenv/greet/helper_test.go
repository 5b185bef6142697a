package greet_test

import (
	"os"
	"strings"

	"example.com/testenv/catalog"
)

// useLanguage makes the language that the file at path names the
// catalog's.
func useLanguage(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	catalog.Lang = strings.TrimSpace(string(b))
	return nil
}
