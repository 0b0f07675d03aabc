package postgres

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/tenancy"
)

// TestByTenantOrder: a coalesced batch splits into one group per tenant, tenants in order and
// each group's items by id, whatever order they were queued in, so that two writers lock
// overlapping rows in one order.
func TestByTenantOrder(t *testing.T) {
	type item struct {
		tenant tenancy.TenantID
		id     string
	}
	batch := []item{{"t2", "b"}, {"t1", "z"}, {"t2", "a"}, {"t1", "c"}, {"t3", "m"}, {"t1", "a"}}
	groups := byTenant(batch, func(v item) tenancy.TenantID { return v.tenant }, func(v item) string { return v.id })
	var got []string
	for _, g := range groups {
		for _, v := range g.items {
			require.Equal(t, g.tenant, v.tenant)
			got = append(got, string(g.tenant)+"/"+v.id)
		}
	}
	require.Equal(t, []string{"t1/a", "t1/c", "t1/z", "t2/a", "t2/b", "t3/m"}, got)
	require.Len(t, groups, 3)
}
