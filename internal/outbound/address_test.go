package outbound

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

func TestForbiddenAddr(t *testing.T) {
	t.Parallel()
	forbidden := []string{
		"127.0.0.1", "127.8.9.10", "::1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
		"100.64.0.1", "100.127.255.254", "169.254.169.254", "fe80::1", "fc00::1", "fd12:3456::1",
		"224.0.0.1", "ff02::1", "0.0.0.0", "::", "255.255.255.255", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
		"64:ff9b::a00:1", "198.18.0.1",
	}
	allowed := []string{"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "41.58.1.1"}
	for _, s := range forbidden {
		require.True(t, ForbiddenAddr(netip.MustParseAddr(s)), s)
	}
	for _, s := range allowed {
		require.False(t, ForbiddenAddr(netip.MustParseAddr(s)), s)
	}
	require.True(t, ForbiddenAddr(netip.Addr{}))
}

func TestValidateURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url          string
		allowPrivate bool
		wantMsg      string
	}{
		{"", false, ""},
		{"https://hooks.bank.example/complyd", false, ""},
		{"https://hooks.bank.example:8443/a?b=c", false, ""},
		{"https://8.8.8.8/x", false, ""},
		{"http://hooks.bank.example/x", false, "must use https"},
		{"http://127.0.0.1:9000/x", true, ""},
		{"http://localhost:9000/x", true, ""},
		{"ftp://hooks.bank.example/x", true, "must use https"},
		{"/relative", false, "must be an absolute URL"},
		{"hooks.bank.example/x", false, "must be an absolute URL"},
		{"https:opaque", false, "must be an absolute URL"},
		{"https://user:pw@hooks.bank.example/x", false, "must not contain user credentials"},
		{"https://user:pw@127.0.0.1/x", true, "must not contain user credentials"},
		{"https://hooks.bank.example/x#frag", false, "must not contain a fragment"},
		{"https://127.0.0.1/x", false, "must not point to a loopback or private address"},
		{"https://[::1]/x", false, "must not point to a loopback or private address"},
		{"https://10.0.0.5/x", false, "must not point to a loopback or private address"},
		{"https://169.254.169.254/latest", false, "must not point to a loopback or private address"},
		{"https://localhost/x", false, "must not point to a loopback or private address"},
		{"https://LOCALHOST./x", false, "must not point to a loopback or private address"},
		{"https://api.localhost/x", false, "must not point to a loopback or private address"},
		{"https://%zz/x", false, "is not a valid URL"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			err := ValidateURL("webhookUrl", tt.url, tt.allowPrivate)
			if tt.wantMsg == "" {
				require.NoError(t, err)
				return
			}
			e, ok := apperr.As(err)
			require.True(t, ok, "%v", err)
			require.Equal(t, apperr.Validation, e.Code)
			require.Equal(t, []apperr.FieldError{{Field: "webhookUrl", Message: tt.wantMsg}}, e.Details)
		})
	}
}
