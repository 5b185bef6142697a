package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves a command's flags in front of its positional
// arguments, so that `cling pairs ./... --json` means what it says (the
// flag parser stops at the first positional argument). Everything after a
// "--" stays where it is: cbc passes it on to go test. Unknown flags are
// moved too, and the parser then reports them.
func interspersed(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	// Skip the global flags to find the command.
	i := 1
	for i < len(args) && isFlag(args[i]) {
		if args[i] == "--" {
			return args
		}
		if takesValue(app.Flags, args[i]) {
			i++
		}
		i++
	}
	if i >= len(args) {
		return args
	}
	cmd := app.Command(args[i])
	if cmd == nil {
		return args
	}
	out := append([]string(nil), args[:i+1]...)
	var positional []string
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--" {
			positional = append(positional, rest[j:]...)
			break
		}
		if !isFlag(a) {
			positional = append(positional, a)
			continue
		}
		out = append(out, a)
		if takesValue(cmd.Flags, a) && j+1 < len(rest) {
			j++
			out = append(out, rest[j])
		}
	}
	return append(out, positional...)
}

// isFlag reports whether a looks like a flag ("-x", "--name", "--"), not a
// positional argument ("-" is one, as is "./...").
func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }

// takesValue reports whether the flag a (without "=value") is defined
// among flags and reads the next argument as its value.
func takesValue(flags []cli.Flag, a string) bool {
	name := strings.TrimLeft(a, "-")
	if strings.Contains(name, "=") {
		return false
	}
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if _, ok := f.(*cli.BoolFlag); ok {
				return false
			}
			return true
		}
	}
	return false
}
