package gen

import (
	"go/types"
	"testing"

	"github.com/cling-go/cling/fault"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
)

// A panic in a goroutine the code started is misuse when the call the
// execution was running passed a nil, even though the reproducer's last
// statement passes nothing; a panic of the test's own goroutine is judged
// by the reproducer alone, and so is one whose statement is not known.
func TestGoroutineMisuse(t *testing.T) {
	collector := types.NewInterfaceType(nil, nil)
	nilCollector := &testcase.Op{Kind: testcase.OpNil, Type: types.NewPointer(types.NewStruct(nil, nil))}
	register := &testcase.Op{Kind: testcase.OpCall, Name: "prometheus.Register", Params: []types.Type{collector}}
	handler := &testcase.Op{Kind: testcase.OpCall, Name: "promhttp.Handler"}
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: nilCollector},
		{Op: register, Args: []testcase.Ref{{Stmt: 0}}},
		{Op: handler},
	}}
	inGoroutine := fault.Kind(string(fault.GoroutinePanic) + ": " + string(fault.NilDereference))
	tests := []struct {
		name string
		kind fault.Kind
		stmt int
		want bool
	}{
		{"in a goroutine, during the call given nil", inGoroutine, 1, true},
		{"in a goroutine, during a call given nothing", inGoroutine, 2, false},
		{"in a goroutine, the statement not known", inGoroutine, -1, false},
		{"in the test's goroutine", fault.NilDereference, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fault.Fault{Kind: tt.kind, Test: test, Stmt: -1, Result: harness.Result{Stmt: tt.stmt}}
			assert.Equal(t, tt.want, goroutineMisuse(nil, f))
		})
	}
}
