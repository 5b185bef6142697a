// Command cling generates and evaluates integration tests for pairs of Go
// packages: a caller package R and a callee package E that R calls into.
//
// Commands:
//
//	cling pairs   [PATTERN...]                 list package pairs and their coupled branches
//	cling analyze --caller R --callee E        show call sites and coupled branches of one pair
//	cling cbc     --caller R --callee E        measure the coupled-branch coverage of a test suite
//	cling gen     --caller R --callee E        generate integration tests for a pair
//	cling mutate  --caller R --callee E        interface mutation analysis of a test suite
//	cling ci      [PATTERN...] [--base REF]    a pre-merge gate on the pairs a change affects
//	cling plan    [PATTERN...] --shards N      split the pairs of a module into shards for a CI matrix
//	cling merge   RESULTS.json...              merge the results of the shards into one report
//
// gen, cbc and mutate without --caller and --callee run over every pair
// of the packages, or over one shard of a plan (--plan FILE --shard I).
//
// Run `cling help COMMAND` for the flags of each command.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/internal/gotest"
	"github.com/urfave/cli/v2"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	// A reader that goes away (cling pairs | head) makes writes fail with
	// EPIPE instead of killing cling before it removes its temporary files.
	signal.Ignore(syscall.SIGPIPE)
	// Every go command cling runs inherits this environment; the binaries
	// it builds must keep their source paths (see gotest.WithoutTrimpath).
	if flags, ok := os.LookupEnv("GOFLAGS"); ok {
		os.Setenv("GOFLAGS", gotest.WithoutTrimpath(flags))
	}
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// usageError is a mistake in how cling was invoked: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// exitError carries an exit code for a failure that has already been
// reported (for example a failing test suite whose coverage was printed).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// debugWriter returns w, where diagnostics go, when the environment
// variable CLING_DEBUG is set to anything but "", and nil otherwise. It is
// the one place cling reads that variable; the packages get the writer in
// their configuration.
func debugWriter(w io.Writer) io.Writer {
	if os.Getenv("CLING_DEBUG") == "" {
		return nil
	}
	return w
}

// run executes cling with the given arguments and returns the exit code.
// Every error is printed as one line on stderr.
func run(args []string, stdout, stderr io.Writer) (code int) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer func() {
		// A bug in cling is still reported on one line; CLING_DEBUG=1
		// shows where.
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "cling: internal error: %v\n", oneLine(fmt.Sprint(p)))
			if w := debugWriter(stderr); w != nil {
				fmt.Fprintf(w, "%s\n", debug.Stack())
			}
			code = exitFailure
		}
	}()
	if path := os.Getenv("CLING_CPUPROFILE"); path != "" {
		// A CPU profile of cling itself, for performance work.
		if f, err := os.Create(path); err == nil {
			pprof.StartCPUProfile(f)
			defer func() {
				pprof.StopCPUProfile()
				f.Close()
			}()
		}
	}
	app := newApp(stdout, stderr)
	err := app.RunContext(ctx, interspersed(app, args))
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "cling: interrupted")
		return exitFailure
	}
	if err == nil {
		return exitOK
	}
	if errors.Is(err, syscall.EPIPE) {
		return exitFailure // the reader left; nobody to tell
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "cling: "+oneLine(ee.msg))
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "cling: "+oneLine(err.Error()))
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	if isUsage(err) {
		return exitUsage
	}
	if ccfg.IsLoadError(err) {
		return exitFailure
	}
	return exitFailure
}

// isUsage recognises the flag-parsing errors urfave/cli returns.
func isUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"flag provided but not defined", "Required flag", "Required flags", "invalid value", "flag needs an argument", "No help topic"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "cling",
		Usage:     "integration tests for pairs of Go packages (caller R, callee E)",
		UsageText: "cling [global options] command [command options] [arguments...]",
		Description: `cling finds the coupled branches of a caller package R and a callee package E:
pairs (r, e) where r is a branch of R that leads unavoidably to a call site s
into E, and e is a branch of E reachable from what s calls. It measures how
many of them a test suite covers (cbc), generates tests that cover them (gen),
and checks with interface mutants whether a suite would catch faults at the
R-E interface (mutate). As a pre-merge gate (ci), it judges what the tests do
at the interfaces a change touches.

Packages are named by import path or by a path relative to the current
directory (./parser); --dir changes that directory, like go -C.

CLING_DEBUG=1 in the environment writes to stderr the output of the go
commands with which gen verifies the file it writes, and the stack of an
internal error.`,
		Writer:               stdout,
		ErrWriter:            stderr,
		HideHelpCommand:      false,
		EnableBashCompletion: false,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Aliases: []string{"C"}, Usage: "resolve packages and run go commands in `DIR`"},
			&cli.StringSliceFlag{Name: "tags", Usage: "build `TAGS` (comma-separated), as for go build -tags"},
		},
		Commands: []*cli.Command{
			pairsCommand(),
			analyzeCommand(),
			cbcCommand(),
			genCommand(),
			mutateCommand(),
			ciCommand(),
			planCommand(),
			mergeCommand(),
		},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &usageError{msg: err.Error()}
		},
		ExitErrHandler: func(*cli.Context, error) {},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(stderr, "cling: unknown command %q (see cling --help)\n", name)
			os.Exit(exitUsage)
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = app.OnUsageError
	}
	return app
}

// globalLoad returns the load settings common to all commands.
func globalLoad(c *cli.Context) ccfg.LoadConfig {
	var tags []string
	for _, t := range c.StringSlice("tags") {
		for _, p := range strings.Split(t, ",") {
			if p = strings.TrimSpace(p); p != "" {
				tags = append(tags, p)
			}
		}
	}
	return ccfg.LoadConfig{Dir: c.String("dir"), Tags: tags}
}
