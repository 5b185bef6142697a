// Package route tells which section of a site a request path is in.
package route

import "strings"

// Match returns the section of path ("api", "static", or "" for none)
// and whether path is well-formed: not empty, starting with a slash.
func Match(path string) (string, bool) {
	if path == "" || path[0] != '/' {
		return "", false
	}
	switch {
	case strings.HasPrefix(path, "/api/"):
		return "api", true
	case strings.HasPrefix(path, "/static/"):
		return "static", true
	}
	return "", true
}
