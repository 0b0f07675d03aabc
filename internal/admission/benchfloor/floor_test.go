//go:build benchfloor

package benchfloor_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/admission/benchfloor"
	"github.com/complyd/complyd/internal/screening"
)

// TestFloorStore (go test -tags benchfloor): the floor build's store answers an empty
// history and stores nothing, without asking the real store; a caller that has gone gets
// its context's error.
func TestFloorStore(t *testing.T) {
	require.True(t, benchfloor.Enabled)
	s := benchfloor.Store(nil) // the real store is never asked for a read or a save
	ctx := context.Background()
	pre, err := s.Prefetch(ctx, &screening.Transaction{ExternalID: "x"}, true, admission.Budgeted)
	require.NoError(t, err)
	require.Equal(t, screening.Prefetch{}, pre)
	id, err := s.Save(ctx, &screening.Record{})
	require.NoError(t, err)
	require.Empty(t, id)

	gone, cancel := context.WithCancel(ctx)
	cancel()
	_, err = s.Prefetch(gone, &screening.Transaction{}, false, admission.Streamed)
	require.ErrorIs(t, err, context.Canceled)
}
