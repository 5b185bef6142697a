package calc

import (
	"errors"
	"fmt"
	"math"
)

// ErrDivisionByZero is returned when / or % has a zero divisor.
var ErrDivisionByZero = errors.New("division by zero")

// Vars are the values of the variables an expression may use.
type Vars map[string]float64

type node interface {
	eval(v Vars) (float64, error)
}

type (
	num      float64
	str      string
	variable string
	unary    struct {
		op string
		x  node
	}
	binary struct {
		op   string
		x, y node
	}
	cond struct{ c, a, b node }
	call struct {
		name string
		fn   builtin
		args []node
	}
)

// Eval parses and evaluates src.
func Eval(src string, v Vars) (float64, error) {
	e, err := Parse(src)
	if err != nil {
		return 0, err
	}
	return e.Eval(v)
}

// Eval evaluates the expression with the given variables.
func (e *Expr) Eval(v Vars) (float64, error) { return e.root.eval(v) }

func (n num) eval(Vars) (float64, error) { return float64(n), nil }

func (n str) eval(Vars) (float64, error) {
	return 0, fmt.Errorf("string %q used as a number", string(n))
}

func (n variable) eval(v Vars) (float64, error) {
	x, ok := v[string(n)]
	if !ok {
		return 0, fmt.Errorf("undefined variable %s", string(n))
	}
	return x, nil
}

func truth(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func (n *unary) eval(v Vars) (float64, error) {
	x, err := n.x.eval(v)
	if err != nil {
		return 0, err
	}
	if n.op == "!" {
		return truth(x == 0), nil
	}
	return -x, nil
}

func (n *binary) eval(v Vars) (float64, error) {
	x, err := n.x.eval(v)
	if err != nil {
		return 0, err
	}
	switch n.op {
	case "&&":
		if x == 0 {
			return 0, nil
		}
	case "||":
		if x != 0 {
			return 1, nil
		}
	}
	y, err := n.y.eval(v)
	if err != nil {
		return 0, err
	}
	switch n.op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/":
		if y == 0 {
			return 0, ErrDivisionByZero
		}
		return x / y, nil
	case "%":
		if y == 0 {
			return 0, ErrDivisionByZero
		}
		return math.Mod(x, y), nil
	case "**":
		return math.Pow(x, y), nil
	case "==":
		return truth(x == y), nil
	case "!=":
		return truth(x != y), nil
	case "<":
		return truth(x < y), nil
	case "<=":
		return truth(x <= y), nil
	case ">":
		return truth(x > y), nil
	case ">=":
		return truth(x >= y), nil
	case "&&", "||":
		return truth(y != 0), nil
	}
	return 0, fmt.Errorf("unknown operator %s", n.op)
}

func (n *cond) eval(v Vars) (float64, error) {
	c, err := n.c.eval(v)
	if err != nil {
		return 0, err
	}
	if c != 0 {
		return n.a.eval(v)
	}
	return n.b.eval(v)
}

func (n *call) eval(v Vars) (float64, error) {
	if n.fn.str != nil {
		s, ok := n.args[0].(str)
		if !ok {
			return 0, fmt.Errorf("%s wants a string", n.name)
		}
		return n.fn.str(string(s)), nil
	}
	var buf [4]float64
	args := buf[:0]
	for _, a := range n.args {
		x, err := a.eval(v)
		if err != nil {
			return 0, err
		}
		args = append(args, x)
	}
	return n.fn.num(args)
}

// builtin is a function callable from expressions: either numeric (num)
// or taking one string (str).
type builtin struct {
	min, max int // max < 0: variadic
	num      func([]float64) (float64, error)
	str      func(string) float64
}

var builtins map[string]builtin

func init() {
	builtins = map[string]builtin{
		"abs":   {min: 1, max: 1, num: func(a []float64) (float64, error) { return math.Abs(a[0]), nil }},
		"floor": {min: 1, max: 1, num: func(a []float64) (float64, error) { return math.Floor(a[0]), nil }},
		"sqrt": {min: 1, max: 1, num: func(a []float64) (float64, error) {
			if a[0] < 0 {
				return 0, fmt.Errorf("sqrt of negative number %g", a[0])
			}
			return math.Sqrt(a[0]), nil
		}},
		"min": {min: 1, max: -1, num: func(a []float64) (float64, error) {
			m := a[0]
			for _, x := range a[1:] {
				if x < m {
					m = x
				}
			}
			return m, nil
		}},
		"max": {min: 1, max: -1, num: func(a []float64) (float64, error) {
			m := a[0]
			for _, x := range a[1:] {
				if x > m {
					m = x
				}
			}
			return m, nil
		}},
		"clamp": {min: 3, max: 3, num: func(a []float64) (float64, error) {
			if a[1] > a[2] {
				return 0, fmt.Errorf("clamp: empty range [%g, %g]", a[1], a[2])
			}
			return math.Max(a[1], math.Min(a[0], a[2])), nil
		}},
		"len": {min: 1, max: 1, str: func(s string) float64 { return float64(len(s)) }},
	}
}
