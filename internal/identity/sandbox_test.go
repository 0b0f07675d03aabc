package identity_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/identity/identitytest"
)

func TestSandboxConformance(t *testing.T) {
	t.Parallel()
	identitytest.RunProviderSuite(t, func(t *testing.T, reg *identity.Registry) identity.Provider {
		return identity.NewSandbox(reg, nil)
	})
}

func TestDefaultRegistry(t *testing.T) {
	t.Parallel()
	reg := identity.DefaultRegistry()
	require.GreaterOrEqual(t, len(reg.BVN), 20)
	require.GreaterOrEqual(t, len(reg.NIN), 20)
	require.GreaterOrEqual(t, len(reg.CAC), 8)
	require.NotEmpty(t, reg.Outage)
	photos := 0
	for _, p := range reg.BVN {
		if p.PhotoBase64 != "" {
			photos++
			_, err := identity.DecodeImage("photoBase64", p.PhotoBase64)
			require.NoError(t, err)
		}
	}
	require.GreaterOrEqual(t, photos, 2)
}

func TestLoadRegistry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		json    string
		wantErr string
	}{
		{"minimal", `{"bvn":[{"bvn":"12345678901","firstName":"A","lastName":"B","dateOfBirth":"1990-01-01"}],"nin":[],"cac":[{"rcNumber":"RC 42","companyName":"X","address":"Y","registrationDate":"2020-01-01","directors":[],"beneficialOwners":[]}],"outage":["12345678902"]}`, ""},
		{"unknown key", `{"bvns":[]}`, "unknown field"},
		{"short bvn", `{"bvn":[{"bvn":"123","firstName":"A","lastName":"B","dateOfBirth":"1990-01-01"}]}`, "not 11 digits"},
		{"duplicate nin", `{"nin":[{"nin":"12345678901","firstName":"A","lastName":"B","dateOfBirth":"1990-01-01"},{"nin":"12345678901","firstName":"A","lastName":"B","dateOfBirth":"1990-01-01"}]}`, "duplicate nin"},
		{"bad date", `{"nin":[{"nin":"12345678901","firstName":"A","lastName":"B","dateOfBirth":"01/02/1990"}]}`, "not a date"},
		{"bad rc", `{"cac":[{"rcNumber":"BN-12","companyName":"X"}]}`, "not an RC number"},
		{"not json", `nope`, "decode identity registry"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg, err := identity.LoadRegistry(strings.NewReader(tc.json))
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			_, ok := reg.LookupCAC("42")
			require.True(t, ok)
			require.True(t, reg.IsOutage("12345678902"))
		})
	}
}
