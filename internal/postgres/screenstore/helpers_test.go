package screenstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// insertApp creates a KYC application of tenantID in status (as in internal/postgres's KYC
// tests).
func insertApp(t *testing.T, st *applicationstore.KYCStore, tenantID tenancy.TenantID, id, bvn, status string, created time.Time) {
	t.Helper()
	a := kyc.Application{Base: application.Base{ID: id, TenantID: string(tenantID), Status: kyc.StatusPending, CreatedAt: created,
		UpdatedAt: created}, EntityType: kyc.EntityIndividual, FirstName: "A", LastName: "B", BVN: bvn, Tier: "TIER_1"}
	require.NoError(t, st.Create(context.Background(), a, audit.Event{TenantID: tenantID, Actor: audit.System, Action: "kyc.created", ResourceType: "kyc_application"}))
	if status != kyc.StatusPending {
		_, err := st.Update(context.Background(), tenantID, id, func(a *kyc.Application) (kyc.Change, error) {
			a.Status = status
			return kyc.Change{}, nil
		})
		require.NoError(t, err)
	}
}
