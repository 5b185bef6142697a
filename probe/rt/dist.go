//go:build go1.21

package rt

import "math"

// Comparison operators passed by instrumented code. NegBit marks a
// comparison under an odd number of ! operators: the branching node's
// outcome is the negation of the comparison's value.
const (
	OpEQ uint8 = iota
	OpNE
	OpLT
	OpLE
	OpGT
	OpGE
	NegBit uint8 = 8
)

// distances returns the comparison's value and the branch distances to
// making it true and to making it false, for a numeric difference d = a-b
// with ordering relation rel (-1, 0, +1). The rules are the usual ones: for
// a==b the distance to true is |a-b|; strict relations add 1 (the smallest
// step) so that the distance is zero exactly when the relation holds.
func distances(op uint8, a, b float64) (v bool, dTrue, dFalse float64) {
	d := a - b
	switch op &^ NegBit {
	case OpEQ:
		v = a == b
		dTrue = math.Abs(d)
		if !v {
			dFalse = 0
		} else {
			dFalse = 1
		}
	case OpNE:
		v = a != b
		if v {
			dFalse = math.Abs(d)
		} else {
			dTrue = 1
		}
	case OpLT:
		v = a < b
		if v {
			dFalse = b - a
		} else {
			dTrue = d + 1
		}
	case OpLE:
		v = a <= b
		if v {
			dFalse = b - a + 1
		} else {
			dTrue = d
		}
	case OpGT:
		v = a > b
		if v {
			dFalse = d
		} else {
			dTrue = b - a + 1
		}
	case OpGE:
		v = a >= b
		if v {
			dFalse = d + 1
		} else {
			dTrue = b - a
		}
	}
	if math.IsNaN(dTrue) || math.IsInf(dTrue, 0) {
		dTrue = math.MaxFloat64
	}
	if math.IsNaN(dFalse) || math.IsInf(dFalse, 0) {
		dFalse = math.MaxFloat64
	}
	// A NaN operand makes every ordering false: the distance to true is
	// unknowable, say large; the distance to false is zero.
	if math.IsNaN(a) || math.IsNaN(b) {
		if v {
			dTrue, dFalse = 0, math.MaxFloat64
		} else {
			dTrue, dFalse = math.MaxFloat64, 0
		}
	}
	return v, dTrue, dFalse
}

// intDistances is distances for signed integers, computed without the
// rounding of large values through float64 deciding the outcome.
func intDistances(op uint8, a, b int64) (v bool, dTrue, dFalse float64) {
	switch op &^ NegBit {
	case OpEQ:
		v = a == b
	case OpNE:
		v = a != b
	case OpLT:
		v = a < b
	case OpLE:
		v = a <= b
	case OpGT:
		v = a > b
	case OpGE:
		v = a >= b
	}
	_, dTrue, dFalse = distances(op, float64(a), float64(b))
	return v, fix(v, dTrue), fixFalse(v, dFalse)
}

func uintDistances(op uint8, a, b uint64) (v bool, dTrue, dFalse float64) {
	switch op &^ NegBit {
	case OpEQ:
		v = a == b
	case OpNE:
		v = a != b
	case OpLT:
		v = a < b
	case OpLE:
		v = a <= b
	case OpGT:
		v = a > b
	case OpGE:
		v = a >= b
	}
	_, dTrue, dFalse = distances(op, float64(a), float64(b))
	return v, fix(v, dTrue), fixFalse(v, dFalse)
}

// fix keeps the invariant "distance to true is 0 iff the value is true"
// when float64 rounding of huge integers disagrees with the exact result.
func fix(v bool, dTrue float64) float64 {
	switch {
	case v:
		return 0
	case dTrue == 0:
		return 1
	}
	return dTrue
}

func fixFalse(v bool, dFalse float64) float64 {
	switch {
	case !v:
		return 0
	case dFalse == 0:
		return 1
	}
	return dFalse
}

// maxEdit bounds the strings edit distance is computed for; longer strings
// use the cheaper character difference.
const maxEdit = 64

// stringDistances compares strings. Equality uses the edit distance
// (Levenshtein) for strings up to maxEdit bytes and the character
// difference beyond; ordering uses the lexicographic distance: the
// difference of the first differing bytes, or of the lengths when one
// string is a prefix of the other.
func stringDistances(op uint8, a, b string) (v bool, dTrue, dFalse float64) {
	switch op &^ NegBit {
	case OpEQ, OpNE:
		eq := a == b
		var d float64
		if !eq {
			d = stringDiff(a, b)
		}
		if op&^NegBit == OpEQ {
			v = eq
			dTrue = d
			if eq {
				dFalse = 1
			}
		} else {
			v = !eq
			dFalse = d
			if eq {
				dTrue = 1
			}
		}
		return v, dTrue, dFalse
	}
	// Ordering: map to a numeric comparison of the first difference.
	x, y := lexKey(a, b)
	var cv bool
	switch op &^ NegBit {
	case OpLT:
		cv = a < b
	case OpLE:
		cv = a <= b
	case OpGT:
		cv = a > b
	case OpGE:
		cv = a >= b
	}
	_, dTrue, dFalse = distances(op, x, y)
	return cv, fix(cv, dTrue), fixFalse(cv, dFalse)
}

// lexKey returns two numbers ordered as a and b are: the first differing
// bytes, or the lengths when one is a prefix of the other.
func lexKey(a, b string) (float64, float64) {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return float64(a[i]), float64(b[i])
		}
	}
	return float64(len(a)), float64(len(b))
}

// stringDiff is the distance between two different strings: the edit
// distance when both are short, otherwise the number of differing byte
// positions plus the difference in length.
func stringDiff(a, b string) float64 {
	if len(a) <= maxEdit && len(b) <= maxEdit {
		return float64(editDistance(a, b))
	}
	n := min(len(a), len(b))
	d := max(len(a), len(b)) - n
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			d++
		}
	}
	return float64(d)
}

// editDistance is the Levenshtein distance over bytes.
func editDistance(a, b string) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	var buf [maxEdit + 1]int
	row := buf[:len(b)+1]
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cur := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return row[len(b)]
}
