package testcase

import (
	"go/types"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// String mutation inserts whole constants of the code under test, as a
// fuzzer's dictionary does.
func TestMutateStringInsertsConstants(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ConstantInsert = 1
	g := &Generator{C: &Cluster{Constants: Constants{Strings: []string{"abs"}}}, Cfg: cfg, Rnd: rand.New(rand.NewSource(1))}
	inserted := 0
	for i := 0; i < 300; i++ {
		s := g.mutateString(types.Typ[types.String], "(1)")
		if strings.Contains(s, "abs") && s != "abs" { // "abs": a fresh literal
			inserted++
			assert.Contains(t, []string{"abs(1)", "(abs1)", "(1abs)", "(1)abs"}, s)
		}
	}
	assert.Greater(t, inserted, 50)

	cfg.ConstantInsert = 0
	g.Cfg = cfg
	for i := 0; i < 300; i++ {
		if s := g.mutateString(types.Typ[types.String], "(1)"); s != "abs" {
			assert.NotContains(t, s, "abs")
		}
	}
}
