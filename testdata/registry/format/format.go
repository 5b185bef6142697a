// Package format is the callee of the registry fixture: it shows a name
// in one of two styles.
package format

// Style shows name, in the custom style if custom is set.
func Style(name string, custom bool) string {
	if custom {
		return "custom:" + name
	}
	return "plain:" + name
}
