package hrt

import "testing"

// The stack of a traceback leaves out the frames of the runtime and of
// the probes' runtime (with the standard library it calls) before the
// first frame of the code under test, and the executor's own frames after
// the last; a goroutine's creator is its outermost frame.
func TestStackOfTrace(t *testing.T) {
	cases := []struct{ name, trace, want string }{
		{"hang in a probe", `goroutine 9 [running]:
math.IsInf(...)
	/usr/local/go/src/math/bits.go:52
example.com/m/clingprobe_rt.distances(0x0)
	/m/clingprobe_rt/dist.go:75 +0x1d
example.com/m/clingprobe_rt.I(0x1)
	/m/clingprobe_rt/rt.go:392 +0x2
example.com/m/store.Steps(0x0)
	/m/store/store.go:85 +0x3
example.com/m/catalog.Difficulty(0x0)
	/m/catalog/catalog.go:74 +0x4
main.glob..func3({0xc0000, 0x1, 0x1})
	/m/catalog/clingharness_main/main.go:40 +0x5
main.testBody({0x1}, 0x2)
	/m/catalog/clingharness_main/hrt.go:500 +0x6
created by main.(*server).run in goroutine 1
	/m/catalog/clingharness_main/hrt.go:400 +0x7
`, "example.com/m/store.Steps /m/store/store.go:85\nexample.com/m/catalog.Difficulty /m/catalog/catalog.go:74\n"},
		{"crash of a goroutine", `fatal error: concurrent map writes

goroutine 20 [running]:
internal/runtime/maps.fatal({0x5, 0x6})
	/usr/local/go/src/runtime/panic.go:1058 +0x18
example.com/m/callee.race.func1()
	/m/callee/callee.go:72 +0x65
created by example.com/m/callee.race in goroutine 7
	/m/callee/callee.go:70 +0x8a
`, "example.com/m/callee.race.func1 /m/callee/callee.go:72\nexample.com/m/callee.race /m/callee/callee.go:70\n"},
		{"elided frames", `goroutine 7 [running]:
example.com/m/callee.recurse(0x1)
	/m/callee/callee.go:57 +0x1
...additional frames elided...
example.com/m/callee.Step(0x6, 0x5)
	/m/callee/callee.go:27 +0x2
`, "example.com/m/callee.recurse /m/callee/callee.go:57\nexample.com/m/callee.Step /m/callee/callee.go:27\n"},
	}
	for _, tc := range cases {
		if got := StackOfTrace(tc.trace); got != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}
