// Package chain is middleware of the kind web frameworks whose handlers
// are functions have: its constructors return functions that wrap a
// handler, and only the handler they return, once called, runs its code
// (and calls package route).
package chain

import (
	"errors"

	"example.com/reflective/route"
)

// Handler answers a request for a path with a status code.
type Handler func(path string) (int, error)

// Middleware wraps a handler in another.
type Middleware func(next Handler) Handler

// Sections returns middleware that routes a request by its section under
// prefix: a malformed path gets 400 and an error, one outside every
// section 404, the others reach next (200 when there is none).
func Sections(prefix string) Middleware {
	return func(next Handler) Handler {
		return func(path string) (int, error) {
			section, ok := route.Match(prefix + path)
			switch {
			case !ok:
				return 400, errors.New("malformed path")
			case section == "":
				return 404, nil
			case next == nil:
				return 200, nil
			}
			return next(path)
		}
	}
}

// Only returns a wrapper, of a function type of no name, that lets
// through to next the requests of one section and answers 403 to the
// others.
func Only(section string) func(Handler) Handler {
	return func(next Handler) Handler {
		return func(path string) (int, error) {
			if s, ok := route.Match(path); !ok || s != section {
				return 403, nil
			}
			return next(path)
		}
	}
}

// Request is a request of a Server. Only a Server makes one: the package
// has no constructor of it and no exported implementation.
type Request interface {
	Path() string
}

type request struct{ path string }

func (r request) Path() string { return r.path }

// Server makes the requests its handlers serve, under its prefix.
type Server struct {
	Prefix string
}

// Request returns a request for path under the server's prefix.
func (s *Server) Request(path string) Request {
	return request{s.Prefix + path}
}

// Serve returns a function that serves a request with next, through the
// middleware of Sections("").
func Serve(next Handler) func(Request) (int, error) {
	h := Sections("")(next)
	return func(r Request) (int, error) {
		return h(r.Path())
	}
}
