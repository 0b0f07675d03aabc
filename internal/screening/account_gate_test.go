package screening

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/tenancy"
)

// TestAccountGate: one account's screenings take turns, other accounts and tenants do not wait,
// and a waiter whose context ends gives up with its error.
func TestAccountGate(t *testing.T) {
	var g accountGate
	ctx := context.Background()
	unlock, err := g.lock(ctx, "t1", "0123456789")
	require.NoError(t, err)
	for _, k := range [][2]string{{"t1", "0123456780"}, {"t2", "0123456789"}} {
		u, err := g.lock(ctx, tenancy.TenantID(k[0]), k[1])
		require.NoError(t, err, "%v must not wait", k)
		u()
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	_, err = g.lock(short, "t1", "0123456789")
	require.ErrorIs(t, err, context.DeadlineExceeded)

	got := make(chan struct{})
	go func() {
		u, err := g.lock(ctx, "t1", "0123456789")
		if err == nil {
			u()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("the second screening of the account did not wait for the first")
	case <-time.After(20 * time.Millisecond):
	}
	unlock()
	select {
	case <-got:
	case <-time.After(time.Second):
		t.Fatal("the waiting screening did not get its turn")
	}
	require.Empty(t, g.held)
}
