// Command cbcsummary prints a markdown table of `cling cbc --json` results.
//
//	cbcsummary LABEL=FILE...
//
// Each FILE holds the JSON object one `cling cbc --json` run wrote; LABEL
// names the module in the table.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// report is the part of cling cbc's JSON output the table shows.
type report struct {
	Caller          string   `json:"caller"`
	Callee          string   `json:"callee"`
	CoupledBranches int      `json:"coupledBranches"`
	Covered         int      `json:"covered"`
	CBC             float64  `json:"cbc"`
	Tests           int      `json:"tests"`
	FailedTests     []string `json:"failedTests"`
	CallSites       []struct {
		Pairs int `json:"pairs"`
	} `json:"callSites"`
	Unobservable []string `json:"unobservable"`
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cbcsummary:", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: cbcsummary LABEL=FILE [LABEL=FILE ...]")
	}
	fmt.Fprintln(w, "| module | caller R | callee E | tests | failed tests | call sites | coupled branches | covered | CBC | unobservable constructs |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, a := range args {
		label, file, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q: want LABEL=FILE", a)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var r report
		if err := json.Unmarshal(data, &r); err != nil || r.Caller == "" {
			fmt.Fprintf(w, "| %s | (no result: %s) | | | | | | | | |\n", label, firstLine(string(data), err))
			continue
		}
		cbc := "n/a"
		if r.CoupledBranches > 0 {
			cbc = fmt.Sprintf("%.1f%%", 100*r.CBC)
		}
		fmt.Fprintf(w, "| %s | `%s` | `%s` | %d | %d | %d | %d | %d | %s | %d |\n",
			label, r.Caller, r.Callee, r.Tests, len(r.FailedTests), len(r.CallSites), r.CoupledBranches, r.Covered, cbc, len(r.Unobservable))
	}
	return nil
}

func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if s == "" && err != nil {
		s = err.Error()
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		s = "empty output"
	}
	return s
}
