package orders_test

import (
	"fmt"
	"os"
	"testing"

	"example.com/testmain/orders"
)

// The tests of orders run against the database ORDERS_DSN names; without
// it the suite is skipped.
func TestMain(m *testing.M) {
	if os.Getenv("ORDERS_DSN") == "" {
		fmt.Println("ORDERS_DSN is not set: skipping the tests of orders")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestTotal(t *testing.T) {
	if got, err := orders.Total(100, "eu"); err != nil || got != 120 {
		t.Errorf("Total(100, eu) = %d, %v; want 120", got, err)
	}
}
