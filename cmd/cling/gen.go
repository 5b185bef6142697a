package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cling-go/cling/batch"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/criteria"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/gen"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/shard"
	"github.com/urfave/cli/v2"
)

func genCommand() *cli.Command {
	d := gen.DefaultConfig()
	return &cli.Command{
		Name:  "gen",
		Usage: "generate integration tests that cover the coupled branches of a pair",
		UsageText: "cling gen --caller R --callee E [--algorithm NAME] [--crossover NAME] [--budget 60s] [--max-evals N] [--seed N] [--workers N] [--out FILE] [--faults=false | --faults-only] [--json]\n" +
			"cling gen [PATTERN...] [--min-coupled N] [--max-pairs N] [--pair R:E...] [--budget D | --budget-per-pair D] [--json] [--json-out FILE]\n" +
			"cling gen --plan FILE --shard I [--json-out FILE]",
		Description: `Searches for test cases that drive R's exported API so that branches of E run
inside calls made at R's call sites, keeps the shortest test for each coupled
branch covered, writes the fewest of them that cover the same branches
(a greedy set cover), minimises the tests, adds assertions from the values three
runs agree on, checks that the file compiles and passes five times, in the
file's order and each test alone (taking out an assertion whose value
differs under go test), and twice under the race detector, and writes
<R dir>/cling_<E name>_test.go (package R_test). Nothing else in the module is
touched. Assertions use testify when the module already requires it, the
testing package otherwise. The same --seed with --max-evals gives the same
file whatever --workers is, for code whose branches do not depend on map
order or on how goroutines are scheduled (docs/generation.md, Determinism).

Faults: the executions that end in a Go runtime error (nil dereference, index
out of range, ...), hang inside a call made at one of R's call sites, crash the
runtime, or leave a goroutine running, and the tests that race under the race
detector (verification runs them with -race unless --race=false), are fault candidates, never
regression tests. Each, deduplicated by kind, place and call site, gets a
minimised reproducer in <R dir>/cling_<E name>_faults_test.go, behind the build
tag cling_faults (go test -tags cling_faults ./R fails once per fault), once it
failed the same way in two fresh processes. A runtime error caused by an
argument the test passed (nil, or a struct literal where a constructor exists)
is misuse, a failure of code the test called itself rather than through R is
outside the pair, and an explicit panic(v) is behaviour the tests assert: all
three are only counted (see docs/faults.md). --faults-only searches for faults alone and writes only that
file.

--criteria adds coverage criteria to the coupled branches (see
docs/criteria.md); --goal-selection smart gives the search one
representative criterion per group of correlated criteria and minimal
subsets of the others; the goals it leaves out are not pursued, but the
file keeps a test the search meets that covers one. Whatever was
optimised, cling reports the coverage of every criterion by the written
tests.

` + multiPairHelp + `

Over several pairs, --budget is the total search time, split over the pairs
in proportion to their coupled branches after 1s each (default: 60s per
pair on average; in a share of a plan, the total of the whole plan, so that a
pair gets the same time in any share); --budget-per-pair gives each pair the
same time instead, and --max-evals applies to each pair. Each pair searches
with its own seed, derived from --seed and its import paths, and writes its
own file; the table shows the coupled branches R's existing tests cover
without the files of the run, and those they and the new file cover. With
--max-evals and --seed, a pair's file and figures do not depend on which
other pairs run in the same process or on the shard it runs in.

Search algorithms (--algorithm):
` + entryList(mosa.Algorithms()) + `

Crossover operators (--crossover):
` + entryList(mosa.Crossovers()) + `

Secondary objectives of ` + frontAlgorithms() + ` (--secondary):
` + entryList(mosa.Secondaries()) + `

Coverage criteria (--criteria, a comma-separated list, or all or default):
` + criteriaList(),
		Flags: append(append(append(pairFlags(), selectionFlags()...), planFlags()...),
			&cli.StringFlag{Name: "algorithm", Value: d.Algorithm, Usage: "search algorithm `NAME` (listed above)"},
			&cli.DurationFlag{Name: "budget", Value: d.Budget.Time, Usage: "search time `BUDGET` (a Go duration: 30s, 5m); over several pairs, the total"},
			&cli.DurationFlag{Name: "budget-per-pair", Usage: "over several pairs: search each pair for `D`"},
			&cli.IntFlag{Name: "max-evals", DefaultText: "no limit", Usage: "stop after `N` test executions (makes the output deterministic)"},
			&cli.Int64Flag{Name: "seed", Value: d.Seed, Usage: "random `SEED`"},
			&cli.IntFlag{Name: "workers", Aliases: []string{"j"}, DefaultText: "number of CPUs", Usage: "run tests in `N` executor processes"},
			&cli.DurationFlag{Name: "timeout", Value: d.Timeout, Usage: "a test execution that runs longer than `D` hangs (with --max-evals, a test that times out runs once more first; under a time budget, the search may stop a test far slower than the others earlier)"},
			&cli.StringFlag{Name: "out", Usage: "output `FILE` (default <R dir>/cling_<E name>_test.go)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an output file that cling did not write"},
			&cli.IntFlag{Name: "population", Value: d.Search.Population, Usage: "population size `N` of the genetic algorithms (tests; suites for ws and wsa)"},
			&cli.StringFlag{Name: "crossover", Value: d.Search.Crossover, Usage: "crossover operator `NAME` (listed above)"},
			&cli.Float64Flag{Name: "data-crossover", Value: d.Search.DataCrossoverRate, Usage: "probability `P` that hmx recombines the values of two crossed tests"},
			&cli.StringFlag{Name: "fitness", Value: d.Fitness.String(), Usage: "objective of a coupled branch: `layered` or paper"},
			&cli.StringFlag{Name: "secondary", Value: d.Search.Secondary, Usage: "secondary objective `NAME` of " + frontAlgorithms() + " (listed above)"},
			&cli.IntFlag{Name: "secondary-patience", Value: d.Search.Patience, Usage: "--secondary adaptive switches heuristic after `N` stagnating generations of the one in use"},
			&cli.IntFlag{Name: "cost-runs", Value: d.CostRuns, Usage: "with --json, run the written suite in `N` fresh processes to measure its run time and allocations (0: do not)"},
			&cli.IntFlag{Name: "repair-attempts", Value: d.Search.RepairAttempts, Usage: "up to `N` mutations may restore a covering call before an offspring is dropped"},
			&cli.StringFlag{Name: "criteria", Value: "default", Usage: "optimise the coupled branches and the criteria of `LIST` (comma-separated, listed above; all; default: the coupled branches alone)"},
			&cli.StringFlag{Name: "goal-selection", Value: "all", Usage: "how the criteria's goals go to the search: `all` of them, or smart"},
			&cli.StringFlag{Name: "stats", Usage: "append the configuration and statistics of the run to `FILE` (CSV if it ends in .csv, JSON lines otherwise)"},
			&cli.BoolFlag{Name: "race", Value: d.Race, Usage: "run the tests twice more under the race detector before writing them, where the platform supports it, and drop those that fail there"},
			&cli.BoolFlag{Name: "faults", Value: d.Faults, Usage: "look for faults and write their reproducers (see above)"},
			&cli.BoolFlag{Name: "faults-only", Usage: "search for faults alone: keep exploring the call sites where one was seen, write only the reproducers"},
			&cli.BoolFlag{Name: "json", Usage: "write the result as JSON to stdout"},
		),
		Action: runGen,
	}
}

func runGen(c *cli.Context) error {
	if !severalPairs(c) {
		if err := checkOnePairFlags(c); err != nil {
			return err
		}
		if c.IsSet("budget-per-pair") {
			return usagef("--budget-per-pair works over several pairs: leave out --caller and --callee")
		}
		if c.NArg() > 0 {
			return usagef("gen takes no arguments (got %q)", c.Args().First())
		}
	}
	if os.Getenv("GOGC") == "" {
		// The search allocates a trace and objective vector per execution
		// but keeps little: collecting less often leaves the CPU to the
		// executor workers.
		debug.SetGCPercent(400)
	}
	cfg := gen.DefaultConfig()
	cfg.Algorithm = c.String("algorithm")
	reads, err := mosa.Reads(cfg.Algorithm)
	if err != nil {
		return usagef("%v", err)
	}
	warnIgnored(c, cfg.Algorithm, reads)
	cfg.Budget = mosa.Budget{Time: c.Duration("budget"), MaxEvals: c.Int("max-evals")}
	if cfg.Budget.Time <= 0 && cfg.Budget.MaxEvals <= 0 && !c.IsSet("budget-per-pair") {
		return usagef("give a positive --budget or --max-evals")
	}
	if c.IsSet("max-evals") && !c.IsSet("budget") {
		cfg.Budget.Time = 0 // an evaluation budget alone: deterministic
	}
	cfg.Seed = c.Int64("seed")
	cfg.Workers = c.Int("workers")
	cfg.Timeout = c.Duration("timeout")
	cfg.Out = c.String("out")
	cfg.Force = c.Bool("force")
	cfg.Tags = globalLoad(c).Tags
	cfg.Search.Population = c.Int("population")
	if cfg.Search.Population < 2 {
		return usagef("--population must be at least 2")
	}
	cfg.Search.RepairAttempts = c.Int("repair-attempts")
	cfg.Search.Crossover = c.String("crossover")
	if _, err := mosa.LookupCrossover(cfg.Search.Crossover); err != nil {
		return usagef("%v", err)
	}
	cfg.Search.DataCrossoverRate = c.Float64("data-crossover")
	if p := cfg.Search.DataCrossoverRate; !(p >= 0 && p <= 1) {
		return usagef("--data-crossover %g is not a probability in [0, 1]", p)
	}
	if err := secondaryFlags(c, &cfg, reads); err != nil {
		return err
	}
	// Only the JSON report shows the suite's measured cost.
	cfg.CostRuns = 0
	if c.Bool("json") {
		cfg.CostRuns = c.Int("cost-runs")
	}
	form, err := fitness.ParseForm(c.String("fitness"))
	if err != nil {
		return usagef("%v", err)
	}
	cfg.Fitness = form
	cfg.Race = c.Bool("race")
	cfg.Faults = c.Bool("faults")
	cfg.FaultsOnly = c.Bool("faults-only")
	if cfg.FaultsOnly && c.IsSet("faults") && !cfg.Faults {
		return usagef("--faults-only and --faults=false contradict each other")
	}
	if cfg.Criteria, err = criteria.Parse(c.String("criteria")); err != nil {
		return usagef("%v", err)
	}
	if cfg.Selection, err = criteria.ParseSelection(c.String("goal-selection")); err != nil {
		return usagef("%v", err)
	}
	cfg.Debug = debugWriter(c.App.ErrWriter)
	if severalPairs(c) {
		return runGenPairs(c, cfg)
	}
	a, err := loadPair(c)
	if err != nil {
		return err
	}
	if writerIsTerminal(c.App.ErrWriter) && !c.Bool("json") {
		cfg.Progress = genProgress(c.App.ErrWriter, len(cfg.Criteria) > 1)
	}
	rep, err := gen.Run(c.Context, a, cfg)
	if cfg.Progress != nil {
		fmt.Fprint(c.App.ErrWriter, "\r\033[K")
	}
	var ge *gen.Error
	if errors.As(err, &ge) {
		if rep != nil && c.Bool("json") {
			// The search ran: its figures are worth having even without
			// a file.
			rep.Error = ge.Msg
			if err := writeJSON(c.App.Writer, rep); err != nil {
				return err
			}
		}
		return &exitError{code: exitFailure, msg: ge.Msg}
	}
	if err != nil {
		return err
	}
	if path := c.String("stats"); path != "" {
		if err := appendStats(path, c, a, rep); err != nil {
			return err
		}
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, rep)
	}
	writeGenText(c.App.Writer, a, rep)
	return nil
}

// runGenPairs runs gen over several pairs, with cfg as every pair's
// configuration.
func runGenPairs(c *cli.Context, cfg gen.Config) error {
	start := time.Now()
	if err := checkSeveralPairsFlags(c, "out", "stats"); err != nil {
		return err
	}
	bc := batch.GenConfig{Gen: cfg, Tests: probe.TestOptions{Tags: cfg.Tags}}
	switch {
	case c.IsSet("budget") && c.IsSet("budget-per-pair"):
		return usagef("give --budget (the total) or --budget-per-pair, not both")
	case c.IsSet("budget-per-pair"):
		if bc.Gen.Budget.Time = c.Duration("budget-per-pair"); bc.Gen.Budget.Time <= 0 {
			return usagef("--budget-per-pair must be positive")
		}
	case c.IsSet("budget"):
		bc.Total, bc.Gen.Budget.Time = c.Duration("budget"), 0
	case c.IsSet("max-evals"):
		bc.Gen.Budget.Time = 0 // an evaluation budget alone: deterministic
	}
	run, res, err := loadRun(c, shard.CommandGen)
	if err != nil {
		return err
	}
	if !c.IsSet("budget") && !c.IsSet("budget-per-pair") && !c.IsSet("max-evals") {
		bc.Total, bc.Gen.Budget.Time = time.Duration(len(run.Selected))*gen.DefaultConfig().Budget.Time, 0
	}
	if writerIsTerminal(c.App.ErrWriter) && !c.Bool("json") {
		bc.Progress = func(msg string) { fmt.Fprintf(c.App.ErrWriter, "\r\033[K%s", msg) }
	}
	pairs, err := batch.Gen(c.Context, run, bc)
	if bc.Progress != nil {
		fmt.Fprint(c.App.ErrWriter, "\r\033[K")
	}
	if err != nil {
		return err
	}
	return finishRun(c, res, pairs, start)
}

// searchFlags are gen's flags that configure the search, with the setting
// each one sets.
var searchFlags = []struct {
	name    string
	setting mosa.Settings
}{
	{"population", mosa.ReadsPopulation},
	{"repair-attempts", mosa.ReadsRepair},
	{"fitness", mosa.ReadsObjectives},
	{"crossover", mosa.ReadsCrossover},
	{"data-crossover", mosa.ReadsCrossover},
}

// secondaryFlags reads --secondary and --secondary-patience into cfg:
// usage errors for an unknown objective, a patience below 1, or either
// flag with an algorithm that has no fronts; a warning for a patience that
// only --secondary adaptive reads.
func secondaryFlags(c *cli.Context, cfg *gen.Config, reads mosa.Settings) error {
	cfg.Search.Secondary = c.String("secondary")
	cfg.Search.Patience = c.Int("secondary-patience")
	for _, f := range []string{"secondary", "secondary-patience"} {
		if c.IsSet(f) && reads&mosa.ReadsSecondary == 0 {
			return usagef("--%s applies to --algorithm %s only, not %s", f, frontAlgorithms(), cfg.Algorithm)
		}
	}
	if _, err := mosa.LookupSecondary(cfg.Search.Secondary); err != nil {
		return usagef("%v", err)
	}
	if cfg.Search.Patience < 1 {
		return usagef("--secondary-patience must be at least 1")
	}
	if c.IsSet("secondary-patience") && cfg.Search.Secondary != "adaptive" {
		fmt.Fprintf(c.App.ErrWriter, "cling: warning: --secondary-patience has no effect with --secondary %s\n", cfg.Search.Secondary)
	}
	return nil
}

// frontAlgorithms names the algorithms that rank tests in fronts, which
// take a secondary objective: "dynamosa or mosa".
func frontAlgorithms() string {
	var names []string
	for _, a := range mosa.Algorithms() {
		if reads, _ := mosa.Reads(a.Name); reads&mosa.ReadsSecondary != 0 {
			names = append(names, a.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// warnIgnored warns, one line each, about the search flags given that the
// algorithm does not read.
func warnIgnored(c *cli.Context, algorithm string, reads mosa.Settings) {
	for _, f := range searchFlags {
		if c.IsSet(f.name) && reads&f.setting == 0 {
			fmt.Fprintf(c.App.ErrWriter, "cling: warning: --%s has no effect with --algorithm %s\n", f.name, algorithm)
		}
	}
}

// entryList formats registered extensions for a help text, one per line:
// the name, then its doc.
func entryList(entries []mosa.Entry) string {
	width := 0
	for _, e := range entries {
		width = max(width, len(e.Name))
	}
	var sb strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&sb, "  %-*s  %s\n", width, e.Name, e.Doc)
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

func writeGenText(w io.Writer, a *couple.Analysis, rep *gen.Report) {
	if rep.TestFile != "" {
		fmt.Fprintf(w, "wrote %s: %d tests (assertions: %s)\n", relPath(a, rep.TestFile), rep.Tests, rep.Assertions)
		fmt.Fprintf(w, "coupled branches covered: %d of %d (%s) by the file, %d (%s) by the search's archive; %s search in %.1fs, %d executions\n",
			rep.Covered, rep.CoupledBranches, percent(rep.Covered, rep.CoupledBranches),
			rep.SearchCovered, percent(rep.SearchCovered, rep.CoupledBranches), rep.Stats.Algorithm, rep.SearchSeconds, rep.Executions)
	} else {
		fmt.Fprintf(w, "searched for faults: %s search in %.1fs, %d executions\n", rep.Stats.Algorithm, rep.SearchSeconds, rep.Executions)
	}
	if rep.Executor.Environment == harness.PlainMain {
		fmt.Fprintf(w, "the search ran its tests in a plain executor, without the test files of %s: %s\n", a.Caller.Pkg.Path, rep.Executor.PlainReason)
	}
	writeCriteria(w, "coverage of the written tests", rep.Criteria)
	if len(rep.Dropped) > 0 {
		fmt.Fprintf(w, "dropped %d tests that did not pass every verification run: %s\n", len(rep.Dropped), strings.Join(rep.Dropped, ", "))
	}
	if rep.DroppedAssertions > 0 {
		fmt.Fprintf(w, "dropped %d assertions whose values differed under go test\n", rep.DroppedAssertions)
	}
	if len(rep.Skipped) > 0 {
		fmt.Fprintf(w, "skipped %d of %s's exported functions and methods (cling cannot build what they need):\n", len(rep.Skipped), a.Caller.Pkg.Name)
		for _, s := range rep.Skipped {
			fmt.Fprintf(w, "  %s\n      %s\n", s.What, s.Reason)
		}
	}
	if len(rep.Unobservable) > 0 {
		fmt.Fprintf(w, "%d constructs cannot be observed by the probes:\n", len(rep.Unobservable))
		for _, u := range rep.Unobservable {
			fmt.Fprintf(w, "  %s\n", u)
		}
	}
	writeFaultsText(w, a, rep)
}

// writeFaultsText writes what the run found about faults: the file of
// reproducers and one line per fault, then the counts of what was no
// fault.
func writeFaultsText(w io.Writer, a *couple.Analysis, rep *gen.Report) {
	if rep.Faults == nil {
		return // not looked for
	}
	if rep.FaultsFile != "" {
		fmt.Fprintf(w, "wrote %s: %d faults (go test -tags %s ./%s)\n", relPath(a, rep.FaultsFile), len(rep.Faults), gen.FaultTag, filepath.Dir(relPath(a, rep.FaultsFile)))
	} else {
		fmt.Fprintf(w, "no fault found\n")
	}
	for _, f := range rep.Faults {
		site := f.CallSite
		if site == "" {
			site = "none"
		}
		fmt.Fprintf(w, "fault: %s at %s (%s), call site %s, %s\n", f.Kind, f.Pos, f.Func, site, f.Test)
	}
	fmt.Fprintf(w, "not faults: %d misuses of the API, %d explicit panics, %d failures outside %s", rep.Misuse, rep.ExplicitPanics, rep.OutsidePair, a.Caller.Pkg.Name)
	if rep.UnconfirmedFaults > 0 {
		fmt.Fprintf(w, "; %d fault candidates did not fail the same way twice", rep.UnconfirmedFaults)
	}
	fmt.Fprintln(w)
}

// relPath is path relative to the module's directory, if it is inside.
func relPath(a *couple.Analysis, path string) string {
	rel, err := filepath.Rel(a.Prog.Dir, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return rel
}

// writerIsTerminal reports whether w is a terminal.
func writerIsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// genProgress prints one updating status line: the goals covered of
// those known (coupled branches, unless other criteria add goals).
func genProgress(w io.Writer, criteria bool) func(mosa.Stats) {
	last := time.Time{}
	what := "coupled branches"
	if criteria {
		what = "goals"
	}
	return func(s mosa.Stats) {
		if time.Since(last) < 200*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(w, "\r\033[K%s: %d/%d %s, %d executions, generation %d",
			s.Algorithm, s.Covered, s.Goals, what, s.Evaluations, s.Generations)
	}
}

// statsRow is one run in a --stats file.
type statsRow struct {
	Caller         string            `json:"caller"`
	Callee         string            `json:"callee"`
	Algorithm      string            `json:"algorithm"`
	Seed           int64             `json:"seed"`
	Budget         string            `json:"budget"`
	MaxEvals       int               `json:"maxEvals"`
	Population     int               `json:"population"`
	Crossover      string            `json:"crossover"`
	DataCrossover  float64           `json:"dataCrossover"`
	Fitness        string            `json:"fitness"`
	RepairAttempts int               `json:"repairAttempts"`
	Workers        int               `json:"workers"`
	Goals          int               `json:"coupledBranches"`
	Covered        int               `json:"covered"`
	CBC            float64           `json:"cbc"`
	Tests          int               `json:"tests"`
	Evaluations    int               `json:"evaluations"`
	Generations    int               `json:"generations"`
	SearchSeconds  float64           `json:"searchSeconds"`
	Repairs        int               `json:"repairs"`
	Drops          int               `json:"drops"`
	Timeline       []mosa.TimePoint  `json:"timeline"`
	GoalSeconds    map[int32]float64 `json:"goalSeconds"`
	// The criteria optimised, the goal selection, and the goals of all of
	// them the search pursued and covered (the goals smart selection left
	// out are not counted).
	Criteria      string `json:"criteria"`
	GoalSelection string `json:"goalSelection"`
	AllGoals      int    `json:"goals"`
	AllCovered    int    `json:"goalsCovered"`
	// Statements counts the statements of R and E the search's tests
	// executed.
	Statements int64 `json:"statementsExecuted"`
}

func appendStats(path string, c *cli.Context, a *couple.Analysis, rep *gen.Report) error {
	row := statsRow{
		Caller: a.Caller.Pkg.Path, Callee: a.Callee.Pkg.Path,
		Algorithm: rep.Stats.Algorithm, Seed: c.Int64("seed"), Budget: c.Duration("budget").String(),
		MaxEvals: c.Int("max-evals"), Population: c.Int("population"), Fitness: c.String("fitness"),
		Crossover: c.String("crossover"), DataCrossover: c.Float64("data-crossover"),
		RepairAttempts: c.Int("repair-attempts"), Workers: c.Int("workers"),
		Goals: rep.CoupledBranches, Covered: rep.SearchCovered, CBC: float64(rep.SearchCovered) / float64(max(rep.CoupledBranches, 1)),
		AllGoals: rep.Stats.Goals, AllCovered: rep.Stats.Covered, Criteria: strings.Join(rep.Optimised, ","), GoalSelection: rep.GoalSelection,
		Tests: rep.Tests, Evaluations: rep.Stats.Evaluations, Generations: rep.Stats.Generations,
		SearchSeconds: rep.Stats.Seconds, Repairs: rep.Stats.Repairs, Drops: rep.Stats.Drops,
		Timeline: rep.Stats.Timeline, GoalSeconds: rep.Stats.GoalSeconds, Statements: rep.Stats.Statements,
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("opening stats file: %w", err)
	}
	defer f.Close()
	if !strings.HasSuffix(path, ".csv") {
		b, err := json.Marshal(row)
		if err != nil {
			return err
		}
		_, err = f.Write(append(b, '\n'))
		return err
	}
	st, _ := f.Stat()
	w := csv.NewWriter(f)
	if st != nil && st.Size() == 0 {
		w.Write([]string{"caller", "callee", "algorithm", "seed", "budget", "max_evals", "population", "fitness", "repair_attempts", "workers",
			"coupled_branches", "covered", "cbc", "tests", "evaluations", "generations", "search_seconds", "repairs", "drops", "timeline", "goal_seconds",
			"crossover", "data_crossover", "criteria", "goal_selection", "goals", "goals_covered", "statements_executed"})
	}
	var tl []string
	for _, p := range row.Timeline {
		tl = append(tl, fmt.Sprintf("%d:%d", p.Second, p.Covered))
	}
	var gs []string
	goals := make([]int, 0, len(row.GoalSeconds))
	for g := range row.GoalSeconds {
		goals = append(goals, int(g))
	}
	sort.Ints(goals)
	for _, g := range goals {
		gs = append(gs, fmt.Sprintf("%d:%.3f", g, row.GoalSeconds[int32(g)]))
	}
	w.Write([]string{row.Caller, row.Callee, row.Algorithm, strconv.FormatInt(row.Seed, 10), row.Budget, strconv.Itoa(row.MaxEvals),
		strconv.Itoa(row.Population), row.Fitness, strconv.Itoa(row.RepairAttempts), strconv.Itoa(row.Workers),
		strconv.Itoa(row.Goals), strconv.Itoa(row.Covered), strconv.FormatFloat(row.CBC, 'f', 4, 64), strconv.Itoa(row.Tests),
		strconv.Itoa(row.Evaluations), strconv.Itoa(row.Generations), strconv.FormatFloat(row.SearchSeconds, 'f', 3, 64),
		strconv.Itoa(row.Repairs), strconv.Itoa(row.Drops), strings.Join(tl, ";"), strings.Join(gs, ";"),
		row.Crossover, strconv.FormatFloat(row.DataCrossover, 'g', -1, 64),
		row.Criteria, row.GoalSelection, strconv.Itoa(row.AllGoals), strconv.Itoa(row.AllCovered), strconv.FormatInt(row.Statements, 10)})
	w.Flush()
	return w.Error()
}
