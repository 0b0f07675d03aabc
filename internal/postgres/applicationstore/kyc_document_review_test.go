package applicationstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/tenancy"
)

func addDoc(t *testing.T, st *applicationstore.KYCStore, tenantID tenancy.TenantID, appID string, dt document.DocumentType, status string) document.Document {
	t.Helper()
	d := document.Document{ID: document.NewID(), TenantID: tenantID, OwnerKind: document.OwnerKYC, ApplicationID: appID,
		DocumentType: dt, FileName: "f.png", StorageKey: "k", SizeBytes: 1, MimeType: document.MIMEPNG, SHA256: "00",
		UploadedAt: time.Now().UTC(), VerificationStatus: status}
	_, err := st.Update(context.Background(), tenantID, appID, func(a *kyc.Application) (kyc.Change, error) {
		return kyc.Change{Change: application.Change{AddDocument: &d, Audit: audit.Event{TenantID: tenantID, Actor: audit.System, Action: "kyc.document_uploaded",
			ResourceType: "kyc_application", ResourceID: appID}}}, nil
	})
	require.NoError(t, err)
	return d
}

// The applications below are APPROVED (the store does not apply the status rules; the domain
// does) so that TestKYCExpiryJob's sweep over every tenant of the shared database, which expires
// non-terminal applications, never counts them.

// TestKYCDocumentFactsCountOnlyVerified: the store's document facts (what the tier rules read)
// count an ID or a proof of address only when it is VERIFIED, for every type and status (a
// REJECTED document, which needs its reason, is covered by the API tests).
func TestKYCDocumentFactsCountOnlyVerified(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := pgtest.Fresh(t) // rows of fixed ids, or a database-wide state: a database of its own
	st := applicationstore.NewKYCStore(db)
	ten := pgtest.Tenant(ctx, t, db)
	statuses := []string{document.StatusPendingReview, document.StatusPendingSecondReview, document.StatusVerified}
	for _, dt := range document.Types() {
		for _, status := range statuses {
			id := fmt.Sprintf("kyc_facts_%s_%s", dt, status)
			insertApp(t, st, ten.ID, id, "", kyc.StatusApproved, time.Now().UTC())
			addDoc(t, st, ten.ID, id, dt, status)
			a, err := st.Get(ctx, ten.ID, id)
			require.NoError(t, err)
			verified := status == document.StatusVerified
			require.Equal(t, verified && dt.IsMeansOfIdentification(), a.HasIDDocument, "%s %s", dt, status)
			require.Equal(t, verified && dt.IsProofOfAddress(), a.HasProofOfAddress, "%s %s", dt, status)
		}
	}
}

// TestKYCStoreReviewDocument: ReviewDocument hands fn the locked document and the tenant's
// four-eyes setting, writes the review, and answers with facts that reflect it; a document of
// another application is NOT_FOUND.
func TestKYCStoreReviewDocument(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := pgtest.Fresh(t) // rows of fixed ids, or a database-wide state: a database of its own
	st := applicationstore.NewKYCStore(db)
	ten := pgtest.Tenant(ctx, t, db)
	insertApp(t, st, ten.ID, "kyc_review_a", "", kyc.StatusApproved, time.Now().UTC())
	insertApp(t, st, ten.ID, "kyc_review_b", "", kyc.StatusApproved, time.Now().UTC())
	d := addDoc(t, st, ten.ID, "kyc_review_a", document.TypeUtilityBill, document.StatusPendingReview)
	reviewer := pgtest.User(ctx, t, db, ten.ID, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer})
	ev := audit.Event{TenantID: ten.ID, Actor: audit.System, Action: "kyc.document_verified", ResourceType: "kyc_application"}

	review := func(appID string, wantFourEyes bool, status string) (kyc.Application, document.Document, error) {
		return st.ReviewDocument(ctx, ten.ID, appID, d.ID, func(a *kyc.Application, got *document.Document, fourEyes bool) (kyc.Change, error) {
			require.Equal(t, wantFourEyes, fourEyes)
			require.Equal(t, d.ID, got.ID)
			at := time.Now().UTC().Truncate(time.Microsecond)
			got.VerificationStatus, got.FirstReviewedBy, got.FirstReviewedAt = status, reviewer.ID, &at
			return kyc.Change{Change: application.Change{Audit: ev}}, nil
		})
	}
	_, _, err := review("kyc_review_b", false, document.StatusVerified)
	var ae *apperr.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, apperr.NotFound, ae.Code)

	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "update tenant_settings set document_review_four_eyes = true where tenant_id = $1", string(ten.ID))
		return err
	}))
	a, got, err := review("kyc_review_a", true, document.StatusPendingSecondReview)
	require.NoError(t, err)
	require.False(t, a.HasProofOfAddress, "not verified yet")
	require.Equal(t, document.StatusPendingSecondReview, got.VerificationStatus)
	stored, err := st.Document(ctx, ten.ID, "kyc_review_a", d.ID)
	require.NoError(t, err)
	require.Equal(t, document.StatusPendingSecondReview, stored.VerificationStatus)
	require.Equal(t, reviewer.ID, stored.FirstReviewedBy)
	require.NotNil(t, stored.FirstReviewedAt)

	a, _, err = review("kyc_review_a", true, document.StatusVerified)
	require.NoError(t, err)
	require.True(t, a.HasProofOfAddress, "the answer's facts reflect the review")
}
