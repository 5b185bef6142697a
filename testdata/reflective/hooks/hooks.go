// Package hooks runs the callbacks a notifier is configured with.
package hooks

import "errors"

// ErrFiltered is returned for a message the filter rejects.
var ErrFiltered = errors.New("hooks: filtered out")

// ErrBlank is returned when formatting leaves nothing to send.
var ErrBlank = errors.New("hooks: blank message")

// maxLen bounds a formatted message.
const maxLen = 32

// Format applies the filter and the formatter to a message of a level: a
// nil filter keeps every message, a nil formatter keeps the text.
func Format(filter func(level int) bool, format func(msg string) string, level int, msg string) (string, error) {
	if filter != nil && !filter(level) {
		return "", ErrFiltered
	}
	if format == nil {
		return msg, nil
	}
	out := format(msg)
	if out == "" {
		return "", ErrBlank
	}
	if len(out) > maxLen {
		return out[:maxLen], nil
	}
	return out, nil
}

// Report hands err to handle and says whether it was handled: a handler
// that returns false declines it.
func Report(handle func(err error) bool, err error) bool {
	if handle == nil {
		return false
	}
	if !handle(err) {
		return false
	}
	return true
}
