package door

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

func TestForegroundCountsScreeningsAndSearches(t *testing.T) {
	t.Parallel()
	type testBundle struct {
		fg      *Foreground
		handler http.Handler
		seen    *int
	}
	setup := func(t *testing.T) *testBundle {
		t.Helper()
		b := &testBundle{fg: &Foreground{}, seen: new(int)}
		b.handler = b.fg.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			*b.seen = b.fg.InFlight()
			require.Equal(t, *b.seen > 0, b.fg.Busy())
		}))
		return b
	}
	for _, tc := range []struct {
		method, path string
		counted      bool
	}{
		{"POST", ScreenPath, true},
		{"POST", "/api/v1/transactions/screen-batch", true},
		{"POST", "/api/v1/sanctions/search", true},
		{"POST", complydv1connect.TransactionServiceScreenTransactionProcedure, true},
		{"POST", complydv1connect.TransactionServiceScreenTransactionsProcedure, true},
		{"POST", complydv1connect.SanctionsServiceSearchProcedure, true},
		{"POST", complydv1connect.TransactionServiceScreenTransactionStreamProcedure, false},
		{"POST", "/api/v1/watchlists/w1/entries:import", false},
		{"GET", "/api/v1/sanctions/search", false},
	} {
		t.Run(tc.method+strings.ReplaceAll(tc.path, "/", "_"), func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			b.handler.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(tc.method, tc.path, strings.NewReader("{}")))
			if tc.counted {
				require.Equal(t, 1, *b.seen)
			} else {
				require.Zero(t, *b.seen)
			}
			require.False(t, b.fg.Busy(), "counted out when done")
		})
	}
}
