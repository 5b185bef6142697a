package greet_test

import (
	"fmt"
	"os"
	"testing"

	"example.com/testenv/greet"
)

// The tests greet in the language of testdata/lang.
func TestMain(m *testing.M) {
	if err := useLanguage("testdata/lang"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func TestGreet(t *testing.T) {
	if got := greet.Greet("Ann", ""); got != "bonjour, Ann" {
		t.Errorf(`Greet("Ann", "") = %q; want "bonjour, Ann"`, got)
	}
}
