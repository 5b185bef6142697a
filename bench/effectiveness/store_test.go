package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func record(alg string, seed int64, covered int, status string) *runRecord {
	return &runRecord{Module: "example.com/m@v1.0.0", Caller: "example.com/m/r", Callee: "example.com/m/e", Algorithm: alg, Seed: seed,
		Budget: "1m0s", Cling: "abc1234", Status: status, Coupled: 10, Covered: covered, FileCovered: covered,
		Evaluations: 1000 * covered, SearchSeconds: 10}
}

// Runs are appended as they finish; reopened, the file gives the last
// record of each run, skips failed ones as not done, and ignores a last
// line cut short.
func TestStoreResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results", "runs.jsonl")
	s, err := openStore(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*runRecord{record("mosa", 1, 5, "ok"), record("ws", 1, 3, "failed"), record("mosa", 2, 6, "ok")} {
		if err := s.put(r); err != nil {
			t.Fatal(err)
		}
	}
	again := record("mosa", 1, 7, "ok") // the same run, checked afterwards
	if err := s.put(again); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"module":"example.com/m@v1.0.0","algori`)
	f.Close()

	s, err = openStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.records()); got != 3 {
		t.Fatalf("%d runs, want 3", got)
	}
	if r := s.done(record("mosa", 1, 0, "").key()); r == nil || r.Covered != 7 {
		t.Errorf("mosa seed 1: %+v, want the last record (7 covered)", r)
	}
	if r := s.done(record("ws", 1, 0, "").key()); r != nil {
		t.Errorf("a failed run is not done: %+v", r)
	}
	other := record("mosa", 2, 0, "")
	other.Cling = "def5678"
	if r := s.done(other.key()); r != nil {
		t.Errorf("another cling's run is another run: %+v", r)
	}

	// A line that does not parse, before the last, is an error.
	os.WriteFile(path, []byte("{]\n{}\n"), 0o644)
	if _, err := openStore(path); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("openStore of a broken file: %v", err)
	}
}

// The report of a results file compares every algorithm with MOSA.
func TestStoredReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	s, _ := openStore(path)
	covered := map[string][]int{"mosa": {5, 6, 7}, "ws": {2, 3, 4}, "random": {5, 6, 7}}
	for _, alg := range []string{"mosa", "ws", "random"} {
		for i, c := range covered[alg] {
			if err := s.put(record(alg, int64(i+1), c, "ok")); err != nil {
				t.Fatal(err)
			}
		}
	}
	other := record("mosa", 1, 9, "ok")
	other.Budget = "5s" // another budget: left out
	s.put(other)
	older := record("mosa", 4, 9, "ok")
	older.Cling = "0123456" // an older cling, run before: left out
	s.order = append([]runKey{older.key()}, s.order...)
	s.runs[older.key()] = older
	var out strings.Builder
	if err := storedReport(&out, &options{store: path, budget: time.Minute, algorithms: []string{"mosa", "random"}}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"- from the results file `" + path + "`: 9 runs of `cling gen --algorithm mosa|ws|random --budget 1m0s` on 1 pairs; cling abc1234\n",
		"| m: r → e | 10 | 60.0% (3) | 30.0% (3) | 60.0% (3) |\n",
		"| m: r → e | ws | 3 | 0.00 (large) | 0.1000 | tie |\n",
		"| m: r → e | random | 3 | 0.50 (negligible) | 1.0000 | tie |\n",
		"- ws: better than MOSA on 0 pairs, tie on 1, worse on 0 (of 1).\n",
		"| m: r → e | 600 (1.00×) | 300 (0.50×) | 600 (1.00×) |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}
