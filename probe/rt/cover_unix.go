//go:build go1.21 && unix

package rt

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// openCumulative maps a file of one byte per goal, in the directory named
// by CLING_COVER_DIR, into memory: covered goals are written straight into
// the page cache, so the record survives however the process ends (os.Exit,
// a crash, a test binary killed by a timeout).
func openCumulative(goals int) []byte {
	dir := os.Getenv("CLING_COVER_DIR")
	if dir == "" || goals == 0 {
		return nil
	}
	name := filepath.Join(dir, "cover-"+strconv.Itoa(os.Getpid()))
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil
	}
	defer f.Close()
	if err := f.Truncate(int64(goals)); err != nil {
		return nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, goals, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return b
}
