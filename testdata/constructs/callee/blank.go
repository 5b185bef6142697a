package callee

// Blank reports whether v is nil or the empty string: an interface
// compared with a constant, which is no number or string to measure a
// distance on.
func Blank(v any) bool {
	if v == nil || v == "" {
		return true
	}
	return false
}
