package probe

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/targets"
)

// Wrapper layers of the extra probes, inside the call-site wrappers of
// the same node (layers 0 to 3).
const (
	layerInfRet = 4
	layerFunCal = 8
)

// instrumentExtras adds the extra probes of the plan to the files of
// package c (fileOf finds a file's instrumenter).
func (p *Plan) instrumentExtras(c *ccfg.CCFG, fileOf func(token.Pos) *fileInstr) {
	x := p.Extras
	if x.Lines {
		for id, l := range p.T.Lines {
			if fi := fileOf(l.Stmt.Pos()); fi != nil && l.Func.Pkg == c.Pkg {
				fi.insert(l.Stmt.Pos(), fmt.Sprintf("%s.Ln(%d); ", RT, id))
			}
		}
	}
	if x.API && c == p.A.Caller {
		for id, f := range p.T.Funcs {
			if fi := fileOf(f.Decl.Pos()); fi != nil {
				fi.apiProbe(f.Decl, id)
			}
		}
	}
	if x.Mutants {
		p.mutantProbes(c, fileOf)
	}
}

// apiProbe makes an externally callable function of R report its calls:
// Call when it starts, and a deferred function that, for a direct call,
// recovers a panic and hands it to Left with the results (Left records it
// and panics again with the same value). Results without a name get one,
// so that the deferred function can read them.
func (fi *fileInstr) apiProbe(decl *ast.FuncDecl, id int) {
	var names []string
	if res := decl.Type.Results; res != nil {
		k := 0
		for _, field := range res.List {
			if len(field.Names) == 0 {
				name := fmt.Sprintf("cling__r%d", k)
				names = append(names, name)
				k++
				if res.Opening.IsValid() {
					fi.insert(field.Type.Pos(), name+" ")
				} else {
					fi.insert(field.Type.Pos(), "("+name+" ")
					fi.insert(field.Type.End(), ")")
				}
				continue
			}
			for _, n := range field.Names {
				name := n.Name
				if name == "_" {
					name = fmt.Sprintf("cling__r%d", k)
					fi.ed.replace(fi.off(n.Pos()), fi.off(n.End()), name)
				}
				names = append(names, name)
				k++
			}
		}
	}
	args := ""
	if len(names) > 0 {
		args = ", " + strings.Join(names, ", ")
	}
	fi.insertAtBodyStart(decl.Body, fmt.Sprintf(" cling__call := %s.EnterAPI(%d); defer func() { if %s.Direct(cling__call) { %s.Left(cling__call, recover()%s) } }();", RT, id, RT, RT, args))
}

// mutantProbes adds the infection probes of the interface mutants of
// package c: a mutant whose reaching infects it records itself before
// its return statement (or where its call's function is evaluated); a
// RetStaRep mutant that puts the zero value in place checks the value it
// replaces; the FunCalDel mutants of one call check the call's results
// against zero values and arguments.
func (p *Plan) mutantProbes(c *ccfg.CCFG, fileOf func(token.Pos) *fileInstr) {
	calls := map[*ast.CallExpr][]string{}
	var order []*ast.CallExpr
	for _, m := range p.T.Mutants {
		fi := fileOf(m.Pos)
		if fi == nil || m.File.Pkg != c.Pkg {
			continue
		}
		switch {
		case m.Operator == targets.FunCalDel:
			call := m.Site.Call
			res := m.Result
			if m.Arg < 0 {
				res = -1
				if m.ResultsUsed {
					res = -2
				}
			}
			if calls[call] == nil {
				order = append(order, call)
			}
			calls[call] = append(calls[call], fmt.Sprintf("%d, %d, %d", m.ID, m.Arg, res))
		case m.AlwaysInfected():
			fi.insert(m.Return.Pos(), fmt.Sprintf("%s.Inf(%d); ", RT, m.ID))
		case m.Shape == targets.ReturnBare:
			fi.insert(m.Return.Pos(), fmt.Sprintf("%s.InfZ(%d, %s); ", RT, m.ID, m.ResultName))
		case m.Shape == targets.ReturnCall:
			call := ast.Unparen(m.Return.Results[0]).(*ast.CallExpr)
			fi.wrap(call.Fun, fmt.Sprintf("%s.InfRet(%d, %d, ", RT, m.ID, m.Result), ")", layerInfRet+m.Result)
		default:
			fi.wrap(m.Expr, fmt.Sprintf("%s.InfZ(%d, ", RT, m.ID), ")", 0)
		}
	}
	for _, call := range order {
		fi := fileOf(call.Pos())
		fi.wrap(call.Fun, RT+".FCD(", ", "+strings.Join(calls[call], ", ")+")", layerFunCal)
	}
}
