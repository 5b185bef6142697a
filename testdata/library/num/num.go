// Package num bounds the numbers the library counts.
package num

// Clamp returns x bounded to [lo, hi].
func Clamp(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// Fee is the late fee for days overdue: nothing within the grace days,
// then a fee per day, at most cap.
func Fee(days, grace, perDay, cap int) int {
	if days <= grace {
		return 0
	}
	fee := (days - grace) * perDay
	if fee > cap {
		return cap
	}
	return fee
}
