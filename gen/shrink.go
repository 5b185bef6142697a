package gen

import "github.com/cling-go/cling/testcase"

// shrinker proposes smaller versions of one test, one at a time.
type shrinker struct {
	t *testcase.Test
	// Removing statements: pos is the next statement to try.
	pos int
	// Dropping arguments: the statement fromEnd places before the end
	// (arguments never change what follows them), and its next argument
	// arg, counting down; argsLeft is false until the statement's
	// arguments are being tried.
	dropping bool
	fromEnd  int
	arg      int
	argsLeft bool
	// Shortening strings: the literal of statement str loses the run of
	// chunk characters at off; chunk 0 means the literal is not begun.
	shortening      bool
	str, chunk, off int
	// Making integers small, when ints is set: the literal of statement
	// num is tried at 0, then at half its value while the halves keep the
	// goals; tried says how far (0: not begun, 1: 0 proposed, 2:
	// proposed, the half).
	ints       bool
	num, tried int
	proposed   int64
}

// next returns the next candidate, or nil when there is none left.
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
	for !s.shortening {
		i := s.t.Len() - 1 - s.fromEnd
		if i < 0 {
			s.shortening = true
			break
		}
		if !s.argsLeft {
			s.arg = len(s.t.Stmts[i].Args) - 1
			s.argsLeft = true
		}
		if s.arg < 0 {
			s.fromEnd++
			s.argsLeft = false
			continue
		}
		k := s.arg
		s.arg--
		if c, ok := s.t.DropArg(i, k); ok && c.HasCovering() {
			return c
		}
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
	if s.shortening {
		// The run at off is gone: the next run starts where it did.
		s.off -= s.chunk
	}
}
