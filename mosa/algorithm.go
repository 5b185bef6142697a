package mosa

import "context"

// Algorithm is a search algorithm. The engine runs it: Search proposes
// tests and hands each batch to e.Evaluate, which executes them, archives
// the covering ones and counts the budget; it returns when e.Done reports
// that the budget is spent or every goal covered, or with the error of an
// evaluation. The goals (e.Goals, e.Uncovered) and their objectives
// (e.Objectives) come from the engine, and so do the run's random source
// and the operators that build and mutate tests (e.Gen), so an algorithm
// knows nothing of how goals are defined or measured.
//
// Adding an algorithm is one file that implements this interface and
// registers a constructor in an init function.
type Algorithm interface {
	Search(ctx context.Context, e *Engine) error
}

// Config configures the algorithms; each reads the fields it uses.
type Config struct {
	// Population is the number of tests per generation.
	Population int
	// Crossover names the crossover operator (see Crossovers);
	// CrossoverRate is the probability of crossing two parents.
	Crossover     string
	CrossoverRate float64
	// DataCrossoverRate is, for the crossover operators that recombine
	// the values of the offspring after their statements (hmx), the
	// probability of doing so once two parents are crossed.
	DataCrossoverRate float64
	// NewTests is the fraction of each generation made of new tests: fresh
	// random tests, or mutated tests of the archive.
	NewTests float64
	// RepairAttempts bounds the mutations that try to put a covering call
	// back into a broken offspring.
	RepairAttempts int
	// Secondary names the secondary objective of the algorithms with
	// fronts (see Secondaries); Patience is how many stagnating
	// generations the adaptive one gives a heuristic before it switches.
	Secondary string
	Patience  int
}

// DefaultConfig returns the defaults: population 50, single-point
// crossover with probability 0.75 (data-level crossover, where the
// operator has one, with probability 1), 10% new tests, 50 repair
// attempts, the crowding distance as secondary objective (patience 1).
func DefaultConfig() Config {
	return Config{Population: 50, Crossover: DefaultCrossover, CrossoverRate: 0.75, DataCrossoverRate: 1, NewTests: 0.1, RepairAttempts: 50,
		Secondary: DefaultSecondary, Patience: 1}
}

// Constructor builds an algorithm from its configuration, or says what is
// wrong with the configuration.
type Constructor func(cfg Config) (Algorithm, error)

// Settings is a set of the settings an algorithm reads, so that the
// command line can warn about a flag the chosen algorithm ignores.
type Settings uint8

const (
	// ReadsPopulation is Config.Population.
	ReadsPopulation Settings = 1 << iota
	// ReadsCrossover is Config.Crossover and Config.CrossoverRate.
	ReadsCrossover
	// ReadsRepair is Config.RepairAttempts.
	ReadsRepair
	// ReadsObjectives says that the algorithm is guided by the engine's
	// objectives (and so by their form, layered or paper).
	ReadsObjectives
	// ReadsSecondary is Config.Secondary and Config.Patience: the
	// algorithm ranks tests in fronts.
	ReadsSecondary
)

// DefaultAlgorithm is the algorithm of `cling gen`.
const DefaultAlgorithm = "mosa"

// registeredAlgorithm is an algorithm's constructor and the settings it
// reads.
type registeredAlgorithm struct {
	new   Constructor
	reads Settings
}

var algorithms = newRegistry[registeredAlgorithm]("algorithm")

// Register makes an algorithm available under name, with a one-line doc
// for help texts and the settings it reads. It is called from init
// functions; registering a name twice panics.
func Register(name, doc string, reads Settings, c Constructor) {
	algorithms.register(name, doc, registeredAlgorithm{new: c, reads: reads})
}

// Algorithms lists the registered algorithms, sorted by name.
func Algorithms() []Entry { return algorithms.list() }

// Lookup returns the constructor of the algorithm registered as name, or
// an error naming the registered algorithms.
func Lookup(name string) (Constructor, error) {
	a, err := algorithms.lookup(name)
	return a.new, err
}

// Reads returns the settings the algorithm registered as name reads.
func Reads(name string) (Settings, error) {
	a, err := algorithms.lookup(name)
	return a.reads, err
}

// New builds the algorithm registered as name, configured by cfg.
func New(name string, cfg Config) (Algorithm, error) {
	c, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return c(cfg)
}
