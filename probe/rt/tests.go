//go:build go1.21

package rt

// testStarted is called when a test function of the suite begins.
func testStarted(name string) {}
