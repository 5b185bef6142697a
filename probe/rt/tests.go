//go:build go1.21

package rt

// testStarted is called when a test function of the suite begins: the
// mutation baseline records it in its per-test coverage file.
func testStarted(name string) { mutTestEvent('T', name) }
