// Package catalog knows the greeting of each language.
package catalog

// Lang is the language of a greeting that names none; "" is English.
var Lang string

// Word is the greeting in lang, or in Lang when lang is "".
func Word(lang string) string {
	if lang == "" {
		lang = Lang
	}
	switch lang {
	case "fr":
		return "bonjour"
	case "de":
		return "hallo"
	}
	return "hello"
}
