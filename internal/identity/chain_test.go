package identity_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/identity/identitytest"
)

func TestChain(t *testing.T) {
	t.Parallel()
	req := identity.PersonCheck{Number: "22234567801", FirstName: "Adebayo", LastName: "Ogunleye", DateOfBirth: "1985-03-14"}
	answer := func(name string, match bool) *identitytest.Provider {
		return &identitytest.Provider{NameValue: name, CheckBVNFunc: func(context.Context, identity.PersonCheck) (identity.PersonResult, error) {
			return identity.PersonResult{Found: true, IsMatch: match, Provider: name}, nil
		}}
	}
	fail := func(name string, err error) *identitytest.Provider {
		return &identitytest.Provider{NameValue: name, CheckBVNFunc: func(context.Context, identity.PersonCheck) (identity.PersonResult, error) {
			return identity.PersonResult{}, err
		}}
	}
	outage := fmt.Errorf("timeout: %w", identity.ErrOutage)

	tests := []struct {
		name      string
		providers []identity.Provider
		wantBy    string
		wantMatch bool
		wantCode  apperr.Code
		wantCalls int
	}{
		{"first answers", []identity.Provider{answer("a", true), answer("b", true)}, "a", true, "", 1},
		{"a mismatch stops the chain", []identity.Provider{answer("a", false), answer("b", true)}, "a", false, "", 1},
		{"outage falls back", []identity.Provider{fail("a", outage), answer("b", true)}, "b", true, "", 2},
		{"unsupported falls back", []identity.Provider{fail("a", identity.ErrUnsupported), answer("b", false)}, "b", false, "", 2},
		{"all out", []identity.Provider{fail("a", outage), fail("b", outage)}, "", false, apperr.ProviderUnavailable, 2},
		{"empty chain", nil, "", false, apperr.ProviderUnavailable, 0},
		{"a validation error stops the chain", []identity.Provider{fail("a", apperr.Invalid("bvn", "bad")), answer("b", true)}, "", false, apperr.Validation, 1},
		{"any other error stops the chain", []identity.Provider{fail("a", errors.New("boom")), answer("b", true)}, "", false, apperr.Internal, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			calls := 0
			var counted []identity.Provider
			for _, p := range tc.providers {
				fp := *p.(*identitytest.Provider)
				inner := fp.CheckBVNFunc
				fp.CheckBVNFunc = func(ctx context.Context, r identity.PersonCheck) (identity.PersonResult, error) {
					calls++
					return inner(ctx, r)
				}
				counted = append(counted, &fp)
			}
			res, err := identity.Chain{Verification: identity.VerifyBVN, Providers: counted}.CheckBVN(context.Background(), req)
			require.Equal(t, tc.wantCalls, calls)
			if tc.wantCode != "" {
				require.Equal(t, tc.wantCode, apperr.CodeOf(err))
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.wantBy, res.Provider)
			require.Equal(t, tc.wantMatch, res.IsMatch)
		})
	}
}

func TestChainUnavailableKeepsCauses(t *testing.T) {
	t.Parallel()
	p := &identitytest.Provider{NameValue: "own", LookupCACFunc: func(context.Context, identity.CompanyLookup) (identity.CompanyResult, error) {
		return identity.CompanyResult{}, fmt.Errorf("503: %w", identity.ErrOutage)
	}}
	_, err := identity.Chain{Verification: identity.VerifyCAC, Providers: []identity.Provider{p}}.LookupCAC(context.Background(), identity.CompanyLookup{RCNumber: "RC1"})
	e, ok := apperr.As(err)
	require.True(t, ok)
	require.Equal(t, apperr.ProviderUnavailable, e.Code)
	require.Equal(t, "CAC", e.Data["verification"])
	require.NotContains(t, e.Message, "503", "causes stay out of the caller's message")
	require.ErrorIs(t, err, identity.ErrOutage)
}

func TestChainValidatesBeforeAsking(t *testing.T) {
	t.Parallel()
	called := false
	p := &identitytest.Provider{CheckNINFunc: func(context.Context, identity.PersonCheck) (identity.PersonResult, error) {
		called = true
		return identity.PersonResult{}, nil
	}}
	_, err := identity.Chain{Verification: identity.VerifyNIN, Providers: []identity.Provider{p}}.CheckNIN(context.Background(),
		identity.PersonCheck{Number: "123", FirstName: "", LastName: "B", DateOfBirth: "1990-13-01"})
	e, ok := apperr.As(err)
	require.True(t, ok)
	require.Equal(t, apperr.Validation, e.Code)
	require.Equal(t, []apperr.FieldError{
		{Field: "nin", Message: "must be exactly 11 digits"},
		{Field: "firstName", Message: "is required"},
		{Field: "dateOfBirth", Message: "must be an ISO 8601 date (YYYY-MM-DD)"},
	}, e.Details)
	require.False(t, called)
}

func TestChainStopsOnCancelledContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := &identitytest.Provider{CheckBVNFunc: func(context.Context, identity.PersonCheck) (identity.PersonResult, error) {
		t.Fatal("provider asked after cancellation")
		return identity.PersonResult{}, nil
	}}
	_, err := identity.Chain{Verification: identity.VerifyBVN, Providers: []identity.Provider{p}}.CheckBVN(ctx,
		identity.PersonCheck{Number: "22234567801", FirstName: "A", LastName: "B", DateOfBirth: "1990-01-01"})
	require.Equal(t, apperr.ProviderUnavailable, apperr.CodeOf(err))
}
