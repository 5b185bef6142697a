// Command benchcmp measures several commands side by side and prints a
// markdown table of their median wall times and peak resident set sizes.
//
//	benchcmp [flags] -- LABEL PROG [ARG...] [--- LABEL PROG [ARG...]]...
//
// The commands run round-robin (A, B, C, A, B, C, ...) after -warmup
// untimed rounds, so that a shared machine's drifting load affects them
// alike. Each command's standard output goes to the null device. Peak RSS
// is that of the command or of the largest descendant it waited for (the go
// command it runs), as wait4 reports it.
//
// Flags:
//
//	-dir DIR          working directory of the commands
//	-runs N           timed rounds (default 5)
//	-warmup N         untimed rounds before them (default 1)
//	-baseline LABEL   add wall and RSS ratio columns against this command
//	-ratio SPEC       add a ratio of medians over labels: A/B, A/B+C, A-B/C
//	                  (wall times), rss:A/B (peak RSS) (repeatable)
//	-target SPEC<=X   report whether a ratio meets a target (also SPEC<X)
//	-show OLD=NEW     print command lines with OLD replaced by NEW (repeatable)
//	-json FILE        append the summaries to FILE as one JSON object per line
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/cling-go/cling/bench/internal/measure"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("benchcmp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "working directory of the commands")
	runs := fs.Int("runs", 5, "timed rounds")
	warmup := fs.Int("warmup", 1, "untimed rounds before the timed ones")
	baseline := fs.String("baseline", "", "label of the command to compute ratios against")
	jsonFile := fs.String("json", "", "append summaries to this file (JSON lines)")
	var ratios, targets, shows listFlag
	fs.Var(&ratios, "ratio", "ratio of medians A/B, A/B+C, A-B/C, rss:A/B over labels (repeatable)")
	fs.Var(&targets, "target", "RATIO<=X: report whether a ratio meets a target (repeatable)")
	fs.Var(&shows, "show", "OLD=NEW: replace OLD by NEW in printed command lines (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cmds, err := parseCommands(fs.Args(), *dir)
	if err != nil {
		return err
	}
	if *runs < 1 {
		return errors.New("-runs must be at least 1")
	}
	series, err := measure.Alternate(ctx, cmds, *warmup, *runs, func(err error) {
		fmt.Fprintln(stderr, "benchcmp: warning:", firstLine(err.Error()))
	})
	if err != nil {
		return err
	}
	sums := make([]measure.Summary, len(series))
	byLabel := map[string]measure.Summary{}
	for i, s := range series {
		sums[i] = s.Summarize()
		byLabel[sums[i].Label] = sums[i]
	}
	var base *measure.Summary
	if *baseline != "" {
		b, ok := byLabel[*baseline]
		if !ok {
			return fmt.Errorf("-baseline %s: no such command", *baseline)
		}
		base = &b
	}
	replacer := newReplacer(shows)
	printTable(stdout, sums, base)
	if len(ratios) > 0 {
		fmt.Fprintln(stdout)
		fmt.Fprintln(stdout, "| ratio of medians | value |")
		fmt.Fprintln(stdout, "|---|---:|")
		for _, spec := range ratios {
			v, text, err := evalRatio(spec, byLabel)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "| %s | %.2f |\n", text, v)
		}
	}
	if len(targets) > 0 {
		fmt.Fprintln(stdout)
		fmt.Fprintln(stdout, "| target (ratio of medians) | value | target | verdict |")
		fmt.Fprintln(stdout, "|---|---:|---:|---|")
		for _, spec := range targets {
			line, _, err := checkTarget(spec, byLabel)
			if err != nil {
				return err
			}
			fmt.Fprintln(stdout, line)
		}
	}
	fmt.Fprintln(stdout)
	for _, s := range sums {
		fmt.Fprintf(stdout, "- `%s`: `%s`\n", s.Label, replacer.Replace(s.Command))
	}
	if *jsonFile != "" {
		f, err := os.OpenFile(*jsonFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		for i := range sums {
			sums[i].Command = replacer.Replace(sums[i].Command)
			sums[i].Dir = replacer.Replace(sums[i].Dir)
		}
		if err := json.NewEncoder(f).Encode(sums); err != nil {
			return err
		}
	}
	return nil
}

// parseCommands splits "LABEL PROG ARGS... --- LABEL PROG ARGS..." into
// commands.
func parseCommands(args []string, dir string) ([]measure.Cmd, error) {
	var cmds []measure.Cmd
	var cur []string
	flush := func() error {
		if len(cur) < 2 {
			return fmt.Errorf("each command needs a label and a program (got %q)", strings.Join(cur, " "))
		}
		cmds = append(cmds, measure.Cmd{Label: cur[0], Args: cur[1:], Dir: dir})
		cur = nil
		return nil
	}
	for _, a := range args {
		if a == "---" {
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		cur = append(cur, a)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, c := range cmds {
		if strings.ContainsAny(c.Label, "+-/<=") {
			return nil, fmt.Errorf("label %q: labels may not contain + - / < =", c.Label)
		}
		if seen[c.Label] {
			return nil, fmt.Errorf("duplicate label %s", c.Label)
		}
		seen[c.Label] = true
	}
	return cmds, nil
}

func printTable(w io.Writer, sums []measure.Summary, base *measure.Summary) {
	head := "| command | runs | wall median (s) | wall min–max (s) | peak RSS median (MiB) | CPU median (s) |"
	rule := "|---|---:|---:|---:|---:|---:|"
	if base != nil {
		head += fmt.Sprintf(" wall / %s | RSS / %s |", base.Label, base.Label)
		rule += "---:|---:|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, rule)
	for _, s := range sums {
		label := "`" + s.Label + "`"
		if s.Failures > 0 {
			label += fmt.Sprintf(" (%d runs failed)", s.Failures)
		}
		fmt.Fprintf(w, "| %s | %d | %.3f | %.3f–%.3f | %.1f | %.3f |", label, s.Runs, s.WallSec, s.WallMin, s.WallMax, s.RSSMiB, s.CPUSec)
		if base != nil {
			fmt.Fprintf(w, " %.2f | %.2f |", measure.Ratio(s.WallSec, base.WallSec), measure.Ratio(s.RSSMiB, base.RSSMiB))
		}
		fmt.Fprintln(w)
	}
}

// evalRatio evaluates a ratio of medians: "A/B", "A/B+C", "A-B/C"; the
// numerator and the denominator are sums and differences of labelled
// commands' median wall times, or of their median peak RSS with the prefix
// "rss:". It returns the value and a markdown rendering.
func evalRatio(spec string, by map[string]measure.Summary) (float64, string, error) {
	what, rss := "wall", false
	body := spec
	if b, ok := strings.CutPrefix(spec, "rss:"); ok {
		what, rss, body = "peak RSS", true, b
	}
	num, den, ok := strings.Cut(body, "/")
	if !ok || num == "" || den == "" {
		return 0, "", fmt.Errorf("ratio %q: want A/B, A/B+C or A-B/C", spec)
	}
	sum := func(expr string) (float64, string, error) {
		total, text, sign := 0.0, "", 1.0
		terms := 0
		for expr != "" {
			k := strings.IndexAny(expr, "+-")
			term := expr
			if k >= 0 {
				term = expr[:k]
			}
			s, ok := by[term]
			if !ok {
				return 0, "", fmt.Errorf("ratio %q: no command labelled %q", spec, term)
			}
			v := s.WallSec
			if rss {
				v = s.RSSMiB
			}
			total += sign * v
			text += "`" + term + "`"
			terms++
			if k < 0 {
				break
			}
			if expr[k] == '-' {
				sign = -1
			} else {
				sign = 1
			}
			text += " " + string(expr[k]) + " "
			expr = expr[k+1:]
		}
		if terms > 1 {
			text = "(" + text + ")"
		}
		return total, text, nil
	}
	n, nt, err := sum(num)
	if err != nil {
		return 0, "", err
	}
	d, dt, err := sum(den)
	if err != nil {
		return 0, "", err
	}
	return measure.Ratio(n, d), fmt.Sprintf("%s %s / %s", what, nt, dt), nil
}

// checkTarget evaluates "RATIO<=X" or "RATIO<X".
func checkTarget(spec string, by map[string]measure.Summary) (string, bool, error) {
	op := "<="
	ratio, limit, ok := strings.Cut(spec, "<=")
	if !ok {
		op = "<"
		ratio, limit, ok = strings.Cut(spec, "<")
	}
	if !ok {
		return "", false, fmt.Errorf("target %q: want RATIO<=X or RATIO<X", spec)
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(limit), 64)
	if err != nil {
		return "", false, fmt.Errorf("target %q: %v", spec, err)
	}
	v, text, err := evalRatio(strings.TrimSpace(ratio), by)
	if err != nil {
		return "", false, err
	}
	met := v <= x
	if op == "<" {
		met = v < x
	}
	verdict := "**met**"
	if !met {
		verdict = fmt.Sprintf("**missed** (%.0f%% over)", 100*(v/x-1))
	}
	return fmt.Sprintf("| %s | %.2f | %s %g | %s |", text, v, op, x, verdict), met, nil
}

func newReplacer(shows []string) *strings.Replacer {
	var pairs []string
	for _, s := range shows {
		old, new, ok := strings.Cut(s, "=")
		if ok && old != "" {
			pairs = append(pairs, old, new)
		}
	}
	return strings.NewReplacer(pairs...)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
