package sanctions

import (
	"fmt"
	"sync"
	"testing"

	"github.com/complyd/complyd/internal/tenancy"
	"github.com/stretchr/testify/require"
)

func TestBand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		score float64
		want  string
	}{
		{0, ""}, {0.5, ""}, {0.7499, ""}, {0.75, BandReview}, {0.8, BandReview}, {0.8499, BandReview},
		{0.85, BandEscalate}, {0.9, BandEscalate}, {0.9499, BandEscalate}, {0.95, BandBlock}, {0.99, BandBlock}, {1, BandBlock},
	} {
		require.Equal(t, tc.want, Band(tc.score), "score %v", tc.score)
	}
}

func TestMatcher(t *testing.T) {
	t.Parallel()
	type testBundle struct{ m *Matcher }
	setup := func(t *testing.T) testBundle {
		t.Helper()
		m := NewMatcher()
		m.Replace(ListOFACSDN, []Entry{{ID: "ofac-sdn:1", SourceID: "1", List: ListOFACSDN, ListType: ListTypeSanctions, EntityType: EntityIndividual, Name: "Musa Danjuma KANO"}})
		m.Replace(ListUNSC, []Entry{{ID: "un-sc:2", SourceID: "2", List: ListUNSC, ListType: ListTypeSanctions, EntityType: EntityIndividual, Name: "Musa Danjuma Kano"}})
		return testBundle{m: m}
	}
	tenantA, tenantB := tenancy.TenantID("a"), tenancy.TenantID("b")

	t.Run("global and tenant, isolated", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		pep := Entry{ID: "w-1", SourceID: "REF-1", List: "Local PEPs", ListType: ListTypePEP, EntityType: EntityIndividual, Name: "Moussa Danjumma Kano"}
		tb.m.UpsertTenantEntry(tenantA, pep)
		ms := tb.m.Search(tenantA, Query{Name: "Musa Danjuma Kano"})
		require.Len(t, ms, 3)
		require.Equal(t, "ofac-sdn:1", ms[0].EntryID)
		require.Equal(t, "w-1", ms[2].EntryID)
		require.Equal(t, ListTypePEP, ms[2].ListType)
		require.Len(t, tb.m.Search(tenantB, Query{Name: "Musa Danjuma Kano"}), 2)
		require.Len(t, tb.m.Search("", Query{Name: "Musa Danjuma Kano"}), 2)

		tb.m.RemoveTenantEntry(tenantA, "w-1")
		require.Len(t, tb.m.Search(tenantA, Query{Name: "Musa Danjuma Kano"}), 2)
	})

	t.Run("replace and set", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.m.Replace(ListUNSC, nil)
		require.Equal(t, 1, tb.m.Global().Len())
		tb.m.SetTenantEntries(tenantA, []Entry{{ID: "w-9", List: "L", ListType: ListTypeInternal, Name: "Kano Musa"}})
		ms := tb.m.Search(tenantA, Query{Name: "Musa Kano", Limit: 1})
		require.Len(t, ms, 1)
		require.Equal(t, "w-9", ms[0].EntryID)
	})

	t.Run("concurrent", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for j := range 50 {
					tb.m.UpsertTenantEntry(tenantA, Entry{ID: fmt.Sprintf("w-%d-%d", i, j), List: "L", ListType: ListTypeInternal, Name: "Ngozi Okafor"})
				}
			}()
			go func() {
				defer wg.Done()
				for range 50 {
					_ = tb.m.Search(tenantA, Query{Name: "Ngozi Okafor"})
				}
			}()
		}
		wg.Wait()
		require.Len(t, tb.m.Search(tenantA, Query{Name: "Ngozi Okafor", Limit: 500}), MaxLimit)
	})
}
