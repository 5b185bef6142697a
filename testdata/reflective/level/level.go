// Package level names the severities of messages.
package level

import "strconv"

// Level is a severity, from Debug to Error.
type Level int

// The levels, least severe first.
const (
	Debug Level = iota
	Info
	Warn
	Error
)

var names = [...]string{"debug", "info", "warn", "error"}

// String names the level; a value outside Debug..Error is named by its
// number and the side it falls on.
func (l Level) String() string {
	if l < Debug {
		return "below(" + strconv.Itoa(int(l)) + ")"
	}
	if l > Error {
		return "above(" + strconv.Itoa(int(l)) + ")"
	}
	return names[l]
}

// Names are the names a program gives levels.
type Names map[Level]string

// Short are the one-letter names of the levels.
func Short() Names {
	return Names{Debug: "D", Info: "I", Warn: "W", Error: "E"}
}

// Parse reads a level's name.
func Parse(s string) (Level, bool) {
	for i, n := range names {
		if n == s {
			return Level(i), true
		}
	}
	return 0, false
}
