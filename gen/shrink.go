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
	return nil
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
