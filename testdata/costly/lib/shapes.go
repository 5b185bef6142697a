package lib

// Classify says what v is.
func Classify(v any) string {
	switch x := v.(type) {
	case int, int64:
		return "integer"
	case string:
		if x == "" {
			return "empty"
		}
		return "text"
	default:
		return "other"
	}
}

// Grade grades a score.
func Grade(score int, strict bool) string {
	grade := "F"
	switch {
	case score >= 90 && !strict:
		grade = "A"
	case score >= 50:
		grade = "C"
	default:
		grade = "F"
	}
	if strict {
		grade += "!"
	} else if score < 0 {
		return "?"
	}
	return grade
}

// Pick receives from whichever channel is ready.
func Pick(a, b chan int) int {
	select {
	case v := <-a:
		return v
	case v := <-b:
		return -v
	default:
		return 0
	}
}

// Pairs maps 0 to n-1 to pairs of themselves.
func Pairs(n int) map[int]*[2]int {
	m := map[int]*[2]int{}
	for i := 0; ; i++ {
		if i >= n {
			break
		}
		m[i] = &[2]int{i, i}
	}
	return m
}
