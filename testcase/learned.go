package testcase

// maxLearned bounds the strings a generator learns; the oldest go first.
const maxLearned = 512

// learned is the pool of strings a generator learned from the tests that
// covered new goals, oldest first once full (a ring).
type learned struct {
	strings []string
	seen    map[string]bool
	next    int // where the next string goes once the ring is full
}

// Learn adds the string literals of t, a test that covered goals no test
// had covered before, to the strings the generator draws from: a
// document that reached a branch of the callee through one call site of
// R is the input most likely to reach it through another (the same YAML
// through Unmarshal, a reference reader and a path query), and a value
// that passed a validity check (a path expression that parses) gets past
// it again. This is a fuzzer's corpus, kept in the generator: the search
// calls Learn in the order it archives tests, so the same seed learns the
// same strings.
func (g *Generator) Learn(t *Test) {
	if g.learned.seen == nil {
		g.learned.seen = map[string]bool{}
	}
	for _, s := range t.Stmts {
		v, ok := s.Value.(string)
		if s.Op.Kind != OpPrim || !ok || v == "" || g.learned.seen[v] {
			continue
		}
		g.learned.seen[v] = true
		if len(g.learned.strings) < maxLearned {
			g.learned.strings = append(g.learned.strings, v)
			continue
		}
		delete(g.learned.seen, g.learned.strings[g.learned.next])
		g.learned.strings[g.learned.next] = v
		g.learned.next = (g.learned.next + 1) % maxLearned
	}
}

// Learned returns the strings learned so far, oldest first until the pool
// is full.
func (g *Generator) Learned() []string { return g.learned.strings }

// constantString draws a string constant: with probability
// Config.LearnedShare one of the learned strings, otherwise one of the
// literals of R and E. ok is false when both pools are empty.
func (g *Generator) constantString() (s string, ok bool) {
	k, l := g.C.Constants.Strings, g.learned.strings
	if len(l) > 0 && (len(k) == 0 || g.Rnd.Float64() < g.Cfg.LearnedShare) {
		return l[g.Rnd.Intn(len(l))], true
	}
	if len(k) > 0 {
		return k[g.Rnd.Intn(len(k))], true
	}
	return "", false
}

// maxSpliced bounds the length of a string a splice makes.
const maxSpliced = 256

// splice inserts one of the learned strings into b, with probability
// Config.Splice: at the end half of the time (two statements, two
// documents, two entries one after the other), elsewhere otherwise. ok
// is false when it did not splice.
func (g *Generator) splice(b []byte) (out []byte, ok bool) {
	l := g.learned.strings
	if len(l) == 0 || g.Rnd.Float64() >= g.Cfg.Splice {
		return b, false
	}
	w := l[g.Rnd.Intn(len(l))]
	if len(b)+len(w) > maxSpliced {
		return b, false
	}
	i := len(b)
	if g.Rnd.Intn(2) == 0 {
		i = g.Rnd.Intn(len(b) + 1)
	}
	out = make([]byte, 0, len(b)+len(w))
	out = append(append(append(out, b[:i]...), w...), b[i:]...)
	return out, true
}
