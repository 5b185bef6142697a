// Package serve is HTTP middleware: it routes a request by its path, with
// package route, before the next handler sees it. Its API takes and
// returns http.Handler values, whose ServeHTTP runs its code.
package serve

import (
	"net/http"

	"example.com/reflective/route"
)

// Sections wraps next: a request without a URL or with a malformed path
// gets 400, one outside every section 404; the others reach next, with
// their section in the X-Section header.
func Sections(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL == nil {
			http.Error(w, "no URL", http.StatusBadRequest)
			return
		}
		section, ok := route.Match(r.URL.Path)
		switch {
		case !ok:
			http.Error(w, "malformed path", http.StatusBadRequest)
		case section == "":
			http.NotFound(w, r)
		default:
			w.Header().Set("X-Section", section)
			next.ServeHTTP(w, r)
		}
	})
}
