package main

import (
	"math"
	"math/rand"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestMeanMedian(t *testing.T) {
	cases := []struct {
		xs           []float64
		mean, median float64
	}{
		{[]float64{3, 1, 2}, 2, 2},
		{[]float64{4, 1, 3, 2}, 2.5, 2.5},
		{[]float64{10, 0, 0, 0, 5}, 3, 0},
		{[]float64{7}, 7, 7},
	}
	for _, c := range cases {
		if got := mean(c.xs); got != c.mean {
			t.Errorf("mean(%v) = %v, want %v", c.xs, got, c.mean)
		}
		if got := median(c.xs); got != c.median {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.median)
		}
	}
	if !math.IsNaN(mean(nil)) || !math.IsNaN(median(nil)) {
		t.Error("mean and median of no values should be NaN")
	}
	xs := []float64{3, 1, 2}
	median(xs)
	if xs[0] != 3 || xs[1] != 1 {
		t.Error("median reordered its argument")
	}
}

func TestStddev(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, math.Sqrt(32.0 / 7)},
		{[]float64{5, 5, 5}, 0},
		{[]float64{1, 3}, math.Sqrt2},
	} {
		if got := stddev(c.xs); !near(got, c.want, 1e-12) {
			t.Errorf("stddev(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
	if !math.IsNaN(stddev([]float64{1})) {
		t.Error("stddev of one value should be NaN")
	}
}

func TestA12(t *testing.T) {
	lo := []float64{1, 2, 3, 4, 5}
	hi := []float64{6, 7, 8, 9, 10}
	cases := []struct {
		x, y []float64
		want float64
	}{
		{lo, hi, 0},
		{hi, lo, 1},
		{[]float64{1, 1}, []float64{1, 1}, 0.5},
		// 2 wins, 1 tie, 1 loss of 4 comparisons: (2 + 0.5) / 4.
		{[]float64{2, 3}, []float64{1, 3}, 0.625},
		// x={0,0,1}, y={1,1}: no wins, two ties (1 vs 1): 1/6.
		{[]float64{0, 0, 1}, []float64{1, 1}, 1.0 / 6},
	}
	for _, c := range cases {
		if got := a12(c.x, c.y); !near(got, c.want, 1e-12) {
			t.Errorf("a12(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
		// Â12(x, y) + Â12(y, x) = 1.
		if got := a12(c.x, c.y) + a12(c.y, c.x); !near(got, 1, 1e-12) {
			t.Errorf("a12(x,y)+a12(y,x) = %v for %v, %v", got, c.x, c.y)
		}
	}
	for a, want := range map[float64]string{0.5: "negligible", 0.55: "negligible", 0.6: "small", 0.3: "medium", 0.7: "medium", 0.71: "large", 0: "large", 1: "large"} {
		if got := a12Magnitude(a); got != want {
			t.Errorf("a12Magnitude(%v) = %q, want %q", a, got, want)
		}
	}
}

func TestMannWhitneyKnownValues(t *testing.T) {
	cases := []struct {
		name  string
		x, y  []float64
		u, p  float64
		exact bool
		ties  bool
	}{
		// scipy.stats.mannwhitneyu([1..5], [6..10]): U=0, p=2/252.
		{"separated", []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 0, 2.0 / 252, true, false},
		{"separated reversed", []float64{6, 7, 8, 9, 10}, []float64{1, 2, 3, 4, 5}, 25, 2.0 / 252, true, false},
		// n1=n2=5: P(U<=2) = (1+1+2)/252, the two-sided 5% critical
		// value of the tables; P(U<=3) = 7/252 is not significant.
		{"U=2", []float64{1, 2, 3, 4, 7}, []float64{5, 6, 8, 9, 10}, 2, 8.0 / 252, true, false},
		{"U=3", []float64{1, 2, 3, 5, 7}, []float64{4, 6, 8, 9, 10}, 3, 14.0 / 252, true, false},
		// The middle of the distribution: p = 1.
		{"U=12, the middle", []float64{1, 4, 5, 8, 9}, []float64{2, 3, 6, 7, 10}, 12, 1, true, false},
		{"all equal", []float64{3, 3, 3}, []float64{3, 3, 3}, 4.5, 1, true, true},
		// Worked by hand: pooled mid-ranks 1.5,1.5,4,4,4; x has 1.5,1.5,4
		// (sum 7); of the C(5,3)=10 subsets 3 have sum 7, 6 have 9.5, 1
		// has 12: p = 2·3/10.
		{"ties by hand", []float64{0, 0, 1}, []float64{1, 1}, 1, 0.6, true, true},
	}
	for _, c := range cases {
		r := mannWhitney(c.x, c.y)
		if r.U != c.u || !near(r.P, c.p, 1e-12) || r.Exact != c.exact || r.Ties != c.ties {
			t.Errorf("%s: mannWhitney = %+v, want U=%v p=%v exact=%v ties=%v", c.name, r, c.u, c.p, c.exact, c.ties)
		}
	}
}

func TestMannWhitneyNormal(t *testing.T) {
	// scipy.stats.mannwhitneyu([1..5], [6..10], method="asymptotic"):
	// z = (12.5 - 0.5) / sqrt(25·11/12), p = 0.012185.
	p := normalTwoSided(0, 5, 5, nil)
	if !near(p, 0.012185, 5e-6) {
		t.Errorf("normal p = %v, want 0.012185", p)
	}
	// All values tied: zero variance, p = 1.
	if p := normalTwoSided(4.5, 3, 3, []int{6}); p != 1 {
		t.Errorf("normal p with all ties = %v, want 1", p)
	}
	// Large samples: exact and normal agree closely.
	rng := rand.New(rand.NewSource(3))
	x := make([]float64, 60)
	y := make([]float64, 60)
	for i := range x {
		x[i] = float64(rng.Intn(30))
		y[i] = float64(rng.Intn(30) + 3)
	}
	r := mannWhitney(x, y)
	ranks2, ties := doubledMidRanks(append(append([]float64(nil), x...), y...))
	_ = ranks2
	pn := normalTwoSided(r.U, len(x), len(y), ties)
	if !r.Exact || !near(r.P, pn, 0.01) {
		t.Errorf("exact p %v and normal p %v differ (U=%v)", r.P, pn, r.U)
	}
	// Beyond the exact limit the normal approximation is used.
	big := make([]float64, exactLimit)
	for i := range big {
		big[i] = float64(i % 17)
	}
	if r := mannWhitney(big[:exactLimit/2+1], big[exactLimit/2:]); r.Exact {
		t.Errorf("pooled size %d > %d should use the normal approximation", exactLimit+1, exactLimit)
	}
}

// bruteForceP enumerates every split of the pooled values into groups of
// len(x) and len(y) and computes U of each directly (no ranks).
func bruteForceP(x, y []float64) float64 {
	pooled := append(append([]float64(nil), x...), y...)
	n, n1 := len(pooled), len(x)
	u0 := uStat(x, y)
	var le, ge, all float64
	for mask := 0; mask < 1<<n; mask++ {
		var a, b []float64
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				a = append(a, pooled[i])
			} else {
				b = append(b, pooled[i])
			}
		}
		if len(a) != n1 {
			continue
		}
		u := uStat(a, b)
		all++
		if u <= u0 {
			le++
		}
		if u >= u0 {
			ge++
		}
	}
	return math.Min(1, 2*math.Min(le, ge)/all)
}

func TestMannWhitneyAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		n1, n2 := 1+rng.Intn(6), 1+rng.Intn(6)
		k := 2 + rng.Intn(8) // few distinct values: many ties
		x := make([]float64, n1)
		y := make([]float64, n2)
		for j := range x {
			x[j] = float64(rng.Intn(k))
		}
		for j := range y {
			y[j] = float64(rng.Intn(k))
		}
		r := mannWhitney(x, y)
		if want := bruteForceP(x, y); !near(r.P, want, 1e-12) {
			t.Fatalf("mannWhitney(%v, %v).P = %v, enumeration gives %v", x, y, r.P, want)
		}
		if want := a12(x, y) * float64(n1*n2); !near(r.U, want, 1e-9) {
			t.Fatalf("U = %v, Â12·n1·n2 = %v", r.U, want)
		}
	}
}

func TestDoubledMidRanks(t *testing.T) {
	r, ties := doubledMidRanks([]float64{10, 20, 10, 30, 20, 20})
	// sorted: 10,10 (ranks 1,2 -> 1.5), 20,20,20 (3,4,5 -> 4), 30 (6).
	want := []int{3, 8, 3, 12, 8, 8}
	for i := range want {
		if r[i] != want[i] {
			t.Fatalf("doubled mid-ranks = %v, want %v", r, want)
		}
	}
	if len(ties) != 2 || ties[0] != 2 || ties[1] != 3 {
		t.Errorf("tie groups = %v, want [2 3]", ties)
	}
}
