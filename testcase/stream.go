package testcase

import "go/types"

// Streams that feed themselves. A function of the standard library that
// reads from one argument and writes into another as it goes never ends
// when both are the same stream, or one is built from the other:
// io.TeeReader(buffer, buffer) hands io.ReadAll every byte it reads again
// (and so does io.TeeReader(buffer, io.MultiWriter(buffer))),
// buffer.ReadFrom(buffer) grows for ever, and io.Copy(w, r) of the two
// ends of one io.Pipe waits for a write only it could make. Such a test
// burns its worker until it is cut or times out, and teaches the search
// nothing, so the generator does not write such calls (see feedingPair);
// the fault report calls one that hangs anyway misuse. A function of the
// module is left alone: it may read all of its input before it writes
// (hcl's fmtcmd.Run(…, buffer, buffer, …) formats a buffer in place), and
// what it does then is its own behaviour to test.

// streamRoles reports whether values of type t are read from
// (Read([]byte) (int, error)) and written to (Write([]byte) (int,
// error)) as streams.
func streamRoles(t types.Type) (reads, writes bool) {
	return hasStreamMethod(t, "Read"), hasStreamMethod(t, "Write")
}

// hasStreamMethod reports whether t has a method name of the signature
// func([]byte) (int, error).
func hasStreamMethod(t types.Type, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	p, ok := sig.Params().At(0).Type().Underlying().(*types.Slice)
	if !ok || !types.Identical(p.Elem(), types.Typ[types.Byte]) {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) &&
		types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}

// feedingPair returns the positions of two arguments of a call of op, a
// function of the standard library, with args in t (its receiver
// included) the call would read from and write into while they are one
// stream: the same statement's values, or one built from the other. ok is
// false if there are none.
func feedingPair(t *Test, op *Op, args []Ref) (reader, writer int, ok bool) {
	if op.Kind != OpCall || op.Func == nil || op.Func.Pkg() == nil || !isStandard(op.Func.Pkg().Path()) {
		return 0, 0, false
	}
	inputs := op.Inputs()
	var readers, writers []int
	for i, typ := range inputs {
		if i >= len(args) || args[i].IsOmitted() {
			continue
		}
		r, w := streamRoles(typ)
		if r {
			readers = append(readers, i)
		}
		if w {
			writers = append(writers, i)
		}
	}
	for _, i := range readers {
		for _, j := range writers {
			if i != j && sameStream(t, args[i].Stmt, args[j].Stmt) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// sameStream reports whether the values of statements a and b of t are
// one stream: the same statement (the two ends of an io.Pipe count as
// one), or one built, through the arguments of the statements before it,
// from the other.
func sameStream(t *Test, a, b int) bool {
	return a == b || builtFromStmt(t, a, b) || builtFromStmt(t, b, a)
}

// builtFromStmt reports whether statement i of t takes the value of
// statement j as an argument, or an argument built from it.
func builtFromStmt(t *Test, i, j int) bool {
	seen := map[int]bool{}
	var walk func(k int) bool
	walk = func(k int) bool {
		if seen[k] || k < 0 || k >= len(t.Stmts) {
			return false
		}
		seen[k] = true
		for _, a := range t.Stmts[k].Args {
			if !a.IsOmitted() && (a.Stmt == j || walk(a.Stmt)) {
				return true
			}
		}
		return false
	}
	return walk(i)
}

// FeedingCall returns the first statement of t, a call of the standard
// library, that would read what it writes (see feedingPair), -1 if none:
// a test the generator never writes.
func FeedingCall(t *Test) int {
	for i, s := range t.Stmts {
		if _, _, ok := feedingPair(t, s.Op, s.Args); ok {
			return i
		}
	}
	return -1
}
