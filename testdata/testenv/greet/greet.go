// Package greet greets people. Its tests greet in the language of
// testdata/lang, which a helper of theirs reads in their TestMain.
package greet

import "example.com/testenv/catalog"

// Greet greets name in lang (the catalog's language when lang is "");
// nothing for an empty name.
func Greet(name, lang string) string {
	if name == "" {
		return ""
	}
	return catalog.Word(lang) + ", " + name
}
