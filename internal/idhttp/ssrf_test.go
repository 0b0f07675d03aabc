package idhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/idhttp"
)

func TestProviderRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	t.Cleanup(func() {
		require.Zero(t, hits.Load(), "no request reached the server")
		srv.Close()
	})
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)

	tests := []struct{ name, baseURL string }{
		{"loopback literal", srv.URL},
		{"localhost resolves to loopback", "https://localhost:" + u.Port()},
		{"private", "https://10.0.0.1:" + u.Port()},
		{"link-local metadata", "https://169.254.169.254"},
		{"ipv6 loopback", "https://[::1]:" + u.Port()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := vendorConfig(tc.baseURL)
			cfg.AllowPrivate = false
			p, err := idhttp.New(cfg)
			require.NoError(t, err)
			_, err = p.CheckBVN(context.Background(), identity.PersonCheck{Number: "22234567801", FirstName: "A", LastName: "B", DateOfBirth: "1990-01-01"})
			require.ErrorIs(t, err, idhttp.ErrBlockedAddress)
			require.ErrorIs(t, err, identity.ErrOutage)
		})
	}
}
