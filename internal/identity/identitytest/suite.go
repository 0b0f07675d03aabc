package identitytest

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity"
)

// NewProviderFunc builds the provider under test, answering from reg.
type NewProviderFunc func(t *testing.T, reg *identity.Registry) identity.Provider

// RunProviderSuite is the conformance suite of the Provider port: the embedded sandbox and the
// BYOL HTTP provider (serving the same registry) must both pass it. It uses the default sandbox
// registry and checks matches (exact, middle name, swapped order, accents, small typo),
// mismatches (name, date of birth), not-found answers, outages and CAC lookups.
func RunProviderSuite(t *testing.T, newProvider NewProviderFunc) {
	t.Helper()
	reg := identity.DefaultRegistry()
	ctx := context.Background()

	type testBundle struct{ p identity.Provider }
	setup := func(t *testing.T) testBundle {
		t.Helper()
		return testBundle{p: newProvider(t, reg)}
	}

	person := []struct {
		name        string
		req         identity.PersonCheck
		found       bool
		match       bool
		minConf     float64
		maxConf     float64
		wantHasPhot bool
	}{
		{"exact", identity.PersonCheck{Number: "22234567801", FirstName: "Adebayo", LastName: "Ogunleye", DateOfBirth: "1985-03-14"}, true, true, 0.99, 1, true},
		{"swapped order and case", identity.PersonCheck{Number: "22234567801", FirstName: "OGUNLEYE", LastName: "adebayo", DateOfBirth: "1985-03-14"}, true, true, 0.99, 1, true},
		{"middle name as first name", identity.PersonCheck{Number: "22234567802", FirstName: "Ngozi", LastName: "Okafor", DateOfBirth: "1990-07-22"}, true, true, 0.99, 1, true},
		{"small typo", identity.PersonCheck{Number: "22234567803", FirstName: "Ibrahim", LastName: "Abdulahi", DateOfBirth: "1978-11-05"}, true, true, 0.9, 0.999, false},
		{"date-time at midnight", identity.PersonCheck{Number: "22234567804", FirstName: "Funmilayo", LastName: "Adeyemi", DateOfBirth: "1995-01-30T00:00:00Z"}, true, true, 0.99, 1, false},
		{"wrong date of birth", identity.PersonCheck{Number: "22234567801", FirstName: "Adebayo", LastName: "Ogunleye", DateOfBirth: "1985-03-15"}, true, false, 0.99, 1, true},
		{"someone else's name", identity.PersonCheck{Number: "22234567801", FirstName: "Chiamaka", LastName: "Nwosu", DateOfBirth: "1985-03-14"}, true, false, 0, 0.79, true},
		{"unknown number", identity.PersonCheck{Number: "22200000000", FirstName: "Adebayo", LastName: "Ogunleye", DateOfBirth: "1985-03-14"}, false, false, 0, 0, false},
	}
	for _, tc := range person {
		t.Run("BVN/"+tc.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			res, err := b.p.CheckBVN(ctx, tc.req)
			require.NoError(t, err)
			require.Equal(t, tc.found, res.Found)
			require.Equal(t, tc.match, res.IsMatch)
			require.GreaterOrEqual(t, res.Confidence, tc.minConf)
			require.LessOrEqual(t, res.Confidence, tc.maxConf)
			require.Equal(t, b.p.Name(), res.Provider)
			require.Equal(t, b.p.Source(), res.ProviderSource)
			if tc.found {
				require.NotNil(t, res.Record)
				want, _ := reg.LookupBVN(tc.req.Number)
				require.Equal(t, want.LastName, res.Record.LastName)
				require.Equal(t, want.DateOfBirth, res.Record.DateOfBirth)
				require.Equal(t, want.Phone, res.Record.Phone)
				require.Equal(t, tc.wantHasPhot, res.Record.HasPhoto)
			}
		})
	}

	t.Run("NIN/match", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		res, err := b.p.CheckNIN(ctx, identity.PersonCheck{Number: "70123456785", FirstName: "Emeka", LastName: "Nwosu", DateOfBirth: "1982-09-18"})
		require.NoError(t, err)
		require.True(t, res.Found)
		require.True(t, res.IsMatch)
		require.Equal(t, "Chukwudi", res.Record.MiddleName)
	})
	t.Run("NIN/a BVN is not a NIN", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		res, err := b.p.CheckNIN(ctx, identity.PersonCheck{Number: "22234567805", FirstName: "Emeka", LastName: "Nwosu", DateOfBirth: "1982-09-18"})
		require.NoError(t, err)
		require.False(t, res.Found)
		require.False(t, res.IsMatch)
	})
	for _, tc := range []struct {
		name string
		call func(p identity.Provider) error
	}{
		{"BVN", func(p identity.Provider) error {
			_, err := p.CheckBVN(ctx, identity.PersonCheck{Number: "22299999999", FirstName: "A", LastName: "B", DateOfBirth: "1990-01-01"})
			return err
		}},
		{"NIN", func(p identity.Provider) error {
			_, err := p.CheckNIN(ctx, identity.PersonCheck{Number: "70099999999", FirstName: "A", LastName: "B", DateOfBirth: "1990-01-01"})
			return err
		}},
		{"CAC", func(p identity.Provider) error {
			_, err := p.LookupCAC(ctx, identity.CompanyLookup{RCNumber: "RC9999999"})
			return err
		}},
	} {
		t.Run("outage/"+tc.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			err := tc.call(b.p)
			require.Error(t, err)
			require.True(t, errors.Is(err, identity.ErrOutage), "want ErrOutage, got %v", err)
		})
	}

	t.Run("CAC/found", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		if !b.p.Supports(identity.VerifyCAC) {
			t.Skip("provider does not support CAC")
		}
		res, err := b.p.LookupCAC(ctx, identity.CompanyLookup{RCNumber: "RC2345678"})
		require.NoError(t, err)
		require.True(t, res.Found)
		require.NotNil(t, res.Company)
		require.Equal(t, "Eastgate Logistics Nigeria Limited", res.Company.CompanyName)
		require.Equal(t, "2019-11-04", res.Company.RegistrationDate)
		require.Len(t, res.Company.Directors, 3)
		require.Equal(t, identity.Director{Name: "Jean-Paul Mensah", Nationality: "Ghanaian", AppointmentDate: "2021-05-20"}, res.Company.Directors[2])
		require.Equal(t, []identity.BeneficialOwner{{Name: "Emeka Chukwudi Nwosu", Percentage: 50}, {Name: "Kelechi Uchenna Ibe", Percentage: 30}, {Name: "Jean-Paul Mensah", Percentage: 20}}, res.Company.BeneficialOwners)
		require.Equal(t, b.p.Name(), res.Provider)
	})
	t.Run("CAC/without RC prefix", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		res, err := b.p.LookupCAC(ctx, identity.CompanyLookup{RCNumber: "1234567"})
		require.NoError(t, err)
		require.True(t, res.Found)
		require.Equal(t, "Lagos Fresh Foods Limited", res.Company.CompanyName)
	})
	t.Run("CAC/not found", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		res, err := b.p.LookupCAC(ctx, identity.CompanyLookup{RCNumber: "RC1111111"})
		require.NoError(t, err)
		require.False(t, res.Found)
		require.Nil(t, res.Company)
	})
}
