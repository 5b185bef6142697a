package harness

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cache keeps the most recently used executors and those used lately.
func TestPruneCache(t *testing.T) {
	cache := t.TempDir()
	now := time.Now()
	ages := map[string]time.Duration{
		"new":    time.Minute,
		"recent": 2 * time.Hour,
		"old":    48 * time.Hour,
		"older":  72 * time.Hour,
		"oldest": 96 * time.Hour,
	}
	for name, age := range ages {
		bin := filepath.Join(cache, name, "executor")
		require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
		require.NoError(t, os.WriteFile(bin, []byte("x"), 0o755))
		require.NoError(t, os.Chtimes(bin, now.Add(-age), now.Add(-age)))
	}
	require.NoError(t, os.WriteFile(filepath.Join(cache, "stray"), nil, 0o644))
	pruneCache(cache, 1, 24*time.Hour)
	var left []string
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	assert.ElementsMatch(t, []string{"new", "recent", "stray"}, left)

	pruneCache(cache, 0, time.Hour)
	entries, err = os.ReadDir(cache)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "new (used a minute ago) and stray stay")
}
