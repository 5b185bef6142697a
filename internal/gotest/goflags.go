package gotest

import "strings"

// WithoutTrimpath returns the value of GOFLAGS, a space-separated list of
// go command flags, without -trimpath. The binaries cling builds must keep
// their source paths: where a panic was raised, a fault's position and
// the call site of R it went through are read from the runtime's stack
// frames, which -trimpath rewrites to module paths. Every other flag is
// kept as it was.
func WithoutTrimpath(goflags string) string {
	fields := strings.Fields(goflags)
	kept := fields[:0]
	for _, f := range fields {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if strings.HasPrefix(f, "-") && name == "trimpath" {
			continue
		}
		kept = append(kept, f)
	}
	return strings.Join(kept, " ")
}
