// Package tag is HTTP middleware in the shape routers take it: Section
// returns a func(http.Handler) http.Handler, and only the http.Handler
// that function makes of the next one calls package route. A test must
// call the middleware on a handler of its own, then serve what it
// returned.
package tag

import (
	"net/http"

	"example.com/reflective/route"
)

// Section returns middleware that sets the X-Section header to the
// section of the request's path, or to fallback for a path in none,
// before next sees the request. A malformed path gets 400, and next
// never sees it.
func Section(fallback string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL == nil {
				http.Error(w, "no URL", http.StatusBadRequest)
				return
			}
			section, ok := route.Match(r.URL.Path)
			if !ok {
				http.Error(w, "malformed path", http.StatusBadRequest)
				return
			}
			if section == "" {
				section = fallback
			}
			w.Header().Set("X-Section", section)
			next.ServeHTTP(w, r)
		})
	}
}
