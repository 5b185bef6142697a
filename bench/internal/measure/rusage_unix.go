//go:build unix

package measure

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// usage reads the peak RSS (bytes) and CPU times from the rusage wait4
// returned for the process.
func usage(ps *os.ProcessState) (maxRSS int64, user, sys time.Duration) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, ps.UserTime(), ps.SystemTime()
	}
	maxRSS = int64(ru.Maxrss)
	if runtime.GOOS != "darwin" && runtime.GOOS != "ios" {
		maxRSS *= 1024 // kilobytes everywhere else
	}
	return maxRSS, ps.UserTime(), ps.SystemTime()
}
