//go:build !unix

package measure

import (
	"os"
	"time"
)

// usage reports CPU times only: the platform has no rusage.
func usage(ps *os.ProcessState) (maxRSS int64, user, sys time.Duration) {
	return 0, ps.UserTime(), ps.SystemTime()
}
