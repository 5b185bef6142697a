package mosa

import "github.com/cling-go/cling/testcase"

// Crossover is a crossover operator: it recombines two parent tests into
// two offspring, drawing from the generator's random source. The
// offspring must be valid tests (every reference resolved, see
// repair.Graft) but may have lost their covering call, which the
// algorithm repairs.
//
// Adding an operator is one file that implements this interface and
// registers it in an init function; Config.Crossover selects it by name,
// and an algorithm gets it from NewCrossover.
type Crossover interface {
	Cross(g *testcase.Generator, a, b *testcase.Test) (*testcase.Test, *testcase.Test)
}

// configurable is a crossover operator with settings in Config: the
// registered value has the defaults, and NewCrossover asks it for an
// operator with the settings of the run.
type configurable interface {
	configure(cfg Config) (Crossover, error)
}

// DefaultCrossover is the crossover operator of DefaultConfig.
const DefaultCrossover = "hmx"

var crossovers = newRegistry[Crossover]("crossover operator")

// RegisterCrossover makes a crossover operator available under name, with
// a one-line doc for help texts. It is called from init functions;
// registering a name twice panics.
func RegisterCrossover(name, doc string, c Crossover) { crossovers.register(name, doc, c) }

// Crossovers lists the registered crossover operators, sorted by name.
func Crossovers() []Entry { return crossovers.list() }

// LookupCrossover returns the crossover operator registered as name, with
// its default settings, or an error naming the registered operators.
func LookupCrossover(name string) (Crossover, error) { return crossovers.lookup(name) }

// NewCrossover returns the crossover operator cfg.Crossover names, with
// the settings of cfg (DataCrossoverRate), or an error naming the
// registered operators or the setting out of range. Algorithms get their
// operator here.
func NewCrossover(cfg Config) (Crossover, error) {
	c, err := LookupCrossover(cfg.Crossover)
	if err != nil {
		return nil, err
	}
	if cc, ok := c.(configurable); ok {
		return cc.configure(cfg)
	}
	return c, nil
}
