package idhttp_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/idhttp"
	"github.com/complyd/complyd/internal/outbound"
)

// TestProviderConfigRefusesInternalURLs: a provider configuration that points at a loopback,
// private, metadata or userinfo URL, or plain http, is refused when it is saved, not only when it
// is dialled (issue 12 finding 5).
func TestProviderConfigRefusesInternalURLs(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"https://127.0.0.1:8443", "https://localhost:8443", "https://10.0.0.1", "https://169.254.169.254",
		"https://[::1]:8443", "https://user:secret@vendor.example.com", "http://vendor.example.com",
	} {
		cfg := vendorConfig(u)
		cfg.AllowPrivate = false
		_, err := idhttp.New(cfg)
		require.Equal(t, apperr.Validation, apperr.CodeOf(err), u)
		e, _ := apperr.As(err)
		require.Equal(t, "byol.baseUrl", e.Details[0].Field, u)
	}
}

// TestProviderRefusesNamesResolvingInternally: a host name that passes the configuration check
// but resolves to a loopback address is refused at dial time, and no request reaches it.
func TestProviderRefusesNamesResolvingInternally(t *testing.T) {
	t.Parallel()
	host, err := os.Hostname()
	require.NoError(t, err)
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 || !ips[0].IsLoopback() {
		t.Skipf("the machine's host name %q does not resolve to a loopback address here", host)
	}
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	cfg := vendorConfig("https://" + host + ":" + u.Port())
	cfg.AllowPrivate = false
	p, err := idhttp.New(cfg)
	require.NoError(t, err)
	_, err = p.CheckBVN(context.Background(), identity.PersonCheck{Number: "22234567801", FirstName: "A", LastName: "B", DateOfBirth: "1990-01-01"})
	require.ErrorIs(t, err, outbound.ErrForbiddenAddress)
	require.ErrorIs(t, err, identity.ErrOutage)
	require.Zero(t, hits.Load())
}

// TestProviderRefusesCrossHostRedirect: a vendor that redirects to another host does not get the
// call followed, so the vendor's API key never reaches that host (issue 12 finding 5).
func TestProviderRefusesCrossHostRedirect(t *testing.T) {
	t.Parallel()
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("X-Api-Key"))
	}))
	t.Cleanup(other.Close)
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(vendor.Close)
	p, err := idhttp.New(vendorConfig(vendor.URL))
	require.NoError(t, err)
	_, err = p.CheckBVN(context.Background(), identity.PersonCheck{Number: "22234567801", FirstName: "A", LastName: "B", DateOfBirth: "1990-01-01"})
	require.Error(t, err)
	require.ErrorIs(t, err, identity.ErrOutage)
	require.Nil(t, leaked.Load(), "the redirect's target received the vendor's API key")
}
