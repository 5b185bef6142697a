// Package ccfg is the bottom of cling's analysis: it loads Go packages,
// builds their SSA form, and builds for each package its CCFG.
//
// A CCFG (the class-level control flow graph of Derakhshanfar et al. 2022,
// listed in the README's References, made package-level) is the control
// flow graph of one whole package. Its
// nodes are the SSA basic blocks of every source function of the package
// (declared functions and methods, init functions, closures); an edge
// links a block that calls, invokes or references another function of the
// same package to that function. A synthetic ENTRY has an edge to each
// externally callable function (an exported function, or an exported
// method of any named type): that edge is the pseudo-branch entry:<func>,
// taken whenever code outside the package calls the function. A synthetic
// EXIT is reached by every return or panic of an externally callable
// function. Post-dominance and control dependence are computed on this
// graph: a branch controls a block when taking it makes reaching the block
// unavoidable while the branch's other outcome does not.
//
// The graph is stored compositionally: each Function has its own CFG
// (Function.Graph, blocks plus a synthetic exit) and post-dominator tree
// (Function.PD, with control dependences from PostDom.ControlDeps), and the
// intra-package edges are the Function.Refs and CCFG.Callers lists.
// Package couple lifts per-function post-dominance across these edges,
// which restricts it to realizable paths (a callee returns to the caller
// that called it).
//
// Beyond the graph, the package provides:
//
//   - loading: Load and List read packages with go/packages (build tags,
//     overlays, dependencies from source on request) and report the user's
//     mistakes as a LoadError; Program.SourceFiles gives the source that
//     the instrumenter and the mutant writer edit;
//   - SSA: the packages' SSA form with generics instantiated, and
//     SourceFunctions and FuncName to list and name a package's functions;
//   - branching nodes: each SSA If is mapped back to the source construct
//     it comes from (an if or for condition, an operand of && or ||, a
//     case of a switch or type switch, a range loop, a select clause): a
//     BranchNode with a stable ID file:line:col relative to the module
//     root, whose outcomes BranchID names;
//   - the call graph: a Resolver gives the possible targets of every call
//     instruction (static calls, interface invokes by class hierarchy
//     analysis over the concrete types of the packages loaded from source,
//     calls through function values), which is
//     what the CCFG's call edges and package couple's call sites from a
//     caller package into a callee package are built from;
//   - positions: Program.Pos, Program.RelFile and PosKey print and order
//     source positions deterministically.
package ccfg
