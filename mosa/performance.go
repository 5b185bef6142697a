package mosa

func init() {
	RegisterSecondary("performance", "performance proxies: the cheapest tests of a front survive (front 0 is cut by crowding distance); the archive keeps cheaper tests, and the minimiser makes integers small",
		func(Config) (Secondary, error) { return performanceSecondary{}, nil })
}

// PerformanceHeuristic orders a front by the performance heuristic ph
// (see performanceHeuristic).
var PerformanceHeuristic = Heuristic{Name: "performance", assign: performanceHeuristic}

// performanceSecondary always orders fronts by the performance
// heuristic, and keeps cheaper tests in the archive.
type performanceSecondary struct{}

func (performanceSecondary) ByPerformance() bool      { return true }
func (performanceSecondary) Next(int, bool) Heuristic { return PerformanceHeuristic }

// performanceHeuristic gives each individual of front f its performance
// heuristic
//
//	ph(t) = Σ_k (max_k − I_k(t)) / (max_k − min_k)
//
// over the seven proxies I_k (Proxies), with max_k and min_k the largest
// and smallest value of I_k in the front; a proxy on which the front does
// not differ adds 0.5. ph lies in [0, 7]: higher is cheaper. A test
// without a trace (timed out or crashed) gets 0, as if it were the
// dearest on every proxy.
func performanceHeuristic(f []*individual, _ int) {
	var lo, hi [7]float64
	first := true
	for _, ind := range f {
		if !ind.traced {
			continue
		}
		v := ind.proxies.vector()
		for k := range v {
			if first || v[k] < lo[k] {
				lo[k] = v[k]
			}
			if first || v[k] > hi[k] {
				hi[k] = v[k]
			}
		}
		first = false
	}
	for _, ind := range f {
		ind.crowding = 0
		if !ind.traced {
			continue
		}
		for k, x := range ind.proxies.vector() {
			if hi[k] == lo[k] {
				ind.crowding += 0.5
			} else {
				ind.crowding += (hi[k] - x) / (hi[k] - lo[k])
			}
		}
	}
}
