package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// store is the benchmark's results file: one JSON line per cling gen run,
// appended when the run finishes (and again when the checks after the
// runs add to its record), so that a benchmark stopped half-way resumes
// where it stopped: a rerun skips every run the file holds a successful
// record of. A run is identified by its key; for a key, the last line
// wins.
type store struct {
	path  string
	runs  map[runKey]*runRecord
	order []runKey
}

// runKey identifies a run: the module, the pair, the variant (its name
// and its flags, so that a variant whose flags changed is another one),
// the seed, the budget and the cling that ran it.
type runKey struct {
	Module, Caller, Callee string
	Variant, Flags         string
	Seed                   int64
	Budget, Cling          string
}

func (r *runRecord) key() runKey {
	return runKey{r.Module, r.Caller, r.Callee, r.Variant, r.Flags, r.Seed, r.Budget, r.Cling}
}

// runKey is the key of the run of variant v on a pair with a seed and a
// budget, by a cling.
func (v variant) runKey(module, caller, callee string, seed int64, budget, cling string) runKey {
	return runKey{module, caller, callee, v.Name, v.flagString(), seed, budget, cling}
}

// migrate upgrades a record written before variants: it named only an
// algorithm A, which is the variant A with the flags --algorithm=A (what
// -algorithms A runs), so that such runs keep their key.
func (r *runRecord) migrate() {
	if r.Variant == "" && r.Algorithm != "" {
		r.Variant, r.Flags = r.Algorithm, "--algorithm="+r.Algorithm
	}
}

// openStore reads the results file at path, if there is one. A last line
// cut short (a run killed while it wrote) is ignored; any other line that
// does not parse is an error. Records of the format before variants are
// migrated as they are read (the file is not rewritten).
func openStore(path string) (*store, error) {
	s := &store{path: path, runs: map[runKey]*runRecord{}}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the results file: %w", err)
	}
	lines := bytes.Split(data, []byte("\n"))
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r runRecord
		if err := json.Unmarshal(line, &r); err != nil {
			if i == len(lines)-1 {
				break // cut short
			}
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		r.migrate()
		s.remember(&r)
	}
	return s, nil
}

func (s *store) remember(r *runRecord) {
	k := r.key()
	if _, ok := s.runs[k]; !ok {
		s.order = append(s.order, k)
	}
	s.runs[k] = r
}

// done returns the successful record of the run k, or nil.
func (s *store) done(k runKey) *runRecord {
	if r := s.runs[k]; r != nil && r.Status == "ok" {
		return r
	}
	return nil
}

// put appends r to the file and remembers it.
func (s *store) put(r *runRecord) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("appending to the results file: %w", err)
	}
	w := bufio.NewWriter(f)
	w.Write(append(line, '\n'))
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("appending to the results file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("appending to the results file: %w", err)
	}
	s.remember(r)
	return nil
}

// records returns the latest record of every run, in the order the runs
// first appeared.
func (s *store) records() []*runRecord {
	out := make([]*runRecord, len(s.order))
	for i, k := range s.order {
		out[i] = s.runs[k]
	}
	return out
}
