// Package units parses quantities written with a unit.
package units

import (
	"errors"
	"strconv"
	"strings"
)

// Duration is a number of milliseconds.
type Duration int64

// Size is a number of bytes.
type Size int64

// ErrNoUnit is returned for a number without a unit.
var ErrNoUnit = errors.New("units: missing unit")

// ParseDuration reads "250ms", "3s" or "2m".
func ParseDuration(s string) (Duration, error) {
	n, unit, err := split(s)
	if err != nil {
		return 0, err
	}
	switch unit {
	case "ms":
		return Duration(n), nil
	case "s":
		return Duration(n * 1000), nil
	case "m":
		return Duration(n * 60000), nil
	}
	return 0, errors.New("units: unknown duration unit " + strconv.Quote(unit))
}

// ParseSize reads "512B", "4K" or "2M".
func ParseSize(s string) (Size, error) {
	n, unit, err := split(s)
	if err != nil {
		return 0, err
	}
	switch strings.ToUpper(unit) {
	case "B":
		return Size(n), nil
	case "K":
		return Size(n << 10), nil
	case "M":
		return Size(n << 20), nil
	}
	return 0, errors.New("units: unknown size unit " + strconv.Quote(unit))
}

func split(s string) (int64, string, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, "", errors.New("units: no number in " + strconv.Quote(s))
	}
	if i == len(s) {
		return 0, "", ErrNoUnit
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	return n, s[i:], err
}
