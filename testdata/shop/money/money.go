// Package money implements an exact monetary amount in minor units (cents)
// of a single currency.
package money

import (
	"errors"
	"fmt"
)

// Errors returned by this package. They are wrapped with details; test with
// errors.Is.
var (
	ErrUnknownCurrency  = errors.New("money: unknown currency")
	ErrNegative         = errors.New("money: negative amount")
	ErrCurrencyMismatch = errors.New("money: currency mismatch")
)

// minorUnits maps the supported currency codes to their number of decimal
// places.
var minorUnits = map[string]int{
	"EUR": 2,
	"USD": 2,
	"GBP": 2,
	"JPY": 0,
}

// Money is a non-negative amount in the smallest unit of its currency. The
// zero value has no currency; use New to obtain a valid amount.
type Money struct {
	cents    int64
	currency string
}

// New returns an amount of cents in currency. It rejects unsupported
// currencies and negative amounts.
func New(cents int64, currency string) (Money, error) {
	if _, ok := minorUnits[currency]; !ok {
		return Money{}, fmt.Errorf("%w: %q", ErrUnknownCurrency, currency)
	}
	if cents < 0 {
		return Money{}, fmt.Errorf("%w: %d", ErrNegative, cents)
	}
	return Money{cents: cents, currency: currency}, nil
}

// MustNew is like New but panics on error. It is meant for constants in
// tests and package-level variables.
func MustNew(cents int64, currency string) Money {
	m, err := New(cents, currency)
	if err != nil {
		panic(err)
	}
	return m
}

// Supported reports whether currency is a supported currency code.
func Supported(currency string) bool {
	_, ok := minorUnits[currency]
	return ok
}

// Cents returns the amount in minor units.
func (m Money) Cents() int64 { return m.cents }

// Currency returns the ISO currency code.
func (m Money) Currency() string { return m.currency }

// IsZero reports whether the amount is zero.
func (m Money) IsZero() bool { return m.cents == 0 }

// Add returns m+o. Both amounts must have the same currency.
func (m Money) Add(o Money) (Money, error) {
	if m.currency != o.currency {
		return Money{}, fmt.Errorf("%w: %s + %s", ErrCurrencyMismatch, m.currency, o.currency)
	}
	return Money{cents: m.cents + o.cents, currency: m.currency}, nil
}

// Sub returns m-o. Both amounts must have the same currency and the result
// must not be negative.
func (m Money) Sub(o Money) (Money, error) {
	if m.currency != o.currency {
		return Money{}, fmt.Errorf("%w: %s - %s", ErrCurrencyMismatch, m.currency, o.currency)
	}
	if o.cents > m.cents {
		return Money{}, fmt.Errorf("%w: %s - %s", ErrNegative, m, o)
	}
	return Money{cents: m.cents - o.cents, currency: m.currency}, nil
}

// Times returns m multiplied by n; non-positive n yields zero.
func (m Money) Times(n int) Money {
	if n <= 0 {
		return Money{currency: m.currency}
	}
	return Money{cents: m.cents * int64(n), currency: m.currency}
}

// MulPercent returns pct percent of m, rounded to the nearest cent with ties
// rounded to even (banker's rounding). Non-positive pct yields zero.
func (m Money) MulPercent(pct int) Money {
	if pct <= 0 || m.cents == 0 {
		return Money{currency: m.currency}
	}
	p := m.cents * int64(pct)
	q, r := p/100, p%100
	switch {
	case r > 50:
		q++
	case r == 50 && q%2 == 1:
		q++
	}
	return Money{cents: q, currency: m.currency}
}

// String formats m as "12.34 EUR", or "1234 JPY" for currencies without
// minor units.
func (m Money) String() string {
	if m.currency == "" {
		return "0"
	}
	if minorUnits[m.currency] == 0 {
		return fmt.Sprintf("%d %s", m.cents, m.currency)
	}
	return fmt.Sprintf("%d.%02d %s", m.cents/100, m.cents%100, m.currency)
}
