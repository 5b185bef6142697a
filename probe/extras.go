package probe

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/internal/typeinfo"
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
	wrapped := map[*ast.CallExpr]bool{}
	for _, m := range p.T.Mutants {
		fi := fileOf(m.Pos)
		if fi == nil || m.File.Pkg != c.Pkg {
			continue
		}
		switch {
		case m.Operator == targets.FunCalDel:
			if call := m.Site.Call; !wrapped[call] {
				wrapped[call] = true
				fi.funCalProbe(call, p.funCalOf[call], m.ResultsUsed, p.funCals[p.funCalOf[call]])
			}
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
}

// funCalProbe probes call k of R into E, whose FunCalDel mutants are
// spec (see rt.Table.FunCals): a call whose results are unused records
// its deletion when its function is evaluated; otherwise the call's
// results, and the arguments a mutant returns in their place, go through
// the runtime on their way, or, when they cannot (more than four results,
// an argument that is a call with several results, a type that cannot be
// named in the file), the call's function is wrapped.
func (fi *fileInstr) funCalProbe(call *ast.CallExpr, k int32, used bool, spec []int32) {
	if !used {
		fi.wrap(call.Fun, fmt.Sprintf("%s.FCReach(%d, ", RT, k), ")", layerFunCal)
		return
	}
	sig, _ := typeOfSig(fi.typeOf(call.Fun))
	args := map[int]string{} // argument -> its type argument ("" if inferred)
	ok := sig != nil && sig.Results().Len() <= 4
	var results []string // the result types, for a call with several results
	for i := 0; ok && sig.Results().Len() > 1 && i < sig.Results().Len(); i++ {
		name, named := typeinfo.TypeText(fi.pkg.Types, fi.pkg.Info, fi.file, sig.Results().At(i).Type())
		ok = named
		results = append(results, name)
	}
	for i := 0; ok && i+2 < len(spec); i += 3 {
		arg := int(spec[i+1])
		if arg < 0 {
			continue
		}
		if arg >= len(call.Args) || arg >= sig.Params().Len() {
			ok = false
			break
		}
		tv := fi.pkg.Info.Types[call.Args[arg]]
		if _, tuple := tv.Type.(*types.Tuple); tuple {
			ok = false
			break
		}
		targ := ""
		if tv.IsNil() || typeinfo.IsUntyped(tv.Type) || tv.Value != nil {
			// A nil or an untyped constant takes the parameter's type;
			// so does a constant the checker converted to it (the 0 of
			// file.Seek(0, io.SeekEnd) is recorded as int64), which as
			// the argument of the generic FCA would become an int.
			t := sig.Params().At(arg).Type()
			if tv.Value != nil && !typeinfo.IsUntyped(tv.Type) {
				t = tv.Type
			}
			name, named := typeinfo.TypeText(fi.pkg.Types, fi.pkg.Info, fi.file, t)
			if !named {
				ok = false
				break
			}
			targ = "[" + name + "]"
		}
		args[arg] = targ
	}
	if !ok {
		fi.wrap(call.Fun, fmt.Sprintf("%s.FCD(%d, ", RT, k), ")", layerFunCal)
		return
	}
	if len(results) > 1 {
		fi.wrap(call, fmt.Sprintf("%s.FC%d[%s](%d).R(", RT, len(results), strings.Join(results, ", "), k), ")", layerFunCal)
	} else {
		fi.wrap(call, fmt.Sprintf("%s.FC1(%d, ", RT, k), ")", layerFunCal)
	}
	for arg, targ := range args {
		fi.wrap(call.Args[arg], fmt.Sprintf("%s.FCA%s(%d, %d, ", RT, targ, k, arg), ")", layerFunCal)
	}
}
