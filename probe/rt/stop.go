//go:build go1.21

package rt

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
)

// exitHook receives the exits the code under test requests, once the
// executor has asked for them (InterceptExits); nil means exits are real.
var exitHook func(code int, message string)

// InterceptExits makes the exits that R and E request — os.Exit,
// syscall.Exit, log.Fatal, log.Fatalf, log.Fatalln and the Fatal methods
// of a *log.Logger, which the search-mode instrumentation routes through
// OSExit, Fatal, Fatalf and Fatalln — call hook instead of ending the
// process. The goroutine that requested the exit then blocks for ever, as
// if the process had ended there: its deferred functions do not run and no
// recover can stop it, exactly as with a real exit. cling's executor calls
// it once, before its first test; nothing else does, so that the code
// keeps its real behaviour everywhere else.
func InterceptExits(hook func(code int, message string)) { exitHook = hook }

// OSExit stands for f, os.Exit or syscall.Exit, in the instrumented code.
// Whether the exit is intercepted is decided when it is called, not when
// the function value is taken: a package variable initialised with
// os.Exit (zap's exit helper) is set before the executor starts.
func OSExit(f func(int)) func(int) {
	return func(code int) {
		if exitHook == nil {
			f(code)
			return
		}
		stop(code, "")
	}
}

// Fatal stands for f, log.Fatal or the Fatal method of a logger.
func Fatal(f func(...any)) func(...any) {
	return func(v ...any) {
		if exitHook == nil {
			f(v...)
			return
		}
		stop(1, fmt.Sprint(v...))
	}
}

// Fatalf stands for f, log.Fatalf or the Fatalf method of a logger.
func Fatalf(f func(string, ...any)) func(string, ...any) {
	return func(format string, v ...any) {
		if exitHook == nil {
			f(format, v...)
			return
		}
		stop(1, fmt.Sprintf(format, v...))
	}
}

// Fatalln stands for f, log.Fatalln or the Fatalln method of a logger.
func Fatalln(f func(...any)) func(...any) {
	return func(v ...any) {
		if exitHook == nil {
			f(v...)
			return
		}
		stop(1, strings.TrimSuffix(fmt.Sprintln(v...), "\n"))
	}
}

// stop reports an exit and blocks the calling goroutine for ever.
func stop(code int, message string) {
	exitHook(code, message)
	select {}
}

// abandoned is set while the executor stops the goroutines of a test it
// gave up on (one that ran past its limit): every goroutine that reaches a
// probe then ends, through runtime.Goexit, which no recover can stop.
var abandoned atomic.Bool

// Abandon makes every goroutine that reaches a probe, or calls a function
// of R or E (see Call), end, until Resume. It also starts a new context,
// so that probes whose outcome was recorded already take their slow path,
// where they look.
func Abandon() {
	abandoned.Store(true)
	checkMask = 0
	rEpoch++
	newOutside()
}

// Resume ends Abandon.
func Resume() {
	abandoned.Store(false)
	checkMask = boundMask()
}

// leave ends the calling goroutine if the executor abandoned its test.
func leave() {
	if abandoned.Load() {
		runtime.Goexit()
	}
}

// goPanicHook receives the panics of the goroutines that R and E start,
// once the executor has asked for them (InterceptGoPanics).
var goPanicHook func(v any)

// InterceptGoPanics makes a panic that ends a goroutine R or E started
// with a function literal (whose body the search-mode instrumentation
// begins with a deferred GoRecover) call hook with the panic's value
// instead of ending the process; the goroutine then blocks for ever, as
// if the process had ended there. cling's executor calls it once, before
// its first test; nothing else does, so that such a panic ends the
// process everywhere else, as it does uninstrumented.
func InterceptGoPanics(hook func(v any)) { goPanicHook = hook }

// GoRecover is the first deferred call of the function literals that the
// go statements of R and E start. Unless the executor intercepts such
// panics it does not recover, and the panic ends the process as before.
func GoRecover() {
	if goPanicHook == nil {
		return
	}
	if v := recover(); v != nil {
		goPanicked(v)
	}
}

// goPanicked hands v, the value of a panic that was ending a goroutine R
// or E started, to the executor, and blocks the goroutine for ever, as
// if the process had ended there. The caller is the deferred function
// that recovered v (recover works only there).
func goPanicked(v any) {
	goPanicHook(v)
	select {}
}
