package probe

import (
	"context"

	"github.com/cling-go/cling/couple"
)

// Session is an instrumented pair ready to run: the plan, the workspace
// holding the instrumented files and the runtime, and the import path of
// the runtime.
type Session struct {
	Plan     *Plan
	WS       *Workspace
	RTImport string
	// Unobservable lists the nodes and call sites the probes cannot see.
	Unobservable []string
}

// NewSession instruments R and E of an analysed pair into a new workspace,
// with probes of the given mode. The caller must Close it.
func NewSession(a *couple.Analysis, mode Mode) (*Session, error) {
	return NewSessionWith(NewPlan(a, mode))
}

// NewSessionWith instruments R and E as plan says into a new workspace.
// The caller must Close it.
func NewSessionWith(plan *Plan) (*Session, error) {
	var paths []string
	for _, c := range plan.A.Packages() {
		paths = append(paths, c.Pkg.Path)
	}
	if err := CheckInstrumentable(context.Background(), plan.A.Prog.Dir, paths...); err != nil {
		return nil, err
	}
	ws, err := NewWorkspace(plan.A.Prog)
	if err != nil {
		return nil, err
	}
	s := &Session{Plan: plan, WS: ws}
	s.RTImport, err = ws.RuntimeImport(s.Plan.TableSource("rt"))
	if err != nil {
		ws.Close()
		return nil, err
	}
	ins, err := s.Plan.Instrument(s.RTImport)
	if err != nil {
		ws.Close()
		return nil, err
	}
	for path, src := range ins.Files {
		if err := ws.Set(path, src); err != nil {
			ws.Close()
			return nil, err
		}
	}
	s.Unobservable = ins.Unobservable
	return s, nil
}

// Close removes the session's workspace.
func (s *Session) Close() error { return s.WS.Close() }
