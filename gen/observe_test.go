package gen

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// After nextSecond, the clock reads a later second than before it.
func TestNextSecond(t *testing.T) {
	before := time.Now().Unix()
	require.NoError(t, nextSecond(context.Background()))
	assert.Greater(t, time.Now().Unix(), before)
}

// A cancelled context ends the wait with its error.
func TestNextSecondCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, nextSecond(ctx), context.Canceled)
}
