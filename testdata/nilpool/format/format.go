// Package format writes numbers through a pool of buffers it is given.
package format

import (
	"bytes"
	"strconv"
	"sync"
)

// Number formats n with a buffer from pool. A negative n needs none: it
// is written as "-". With a nil pool, any other n panics in
// sync.Pool.Get ("nil Pool").
func Number(pool *sync.Pool, n int) string {
	if n < 0 {
		return "-"
	}
	b, _ := pool.Get().(*bytes.Buffer)
	if b == nil {
		b = new(bytes.Buffer)
	}
	defer pool.Put(b)
	b.Reset()
	b.WriteString(strconv.Itoa(n))
	return b.String()
}
