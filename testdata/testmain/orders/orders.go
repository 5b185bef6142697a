// Package orders totals orders. Its tests need a database, which its
// TestMain finds in the environment: without one, no test runs.
package orders

import (
	"errors"

	"example.com/testmain/tax"
)

// Total is amount with the tax of region added.
func Total(amount int, region string) (int, error) {
	if amount < 0 {
		return 0, errors.New("negative amount")
	}
	rate := tax.Rate(region)
	if rate == 0 {
		return amount, nil
	}
	return amount + amount*rate/100, nil
}
