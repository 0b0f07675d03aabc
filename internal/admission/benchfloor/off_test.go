//go:build !benchfloor

package benchfloor_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission/benchfloor"
	"github.com/complyd/complyd/internal/screening"
)

type store struct{ screening.Store }

// TestNotFloor: without the tag (every binary that serves a bank) the store is the real one.
func TestNotFloor(t *testing.T) {
	require.False(t, benchfloor.Enabled)
	st := &store{}
	require.Same(t, st, benchfloor.Store(st).(*store))
}
