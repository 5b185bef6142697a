package main

import (
	"math"
	"sort"
)

// The statistics of the benchmark: location (mean, median), spread
// (standard deviation), the Vargha-Delaney effect size Â12 and the
// two-sided Mann-Whitney U test.
// They take covered-branch counts (or any numbers); ties are exact
// comparisons of float64 values, which is exact for counts.

// mean returns the arithmetic mean of xs (NaN for no values).
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// median returns the median of xs (the mean of the two middle values for an
// even count; NaN for no values).
func median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// stddev returns the sample standard deviation of xs (n − 1 in the
// denominator; NaN for fewer than two values): the spread of a variant's
// results across seeds.
func stddev(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	m, ss := mean(xs), 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// a12 is the Vargha-Delaney effect size Â12 of x over y: the probability
// that a value drawn from x is larger than one drawn from y, ties counted
// half. 0.5 means no difference; 1 means every x beats every y.
func a12(x, y []float64) float64 {
	if len(x) == 0 || len(y) == 0 {
		return math.NaN()
	}
	return uStat(x, y) / float64(len(x)*len(y))
}

// a12Magnitude is Vargha and Delaney's verbal label of an Â12 value:
// negligible below 0.56 (or above 0.44), small, medium from 0.64, large
// from 0.71.
func a12Magnitude(a float64) string {
	d := math.Max(a, 1-a)
	switch {
	case math.IsNaN(a):
		return "n/a"
	case d < 0.56:
		return "negligible"
	case d < 0.64:
		return "small"
	case d < 0.71:
		return "medium"
	default:
		return "large"
	}
}

// uStat is the Mann-Whitney U statistic of x: the number of pairs (xi, yj)
// with xi > yj, plus half the number of ties. It equals R_x - n1(n1+1)/2
// with mid-ranks.
func uStat(x, y []float64) float64 {
	u := 0.0
	for _, a := range x {
		for _, b := range y {
			switch {
			case a > b:
				u++
			case a == b:
				u += 0.5
			}
		}
	}
	return u
}

// mwResult is the outcome of a two-sided Mann-Whitney U test.
type mwResult struct {
	// U is the statistic of the first sample (see uStat).
	U float64
	// P is the two-sided p-value.
	P float64
	// Exact is true when P comes from the exact permutation distribution,
	// false for the normal approximation.
	Exact bool
	// Ties is true when some value occurs more than once in the pooled
	// samples.
	Ties bool
}

// exactLimit is the largest pooled sample size tested exactly. The exact
// distribution is counted by dynamic programming in float64, which stays
// accurate far beyond benchmark sizes; larger samples use the normal
// approximation.
const exactLimit = 400

// mannWhitney runs the two-sided Mann-Whitney U test of x against y.
//
// For up to exactLimit pooled values the p-value is exact: the
// distribution of the mid-rank sum of x over all C(n1+n2, n1) equally
// likely assignments of the pooled mid-ranks to x (the permutation
// distribution given the observed ties; without ties this is the classical
// exact distribution of U), and p = min(1, 2·min(P(U ≤ u), P(U ≥ u))).
// Without ties this is what scipy.stats.mannwhitneyu(method="exact")
// computes; with ties scipy's exact method ignores them, while this test
// conditions on them, so it stays exact. Beyond exactLimit p comes from the
// normal approximation with tie and continuity correction.
func mannWhitney(x, y []float64) mwResult {
	n1, n2 := len(x), len(y)
	r := mwResult{U: uStat(x, y), P: math.NaN()}
	if n1 == 0 || n2 == 0 {
		return r
	}
	ranks2, ties := doubledMidRanks(append(append([]float64(nil), x...), y...))
	r.Ties = len(ties) > 0
	if n1+n2 <= exactLimit {
		r.Exact = true
		r.P = exactTwoSided(ranks2[:n1], ranks2[n1:])
		return r
	}
	r.P = normalTwoSided(r.U, n1, n2, ties)
	return r
}

// doubledMidRanks returns twice the mid-rank of every value (an integer,
// since mid-ranks are multiples of 1/2) and the sizes of the tie groups
// with more than one member.
func doubledMidRanks(v []float64) (ranks2 []int, ties []int) {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	ranks2 = make([]int, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		// positions i..j (0-based) share ranks i+1..j+1: mid-rank
		// (i+j+2)/2, doubled i+j+2.
		for k := i; k <= j; k++ {
			ranks2[idx[k]] = i + j + 2
		}
		if j > i {
			ties = append(ties, j-i+1)
		}
		i = j + 1
	}
	return ranks2, ties
}

// exactTwoSided is the exact two-sided p-value of the doubled rank sum of
// the first sample, counting the subsets of size len(a) of the pooled
// doubled ranks by their sum (the standard recursive count of the U
// distribution, generalised to tied ranks).
func exactTwoSided(a, b []int) float64 {
	pooled := append(append([]int(nil), a...), b...)
	n1 := len(a)
	total := 0
	for _, r := range pooled {
		total += r
	}
	// count[k][s]: subsets of size k of the items seen so far with
	// doubled rank sum s.
	count := make([][]float64, n1+1)
	for k := range count {
		count[k] = make([]float64, total+1)
	}
	count[0][0] = 1
	for _, r := range pooled {
		for k := n1; k >= 1; k-- {
			for s := total; s >= r; s-- {
				count[k][s] += count[k-1][s-r]
			}
		}
	}
	obs := 0
	for _, r := range a {
		obs += r
	}
	var le, ge, all float64
	for s, c := range count[n1] {
		all += c
		if s <= obs {
			le += c
		}
		if s >= obs {
			ge += c
		}
	}
	return math.Min(1, 2*math.Min(le, ge)/all)
}

// normalTwoSided is the two-sided p-value of U under the normal
// approximation, with the tie correction of the variance and a continuity
// correction of 1/2.
func normalTwoSided(u float64, n1, n2 int, ties []int) float64 {
	n := float64(n1 + n2)
	mu := float64(n1*n2) / 2
	t := 0.0
	for _, g := range ties {
		gf := float64(g)
		t += gf*gf*gf - gf
	}
	v := float64(n1*n2) / 12 * ((n + 1) - t/(n*(n-1)))
	if v <= 0 {
		return 1
	}
	d := math.Abs(u-mu) - 0.5
	if d < 0 {
		d = 0
	}
	z := d / math.Sqrt(v)
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}
