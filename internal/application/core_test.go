package application_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/application/applicationtest"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// core is application.Core's steps as the KYC and the KYB services offer them.
type core[A any] interface {
	List(ctx context.Context, tenantID tenancy.TenantID, f application.ListParams, p paging.Params) (paging.Result[A], error)
	SetAssignee(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, assigneeID string) (A, error)
	UploadDocument(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, u application.Upload) (document.View, error)
	Documents(ctx context.Context, tenantID tenancy.TenantID, id string) ([]document.View, error)
	Download(ctx context.Context, tenantID tenancy.TenantID, id, docID string) (document.View, error)
	DeleteDocument(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, docID string) error
	Approve(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, d application.Decision) (A, *evidence.Override, error)
	Reject(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, d application.Decision) (A, error)
}

// kind is one kind of application under test: its Kind, its service and how to make an
// application of it.
type kind[A any] struct {
	kind   application.Kind
	svc    core[A]
	create func(t *testing.T, tenantID tenancy.TenantID) string
}

type bundle struct {
	ctx    context.Context
	db     *postgres.DB
	tenant tenancy.TenantID
	other  tenancy.TenantID
	actor  audit.Actor
	kyc    kind[kyc.Application]
	kyb    kind[kyb.Application]
}

// setup wires the KYC and KYB services as internal/app does (applicationtest), on real
// PostgreSQL, with a tenant and another.
func setup(t *testing.T) bundle {
	t.Helper()
	ctx := context.Background()
	db := pgtest.DB(t)
	svcs := applicationtest.New(t, db, applicationtest.Options{})
	ks, bs := svcs.KYC, svcs.KYB
	ten, other := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	b := bundle{ctx: ctx, db: db, tenant: ten.ID, other: other.ID, actor: audit.Actor{ID: ten.AdminID, Type: audit.ActorUser}}
	b.kyc = kind[kyc.Application]{kind: kyc.Kind, svc: ks, create: func(t *testing.T, tenantID tenancy.TenantID) string {
		a, err := ks.Create(ctx, tenantID, b.actor, kyc.NewApplication{EntityType: kyc.EntityIndividual, FirstName: "Ada", LastName: "Obi"})
		require.NoError(t, err)
		return a.ID
	}}
	b.kyb = kind[kyb.Application]{kind: kyb.Kind, svc: bs, create: func(t *testing.T, tenantID tenancy.TenantID) string {
		a, err := bs.Create(ctx, tenantID, b.actor, kyb.NewApplication{CompanyName: "Acme Ltd"})
		require.NoError(t, err)
		// KYB keeps its notes when an approval gives none (application.Kind.ApprovedNotes "").
		_, err = bs.Update(ctx, tenantID, b.actor, a.ID, kyb.Patch{Notes: ptr("kept")})
		require.NoError(t, err)
		return a.ID
	}}
	return b
}

func ptr(s string) *string { return &s }

// actions are the audit actions recorded on resource id, oldest first.
func (b bundle) actions(t *testing.T, id string) []string {
	t.Helper()
	conn := pgtest.Admin(b.ctx, t)
	rows, err := conn.Query(b.ctx, `select action from audit_events where resource_id = $1 order by created_at, id`, id)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		require.NoError(t, rows.Scan(&a))
		out = append(out, a)
	}
	require.NoError(t, rows.Err())
	return out
}

func base[A any, P application.Record[A]](a A) application.Base { return *P(&a).Common() }

// TestCoreAssignment covers SetAssignee on both kinds: assigned and unassigned are audited
// under the kind's name; assigning the current assignee again writes nothing; another tenant's
// application is NOT_FOUND.
func TestCoreAssignment(t *testing.T) {
	t.Parallel()
	b := setup(t)
	t.Run("kyc", func(t *testing.T) { assignment(t, b, b.kyc) })
	t.Run("kyb", func(t *testing.T) { assignment(t, b, b.kyb) })
}

func assignment[A any, P application.Record[A]](t *testing.T, b bundle, k kind[A]) {
	id := k.create(t, b.tenant)
	who := uuid.NewString()
	a, err := k.svc.SetAssignee(b.ctx, b.tenant, b.actor, id, who)
	require.NoError(t, err)
	require.Equal(t, who, base[A, P](a).AssignedTo)
	_, err = k.svc.SetAssignee(b.ctx, b.tenant, b.actor, id, who)
	require.NoError(t, err)
	mine, err := k.svc.List(b.ctx, b.tenant, application.Queue("", "me", who), paging.Params{Page: 1, Limit: 20})
	require.NoError(t, err)
	require.Len(t, mine.Items, 1)
	a, err = k.svc.SetAssignee(b.ctx, b.tenant, b.actor, id, "")
	require.NoError(t, err)
	require.Empty(t, base[A, P](a).AssignedTo)
	acts := b.actions(t, id)
	require.Equal(t, []string{k.kind.Action("assigned"), k.kind.Action("unassigned")}, acts[len(acts)-2:], "the repeat is not audited")
	_, err = k.svc.SetAssignee(b.ctx, b.other, b.actor, id, who)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
}

var pdf = []byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")

// TestCoreDocuments covers upload, list, download and delete on both kinds: the first upload
// moves PENDING to DOCUMENT_UPLOADED, both steps are audited under the kind's name, another
// tenant sees NOT_FOUND, and a decided application takes no upload (409).
func TestCoreDocuments(t *testing.T) {
	t.Parallel()
	b := setup(t)
	t.Run("kyc", func(t *testing.T) { documents(t, b, b.kyc, b.kyc.svc.(*kyc.Service).Get) })
	t.Run("kyb", func(t *testing.T) { documents(t, b, b.kyb, b.kyb.svc.(*kyb.Service).Get) })
}

func documents[A any, P application.Record[A], D any](t *testing.T, b bundle, k kind[A],
	get func(context.Context, tenancy.TenantID, string) (D, error)) {
	id := k.create(t, b.tenant)
	_, err := k.svc.UploadDocument(b.ctx, b.tenant, b.actor, id, application.Upload{DocumentType: "NOPE", Body: bytes.NewReader(pdf)})
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	v, err := k.svc.UploadDocument(b.ctx, b.tenant, b.actor, id, application.Upload{DocumentType: string(document.TypePassport),
		FileName: "passport.pdf", Body: bytes.NewReader(pdf)})
	require.NoError(t, err)
	require.Equal(t, k.kind.Owner, v.OwnerKind)
	require.Equal(t, document.MIMEPDF, v.MimeType)
	require.NotEmpty(t, v.URL)
	require.Equal(t, document.StatusPendingReview, v.VerificationStatus, "both kinds answer the upload as stored")
	require.Equal(t, b.actor.ID, v.UploadedBy)
	_, err = get(b.ctx, b.tenant, id)
	require.NoError(t, err)
	docs, err := k.svc.Documents(b.ctx, b.tenant, id)
	require.NoError(t, err)
	require.Len(t, docs, 1)
	require.Equal(t, document.StatusPendingReview, docs[0].VerificationStatus, "stored for review whatever the upload answered")
	dl, err := k.svc.Download(b.ctx, b.tenant, id, v.ID)
	require.NoError(t, err)
	require.Equal(t, "passport.pdf", dl.FileName)
	_, err = k.svc.Documents(b.ctx, b.other, id)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
	_, err = k.svc.Download(b.ctx, b.other, id, v.ID)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
	require.Equal(t, apperr.NotFound, apperr.CodeOf(k.svc.DeleteDocument(b.ctx, b.other, b.actor, id, v.ID)))

	require.NoError(t, k.svc.DeleteDocument(b.ctx, b.tenant, b.actor, id, v.ID))
	docs, err = k.svc.Documents(b.ctx, b.tenant, id)
	require.NoError(t, err)
	require.Empty(t, docs)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(k.svc.DeleteDocument(b.ctx, b.tenant, b.actor, id, v.ID)))
	require.Subset(t, b.actions(t, id), []string{k.kind.Action("document_uploaded"), k.kind.Action("document_deleted")})

	a, err := k.svc.Reject(b.ctx, b.tenant, b.actor, id, application.Decision{Notes: "no"})
	require.NoError(t, err)
	require.Equal(t, application.StatusRejected, base[A, P](a).Status)
	_, err = k.svc.UploadDocument(b.ctx, b.tenant, b.actor, id, application.Upload{DocumentType: string(document.TypePassport),
		Body: bytes.NewReader(pdf)})
	require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err))
}

// TestCoreDecision covers approve and reject on both kinds: the defaults (LOW and HIGH risk,
// the kind's approval notes), the reason a rejection needs, the override an approval over open
// checks records, the refusal when the tenant requires the evidence, and that a decision is
// final (409).
func TestCoreDecision(t *testing.T) {
	t.Parallel()
	b := setup(t)
	t.Run("kyc", func(t *testing.T) { decision(t, b, b.kyc) })
	t.Run("kyb", func(t *testing.T) { decision(t, b, b.kyb) })
}

func decision[A any, P application.Record[A]](t *testing.T, b bundle, k kind[A]) {
	id := k.create(t, b.tenant)
	_, err := k.svc.Reject(b.ctx, b.tenant, b.actor, id, application.Decision{Notes: "  "})
	require.Equal(t, apperr.Validation, apperr.CodeOf(err), "a rejection needs a reason")
	_, _, err = k.svc.Approve(b.ctx, b.tenant, b.actor, id, application.Decision{RiskLevel: "EXTREME"})
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	_, _, err = k.svc.Approve(b.ctx, b.other, b.actor, id, application.Decision{})
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))

	// The tenant requires the evidence: nothing was verified, so the approval is refused.
	conn := pgtest.Admin(b.ctx, t)
	_, err = conn.Exec(b.ctx, `update tenant_settings set approval_evidence_required = true where tenant_id = $1`, string(b.tenant))
	require.NoError(t, err)
	_, _, err = k.svc.Approve(b.ctx, b.tenant, b.actor, id, application.Decision{})
	e, ok := apperr.As(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, apperr.InvalidStatusTransition, e.Code)
	require.NotEmpty(t, e.Data["openChecks"])
	_, err = conn.Exec(b.ctx, `update tenant_settings set approval_evidence_required = false where tenant_id = $1`, string(b.tenant))
	require.NoError(t, err)

	a, ov, err := k.svc.Approve(b.ctx, b.tenant, b.actor, id, application.Decision{})
	require.NoError(t, err)
	got := base[A, P](a)
	require.Equal(t, application.StatusApproved, got.Status)
	require.Equal(t, "LOW", got.RiskLevel)
	want := k.kind.ApprovedNotes
	if want == "" {
		want = "kept"
	}
	require.Equal(t, want, got.Notes)
	require.NotNil(t, ov, "approved over open checks: the override records them")
	require.NotEmpty(t, ov.Checks)
	require.NotEmpty(t, got.CustomerID, "an approval links a customer")

	_, err = k.svc.Reject(b.ctx, b.tenant, b.actor, id, application.Decision{Notes: "too late"})
	require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err), "a decision is final")

	id2 := k.create(t, b.tenant)
	a, err = k.svc.Reject(b.ctx, b.tenant, b.actor, id2, application.Decision{Notes: " fraud "})
	require.NoError(t, err)
	got = base[A, P](a)
	require.Equal(t, "HIGH", got.RiskLevel)
	require.Equal(t, "fraud", got.Notes)
	acts := b.actions(t, id)
	require.Equal(t, k.kind.Action("approved"), acts[len(acts)-1])
	acts = b.actions(t, id2)
	require.Equal(t, k.kind.Action("rejected"), acts[len(acts)-1])
}
