package mosa

import (
	"fmt"
	"sort"
	"strings"
)

// Entry is a registered extension, as help texts list it: its name and a
// one-line description.
type Entry struct {
	Name, Doc string
}

// registry maps names to extensions of one kind (algorithms, crossover
// operators). Extensions register themselves from init functions, so a
// registry is filled before main runs and only read afterwards.
type registry[T any] struct {
	kind    string // "algorithm", "crossover operator": for messages
	entries map[string]registered[T]
}

type registered[T any] struct {
	doc   string
	value T
}

func newRegistry[T any](kind string) *registry[T] {
	return &registry[T]{kind: kind, entries: map[string]registered[T]{}}
}

// register adds an extension; a name registered twice is a programming
// error.
func (r *registry[T]) register(name, doc string, v T) {
	if name == "" || strings.ContainsAny(name, " \t\n") {
		panic(fmt.Sprintf("mosa: invalid %s name %q", r.kind, name))
	}
	if _, ok := r.entries[name]; ok {
		panic(fmt.Sprintf("mosa: %s %q registered twice", r.kind, name))
	}
	r.entries[name] = registered[T]{doc: doc, value: v}
}

// lookup returns the extension registered as name, or an error that names
// the registered ones.
func (r *registry[T]) lookup(name string) (T, error) {
	e, ok := r.entries[name]
	if !ok {
		var zero T
		if len(r.entries) == 0 {
			return zero, fmt.Errorf("unknown %s %q: none is registered", r.kind, name)
		}
		return zero, fmt.Errorf("unknown %s %q: use %s", r.kind, name, orList(r.names()))
	}
	return e.value, nil
}

// list returns the registered extensions sorted by name.
func (r *registry[T]) list() []Entry {
	out := make([]Entry, 0, len(r.entries))
	for name, e := range r.entries {
		out = append(out, Entry{Name: name, Doc: e.doc})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// names returns the registered names, sorted.
func (r *registry[T]) names() []string {
	var out []string
	for _, e := range r.list() {
		out = append(out, e.Name)
	}
	return out
}

// orList joins names as a sentence does: "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
