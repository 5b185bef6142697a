package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func record(alg string, seed int64, covered int, status string) *runRecord {
	return &runRecord{Module: "example.com/m@v1.0.0", Caller: "example.com/m/r", Callee: "example.com/m/e",
		Variant: alg, Flags: "--algorithm=" + alg, Algorithm: alg, Seed: seed,
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

// A run is its variant's name and flags: the same name with other flags is
// another run.
func TestStoreKeysVariants(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	s, err := openStore(path)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := benchVariants("mosa", "mosa+hmx=--crossover=hmx")
	if err != nil {
		t.Fatal(err)
	}
	hmx := record("mosa", 1, 6, "ok")
	hmx.Variant, hmx.Flags = "mosa+hmx", "--algorithm=mosa --crossover=hmx"
	for _, r := range []*runRecord{record("mosa", 1, 5, "ok"), hmx} {
		if err := s.put(r); err != nil {
			t.Fatal(err)
		}
	}
	key := func(v variant) runKey {
		return v.runKey("example.com/m@v1.0.0", "example.com/m/r", "example.com/m/e", 1, "1m0s", "abc1234")
	}
	if r := s.done(key(vs[0])); r == nil || r.Covered != 5 {
		t.Errorf("mosa: %+v, want the run covering 5", r)
	}
	if r := s.done(key(vs[1])); r == nil || r.Covered != 6 {
		t.Errorf("mosa+hmx: %+v, want the run covering 6", r)
	}
	other, err := parseVariant("mosa+hmx=--crossover=hmx --data-crossover=0.5")
	if err != nil {
		t.Fatal(err)
	}
	if r := s.done(key(other)); r != nil {
		t.Errorf("mosa+hmx with other flags is another run: %+v", r)
	}
}

// A record written before variants named only its algorithm A: it reads as
// the variant A with the flags --algorithm=A, the run -algorithms A makes.
func TestStoreMigratesAlgorithmRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	old := `{"module":"example.com/m@v1.0.0","caller":"example.com/m/r","callee":"example.com/m/e","algorithm":"ws","seed":2,"budget":"1m0s","cling":"abc1234","workers":2,"status":"ok","covered":5}`
	current := `{"module":"example.com/m@v1.0.0","caller":"example.com/m/r","callee":"example.com/m/e","variant":"wide","flags":"--population=100 --algorithm=ws","algorithm":"ws","seed":2,"budget":"1m0s","cling":"abc1234","workers":2,"status":"ok","covered":6}`
	if err := os.WriteFile(path, []byte(old+"\n"+current+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := openStore(path)
	if err != nil {
		t.Fatal(err)
	}
	recs := s.records()
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for i, want := range [][3]string{{"ws", "--algorithm=ws", "ws"}, {"wide", "--population=100 --algorithm=ws", "ws"}} {
		if got := [3]string{recs[i].Variant, recs[i].Flags, recs[i].Algorithm}; got != want {
			t.Errorf("record %d: variant, flags, algorithm = %q, want %q", i+1, got, want)
		}
	}
	vs, err := benchVariants("ws", "")
	if err != nil {
		t.Fatal(err)
	}
	if r := s.done(vs[0].runKey("example.com/m@v1.0.0", "example.com/m/r", "example.com/m/e", 2, "1m0s", "abc1234")); r == nil || r.Covered != 5 {
		t.Errorf("-algorithms ws, seed 2: %+v, want the old record", r)
	}
	// Appended again, the migrated record is written in the new format.
	if err := s.put(recs[0]); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"variant":"ws","flags":"--algorithm=ws","algorithm":"ws"`) {
		t.Errorf("the record appended again: %s", last)
	}
}
