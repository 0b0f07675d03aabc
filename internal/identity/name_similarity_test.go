package identity_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity"
)

func TestNameSimilarity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		claimed, registry string
		min, max          float64
	}{
		{"Adebayo Ogunleye", "Adebayo Oluwaseun Ogunleye", 1, 1},
		{"Ogunleye Adebayo", "Adebayo Oluwaseun Ogunleye", 1, 1},
		{"Oluwaseun Ogunleye", "Adebayo Oluwaseun Ogunleye", 1, 1},
		{"ADEBAYO  ogunleye", "Adebayo Ogunleye", 1, 1},
		{"Adébáyọ̀ Ògúnléye", "Adebayo Ogunleye", 1, 1},
		{"Adebayo Ogunleyi", "Adebayo Ogunleye", 0.9, 0.99},
		{"Chiamaka Okafor", "Chiamaka Okafor-Obi", 0.8, 1},
		{"Chinedu Okafor", "Adebayo Ogunleye", 0, 0.6},
		{"Adebayo Okafor", "Adebayo Ogunleye", 0.7, 0.79},
		{"", "Adebayo Ogunleye", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.claimed+"~"+tc.registry, func(t *testing.T) {
			t.Parallel()
			got := identity.NameSimilarity(tc.claimed, tc.registry)
			require.GreaterOrEqual(t, got, tc.min)
			require.LessOrEqual(t, got, tc.max)
		})
	}
}

func TestJaroWinkler(t *testing.T) {
	t.Parallel()
	require.InDelta(t, 0.9611, identity.JaroWinkler("martha", "marhta"), 0.0001)
	require.InDelta(t, 0.8400, identity.JaroWinkler("dwayne", "duane"), 0.0001)
	require.InDelta(t, 0.8133, identity.JaroWinkler("dixon", "dicksonx"), 0.0001)
	require.Equal(t, 0.0, identity.JaroWinkler("abc", ""))
	require.Equal(t, 1.0, identity.JaroWinkler("", ""))
}

func TestComparePerson(t *testing.T) {
	t.Parallel()
	rec := identity.PersonRecord{FirstName: "Aisha", MiddleName: "Halima", LastName: "Bello", DateOfBirth: "1993-04-11"}
	tests := []struct {
		name      string
		req       identity.PersonCheck
		threshold float64
		match     bool
	}{
		{"match", identity.PersonCheck{FirstName: "Aisha", LastName: "Bello", DateOfBirth: "1993-04-11"}, 0, true},
		{"dob differs", identity.PersonCheck{FirstName: "Aisha", LastName: "Bello", DateOfBirth: "1993-04-12"}, 0, false},
		{"name differs", identity.PersonCheck{FirstName: "Hauwa", LastName: "Lawal", DateOfBirth: "1993-04-11"}, 0, false},
		{"typo under a strict threshold", identity.PersonCheck{FirstName: "Aisha", LastName: "Belo", DateOfBirth: "1993-04-11"}, 0.99, false},
		{"typo under the default", identity.PersonCheck{FirstName: "Aisha", LastName: "Belo", DateOfBirth: "1993-04-11"}, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, match := identity.ComparePerson(tc.req, rec, tc.threshold)
			require.Equal(t, tc.match, match)
		})
	}
}
