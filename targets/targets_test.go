package targets_test

import (
	"fmt"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/targets"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func targetsOf(t *testing.T, fix, caller, callee string) *targets.Targets {
	t.Helper()
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: fixture.Copy(t, fix)}, caller, callee)
	require.NoError(t, err)
	tg, err := targets.Of(a)
	require.NoError(t, err)
	return tg
}

// lineRows describes lines as "file:line function [guards] block/last".
func lineRows(ls []targets.Line) []string {
	var out []string
	for _, l := range ls {
		var gs []string
		for _, g := range l.Guards {
			gs = append(gs, g.ID())
		}
		out = append(out, fmt.Sprintf("%s %s %v %d/%t", l.ID(), l.Func.Name, gs, l.BlockLines, l.BlockLast))
	}
	return out
}

// personcar: every statement line of DriveToHome and addEnergy (reachable
// from the exported DriveToHome), and of Drive and Refuel (called at R's
// call sites), with the branch that leads to each.
func TestPersonCarLines(t *testing.T) {
	tg := targetsOf(t, "personcar", "./person", "./car")
	assert.Equal(t, []string{
		"car/car.go:9 (*Car).Drive [entry:(*Car).Drive] 1/true",
		"car/car.go:14 (*Car).Refuel [entry:(*Car).Refuel] 1/true",
		"car/car.go:15 (*Car).Refuel [car/car.go:14:5:true] 1/true",
		"car/car.go:17 (*Car).Refuel [car/car.go:14:5:false] 1/true",
		"person/person.go:14 (*Person).DriveToHome [entry:(*Person).DriveToHome] 1/true",
		"person/person.go:15 (*Person).DriveToHome [person/person.go:14:5:true] 1/true",
		"person/person.go:17 (*Person).DriveToHome [person/person.go:14:5:false] 1/true",
		"person/person.go:22 (*Person).addEnergy [person/person.go:14:5:true] 1/true",
		"person/person.go:23 (*Person).addEnergy [person/person.go:22:5:true] 1/true",
		"person/person.go:25 (*Person).addEnergy [person/person.go:22:5:false] 1/true",
	}, lineRows(tg.Lines))
	require.Len(t, tg.Funcs, 1)
	assert.Equal(t, "(*Person).DriveToHome", tg.Funcs[0].Fn.Name)
	assert.Empty(t, tg.Outputs)
}

// The guards of lines in switch clauses (tagged, tagless, type), after an
// early return, in && and || conditions and in loops, and the basic
// blocks, on the constructs fixture.
func TestConstructsGuards(t *testing.T) {
	tg := targetsOf(t, "constructs", "./caller", "./callee")
	rows := map[string]bool{}
	for _, r := range lineRows(tg.Lines) {
		rows[r] = true
	}
	for _, want := range []string{
		"callee/callee.go:49 Classify [callee/callee.go:48:7:true] 1/true",
		"callee/callee.go:51 Classify [callee/callee.go:50:7:true callee/callee.go:50:10:true callee/callee.go:50:13:true] 1/true",
		"callee/callee.go:53 Classify [callee/callee.go:50:13:false] 1/true",
		"callee/callee.go:31 abs [entry:Less] 1/true",
		"callee/callee.go:113 Work [entry:Work] 2/false",
		"callee/callee.go:114 Work [entry:Work] 2/true",
		"callee/callee.go:115 Work [callee/callee.go:114:14:true] 1/true",
		"callee/callee.go:131 Parse [callee/callee.go:128:5:false] 2/false",
		"caller/control.go:9 TaggedSwitch [caller/control.go:8:7:true caller/control.go:8:14:true] 1/true",
		"caller/control.go:48 AndOr [caller/control.go:47:14:true] 1/true",
		"caller/control.go:51 AndOr [caller/control.go:50:5:true caller/control.go:50:14:true] 1/true",
		"caller/control.go:62 RangeSlice [caller/control.go:61:2:true] 1/true",
	} {
		assert.True(t, rows[want], "no line %s", want)
	}
}

// The mutants fixture: R's API with the partitions of its results, and
// the interface mutants, numbered as cling mutate numbers them with its
// default operators, with whether reaching them infects them.
func TestMutantsTargets(t *testing.T) {
	tg := targetsOf(t, "mutants", "./app", "./store")
	var funcs []string
	for _, f := range tg.Funcs {
		funcs = append(funcs, f.Fn.Name)
	}
	assert.Equal(t, []string{"NewInventory", "(*Inventory).Add", "(*Inventory).Count", "(*Inventory).Capped", "Steps", "Label", "(*Inventory).Audit"}, funcs)
	var outs []string
	for _, o := range tg.Outputs {
		outs = append(outs, fmt.Sprintf("%s/%d", tg.OutputName(o), o.Slot))
	}
	assert.Equal(t, []string{
		"NewInventory nil/0", "NewInventory non-nil/0",
		"(*Inventory).Count <0/1", "(*Inventory).Count 0/1", "(*Inventory).Count >0/1",
		"(*Inventory).Capped <0/2", "(*Inventory).Capped 0/2", "(*Inventory).Capped >0/2",
		"Steps <0/3", "Steps 0/3", "Steps >0/3",
		"Label <0/4", "Label 0/4", "Label >0/4",
	}, outs)
	var ms []string
	for _, m := range tg.Mutants {
		ms = append(ms, fmt.Sprintf("%d %s %s %t", m.ID, m.Operator, m.Description, m.AlwaysInfected()))
	}
	assert.Equal(t, []string{
		"1 FunCalDel replaces the result of New with the zero value false",
		"2 FunCalDel replaces the result of (*Store).Put with the zero value false",
		"3 FunCalDel replaces the result of Name with the zero value false",
		"4 FunCalDel replaces the result of Name with argument 1 (key) false",
		"5 FunCalDel deletes the call to (*Store).Log true",
		"6 FunCalDel replaces the results of (*Store).Get with zero values false",
		"7 FunCalDel replaces the result of Name with the zero value false",
		"8 FunCalDel replaces the result of Name with argument 1 (key) false",
		"9 FunCalDel replaces the result of Clamp with the zero value false",
		"10 FunCalDel replaces the result of Clamp with argument 1 (v) false",
		"11 FunCalDel replaces the result of Clamp with argument 2 (max) false",
		"12 FunCalDel replaces the result of Next with the zero value false",
		"13 FunCalDel replaces the result of Next with argument 1 (i) false",
		"14 FunCalDel replaces the result of Width with the zero value false",
		"15 FunCalDel deletes the call to (*Store).Log true",
		"16 RetStaRep New returns nil false",
		"17 RetStaRep (*Store).Put returns the negated bool true",
		"18 RetStaRep (*Store).Get returns 1 for 0, 0 for any other number (result 1 of 2) true",
		"19 RetStaRep (*Store).Get returns errors.New(\"cling: mutant\") for nil, nil for a non-nil error (result 2 of 2) true",
		"20 RetStaRep (*Store).Get returns 1 for 0, 0 for any other number (result 1 of 2) true",
		"21 RetStaRep (*Store).Get returns errors.New(\"cling: mutant\") for nil, nil for a non-nil error (result 2 of 2) true",
		"22 RetStaRep Name returns \"\" false",
		"23 RetStaRep Clamp returns 1 for 0, 0 for any other number true",
		"24 RetStaRep Clamp returns 1 for 0, 0 for any other number true",
		"25 RetStaRep Next returns 1 for 0, 0 for any other number true",
		"26 RetStaRep Width returns 1 for 0, 0 for any other number true",
		"27 RetStaRep Width returns 1 for 0, 0 for any other number true",
	}, ms)
}

func TestClassOf(t *testing.T) {
	tg := targetsOf(t, "shop", "./checkout", "./pricing")
	var outs []string
	for _, o := range tg.Outputs {
		outs = append(outs, tg.OutputName(o))
	}
	assert.Equal(t, []string{
		"NewCart result 1 nil", "NewCart result 1 non-nil", "NewCart result 2 nil", "NewCart result 2 non-nil",
		"(*Cart).AddItem nil", "(*Cart).AddItem non-nil",
		"(*Cart).SetWeight nil", "(*Cart).SetWeight non-nil",
		"(*Cart).Lines empty", "(*Cart).Lines non-empty",
		"(*Cart).ItemCount <0", "(*Cart).ItemCount 0", "(*Cart).ItemCount >0",
		"(*Cart).Weight <0", "(*Cart).Weight 0", "(*Cart).Weight >0",
		"(*Cart).Checkout result 2 nil", "(*Cart).Checkout result 2 non-nil",
		"ShippingPolicy.Cost result 2 nil", "ShippingPolicy.Cost result 2 non-nil",
	}, outs, "a Receipt and a Money (structs) have no partitions")
}
