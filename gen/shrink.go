package gen

import (
	"go/types"

	"github.com/cling-go/cling/testcase"
)

// shrinker proposes smaller versions of one test, one at a time.
type shrinker struct {
	t *testcase.Test
	// Removing statements: pos is the next statement to try; dropping
	// is set once none is left.
	pos      int
	dropping bool
	// Bypassing set-up calls (Test.Bypass), then dropping arguments
	// (Test.DropArg): each walks the statements' arguments from the last.
	bypass, drop argWalk
	// Shortening strings: the literal of statement str loses the run of
	// chunk characters at off; chunk 0 means the literal is not begun.
	str, chunk, off int
	// Making integers small, when ints is set: the literal of statement
	// num is tried at 0, then at half its value while the halves keep the
	// goals; tried says how far (0: not begun, 1: 0 proposed, 2:
	// proposed, the half).
	ints       bool
	num, tried int
	proposed   int64
	// Sweeping, last: the inert calls (inertCall) whose results nothing
	// uses any more (what used them was bypassed, or an argument or
	// field that held them dropped) are tried again, from statement
	// sweep down.
	sweeping bool
	sweep    int
}

// next returns the next candidate, or nil when there is none left: the
// phases come in the order minimise describes, with set-up calls bypassed
// (Test.Bypass) between removing statements and dropping arguments.
func (s *shrinker) next() *testcase.Test {
	for !s.dropping {
		if s.pos < 0 {
			s.dropping = true
			break
		}
		i := s.pos
		s.pos--
		if s.t.Stmts[i].Op.Pure() {
			continue // pruned with its last use
		}
		c := s.t.Clone()
		c.Remove(i)
		c.Prune()
		if c.HasCovering() && c.Len() > 0 {
			return c
		}
	}
	if c := s.bypass.next(s.t, s.t.Bypass); c != nil {
		return c
	}
	if c := s.drop.next(s.t, s.t.DropArg); c != nil {
		return c
	}
	for s.str < s.t.Len() {
		st := s.t.Stmts[s.str]
		v, isString := st.Value.(string)
		runes := []rune(v)
		if st.Op.Kind != testcase.OpPrim || !isString || len(runes) == 0 {
			s.str++
			continue
		}
		if s.chunk == 0 {
			s.chunk, s.off = len(runes), 0
		}
		if s.off >= len(runes) {
			if s.chunk == 1 {
				s.str++
				s.chunk = 0
				continue
			}
			s.chunk, s.off = (s.chunk+1)/2, 0
			continue
		}
		end := min(s.off+s.chunk, len(runes))
		c := s.t.Clone()
		c.Stmts[s.str].Value = string(runes[:s.off]) + string(runes[end:])
		s.off += s.chunk
		return c
	}
	for s.ints && s.num < s.t.Len() {
		v, ok := intLiteral(s.t.Stmts[s.num])
		want := int64(0)
		switch {
		case !ok, v == 0, s.tried == 2 && v != s.proposed, s.tried > 0 && v/2 == 0:
			// Not an integer, already 0, or the last candidate was
			// rejected, or nothing smaller is left: the next literal.
			s.num++
			s.tried = 0
			continue
		case s.tried > 0:
			want = v / 2
		}
		s.tried = min(s.tried+1, 2)
		s.proposed = want
		c := s.t.Clone()
		c.Stmts[s.num].Value = withInt(c.Stmts[s.num].Value, want)
		return c
	}
	if !s.sweeping {
		s.sweeping, s.sweep = true, s.t.Len()-1
	}
	if s.sweep < 0 {
		return nil
	}
	uses := s.t.Uses()
	for s.sweep >= 0 {
		i := s.sweep
		s.sweep--
		if uses[i] || !inertCall(s.t.Stmts[i].Op) {
			continue
		}
		c := s.t.Clone()
		c.Remove(i)
		c.Prune()
		if c.HasCovering() && c.Len() > 0 {
			return c
		}
	}
	return nil
}

// inertCall reports whether op calls a standard-library function (not a
// method) whose parameters are all of basic types: a call with no effect
// but its results, such as url.Parse(s) or strings.Fields(s), which a test
// holds only while something uses them.
func inertCall(op *testcase.Op) bool {
	if !op.CallsStandard() || op.Method {
		return false
	}
	for _, p := range op.Params {
		if _, ok := p.Underlying().(*types.Basic); !ok {
			return false
		}
	}
	return true
}

// argWalk visits the arguments of a test's statements, statements from
// the last and each one's arguments from the last. It counts statements
// from the end, so that a kept candidate, which changes only the
// statements before the one it changed, leaves the walk in place.
type argWalk struct {
	fromEnd, arg int
	begun, done  bool
}

// next returns the candidate try makes of the next (statement, argument)
// pair that gives one still calling a covering function, or nil when no
// pair is left.
func (w *argWalk) next(t *testcase.Test, try func(i, k int) (*testcase.Test, bool)) *testcase.Test {
	for !w.done {
		i := t.Len() - 1 - w.fromEnd
		if i < 0 {
			w.done = true
			break
		}
		if !w.begun {
			w.arg = len(t.Stmts[i].Args) - 1
			w.begun = true
		}
		if w.arg < 0 {
			w.fromEnd++
			w.begun = false
			continue
		}
		k := w.arg
		w.arg--
		if c, ok := try(i, k); ok && c.HasCovering() {
			return c
		}
	}
	return nil
}

// intLiteral returns the value of an integer literal statement.
func intLiteral(st testcase.Stmt) (int64, bool) {
	if st.Op.Kind != testcase.OpPrim {
		return 0, false
	}
	switch v := st.Value.(type) {
	case int64:
		return v, true
	case uint64:
		if v <= 1<<62 {
			return int64(v), true
		}
	}
	return 0, false
}

// withInt is n in the representation of old: int64 or uint64.
func withInt(old any, n int64) any {
	if _, ok := old.(uint64); ok {
		return uint64(n)
	}
	return n
}

// accept makes a candidate that still covers the goals the test.
func (s *shrinker) accept(c *testcase.Test) {
	s.t = c
	s.pos = min(s.pos, c.Len()-1)
	s.sweep = min(s.sweep, c.Len()-1)
	if s.dropping && !s.bypass.done {
		// The bypassed call is gone: the statement before it is next,
		// as many places from the end as it was.
		s.bypass.begun = false
	}
	if s.drop.done {
		// The run at off is gone: the next run starts where it did.
		s.off -= s.chunk
	}
}
