package postgres_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// rawKYC is a kyc_applications row as stored.
type rawKYC struct {
	BVN, NIN             string
	BVNSealed, NINSealed []byte
	BVNHash, NINHash     []byte
	Text                 string // the whole row as JSON text
}

func readRawKYC(ctx context.Context, t *testing.T, conn *pgx.Conn, id string) rawKYC {
	t.Helper()
	var r rawKYC
	require.NoError(t, conn.QueryRow(ctx, `select bvn, nin, bvn_sealed, nin_sealed, bvn_hash, nin_hash, to_jsonb(a)::text
		from kyc_applications a where id = $1`, id).Scan(&r.BVN, &r.NIN, &r.BVNSealed, &r.NINSealed, &r.BVNHash, &r.NINHash, &r.Text))
	return r
}

func adminConn(ctx context.Context, t *testing.T, url string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

// TestKYCIdentifiersSealedAtRest writes applications through the store: the row keeps BVN and
// NIN only sealed and hashed, reads give the numbers back, an edit re-hashes, screening's
// stored-KYC lookup finds the application by the new BVN (and not by the old one, nor in another
// tenant), and a sealed value copied onto another row does not open there.
func TestKYCIdentifiersSealedAtRest(t *testing.T) {
	t.Parallel()
	ctx, db, sst := newScreeningStore(t, screenstore.ScreeningStoreOptions{})
	st := applicationstore.NewKYCStore(db)
	conn := adminConn(ctx, t, pgtest.URL(t))
	a, b := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	now := time.Now().UTC().Truncate(time.Microsecond)
	app := kyc.Application{Base: application.Base{ID: "kyc_pii_" + uuid.NewString()[:8], TenantID: string(a.ID),
		Status: kyc.StatusApproved, CreatedAt: now, UpdatedAt: now}, EntityType: kyc.EntityIndividual,
		FirstName: "Ada", LastName: "Obi", BVN: "22245678901", NIN: "70145678902", Tier: "TIER_2"}
	require.NoError(t, st.Create(ctx, app, kycCreatedEvent(a.ID)))

	r := readRawKYC(ctx, t, conn, app.ID)
	require.Empty(t, r.BVN)
	require.Empty(t, r.NIN)
	require.NotEmpty(t, r.BVNSealed)
	require.NotEmpty(t, r.NINSealed)
	require.Len(t, r.BVNHash, 32)
	require.Len(t, r.NINHash, 32)
	require.NotContains(t, r.Text, app.BVN)
	require.NotContains(t, r.Text, app.NIN)

	got, err := st.Get(ctx, a.ID, app.ID)
	require.NoError(t, err)
	require.Equal(t, app.BVN, got.BVN)
	require.Equal(t, app.NIN, got.NIN)

	found := func(tenant tenancy.TenantID, bvn string) string {
		t.Helper()
		p, err := sst.Prefetch(ctx, &screening.Transaction{TenantID: tenant, ExternalID: "pii-" + uuid.NewString(),
			SenderAccountNumber: "3999999999", SenderBVN: bvn, Timestamp: now}, true, admission.PaceOf(ctx))
		require.NoError(t, err)
		return p.KYC.ExternalRef
	}
	require.Equal(t, app.ID, found(a.ID, app.BVN))
	require.Empty(t, found(b.ID, app.BVN), "another tenant's application is not found")
	require.Empty(t, found(a.ID, app.NIN), "a NIN is not a BVN")

	_, err = st.Update(ctx, a.ID, app.ID, func(x *kyc.Application) (kyc.Change, error) {
		x.BVN = "22245678999"
		return kyc.Change{}, nil
	})
	require.NoError(t, err)
	r2 := readRawKYC(ctx, t, conn, app.ID)
	require.NotEqual(t, r.BVNHash, r2.BVNHash)
	require.Equal(t, r.NINHash, r2.NINHash, "the hash of an unchanged NIN is stable")
	require.Equal(t, app.ID, found(a.ID, "22245678999"))
	require.Empty(t, found(a.ID, app.BVN))

	// A sealed BVN is bound to its row: copied onto another application it does not open.
	other := app
	other.ID, other.BVN, other.NIN = "kyc_pii_other_"+uuid.NewString()[:8], "", ""
	require.NoError(t, st.Create(ctx, other, kycCreatedEvent(a.ID)))
	_, err = conn.Exec(ctx, `update kyc_applications set bvn_sealed = $1 where id = $2`, r2.BVNSealed, other.ID)
	require.NoError(t, err)
	_, err = st.Get(ctx, a.ID, other.ID)
	require.Error(t, err)
}

// TestKYCBVNLookupUsesIndex: screening's stored-KYC lookup compares the keyed hash, which the
// partial index on (tenant_id, bvn_hash, created_at) serves; it never has to open a row. With a
// tenant of many applications (analysed), the planner takes that index for the lookup.
func TestKYCBVNLookupUsesIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := pgtest.Fresh(t)
	ten := pgtest.Tenant(ctx, t, db)
	conn := adminConn(ctx, t, url)
	_, err := conn.Exec(ctx, `insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name, bvn_hash, tier, status)
		select 'kyc_plan_' || g, $1, 'INDIVIDUAL', 'A', 'B', sha256(g::text::bytea), 'TIER_1', 'APPROVED'
		from generate_series(1, 5000) g`, string(ten.ID))
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `analyze kyc_applications`)
	require.NoError(t, err)
	rows, err := conn.Query(ctx, `explain `+screenstore.PrefetchSQLForTest,
		screenstore.PrefetchArgsForTest(string(ten.ID), []string{"x"}, []string{"1"}, []time.Time{time.Now()}, [][]byte{make([]byte, 32)})...)
	require.NoError(t, err)
	plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	require.Contains(t, strings.Join(plan, "\n"), "kyc_applications_tenant_bvn_hash_idx", "%s", strings.Join(plan, "\n"))
}

// TestKYCMigrationSealsLegacyRows runs the migration path on a database an older release left:
// applications with BVN and NIN in clear and audit records holding the full personal data.
// Migration 0011 scrubs the audit records in SQL; the Go step seals the numbers (reads work in
// between); afterwards nothing is in clear, the API values come back, screening finds the
// application by its BVN, and the step is a no-op when run again.
func TestKYCMigrationSealsLegacyRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.Empty(t)
	require.NoError(t, postgres.MigrateUpToForTest(ctx, url, 10))
	conn := adminConn(ctx, t, url)

	tenant := tenancy.TenantID(uuid.NewString())
	_, err := conn.Exec(ctx, `insert into tenants (id, name, slug) values ($1, 'Old Bank', $2)`, string(tenant), "old-"+string(tenant)[:8])
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `insert into tenant_settings (tenant_id) values ($1)`, string(tenant))
	require.NoError(t, err)
	// As the old store wrote them: numbers in clear.
	_, err = conn.Exec(ctx, `insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name, bvn, nin, phone, email,
		date_of_birth, tier, status) values
		('kyc_legacy_1', $1, 'INDIVIDUAL', 'Ada', 'Obi', '22211112222', '70133334444', '+2348031112222', 'ada.obi@example.com',
		 '1984-02-29', 'TIER_2', 'APPROVED'),
		('kyc_legacy_2', $1, 'INDIVIDUAL', 'Chidi', 'Okeke', '', '70155556666', '', '', null, 'TIER_1', 'PENDING'),
		('kyc_legacy_3', $1, 'INDIVIDUAL', 'Emeka', 'Eze', '', '', '', '', null, 'TIER_1', 'PENDING')`, string(tenant))
	require.NoError(t, err)
	// Enough more for the Go step to take several chunks.
	_, err = conn.Exec(ctx, `insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name, bvn, tier, status)
		select 'kyc_bulk_' || g, $1, 'INDIVIDUAL', 'A', 'B', (30000000000 + g)::text, 'TIER_1', 'APPROVED'
		from generate_series(1, 1500) g`, string(tenant))
	require.NoError(t, err)
	// As the old kyc.snapshot audited them.
	oldSnap := `{"status": "PENDING", "tier": "TIER_2", "bvnVerified": false, "ninVerified": false, "livenessPassed": false,
		"bvn": "22211112222", "nin": "70133334444", "email": "ada.obi@example.com", "phone": "+2348031112222", "dateOfBirth": "1984-02-29"}`
	newSnap := `{"status": "PENDING", "tier": "TIER_2", "bvnVerified": false, "ninVerified": false, "livenessPassed": false,
		"bvn": "22211112222", "nin": "70133334444", "email": "obi@mail.example.org", "phone": "+2348031112222"}`
	_, err = conn.Exec(ctx, `insert into audit_events (id, tenant_id, actor_type, action, resource_type, resource_id, before, after) values
		($1, $4, 'SYSTEM', 'kyc.created', 'kyc_application', 'kyc_legacy_1', null, $5),
		($2, $4, 'SYSTEM', 'kyc.updated', 'kyc_application', 'kyc_legacy_1', $5, $6),
		($3, $4, 'SYSTEM', 'user.created', 'user', null, null, '{"email": "officer@bank.example", "role": "ANALYST"}')`,
		uuid.NewString(), uuid.NewString(), uuid.NewString(), string(tenant), oldSnap, newSnap)
	require.NoError(t, err)

	require.NoError(t, postgres.Migrate(ctx, url, slog.New(slog.DiscardHandler)))

	// The SQL half: the audit records are masked, the date of birth gone; other records untouched.
	audits := map[string][2]map[string]any{}
	rows, err := conn.Query(ctx, `select action, before, after from audit_events where tenant_id = $1`, string(tenant))
	require.NoError(t, err)
	for rows.Next() {
		var action string
		var before, after map[string]any
		require.NoError(t, rows.Scan(&action, &before, &after))
		audits[action] = [2]map[string]any{before, after}
	}
	require.NoError(t, rows.Err())
	created := audits["kyc.created"][1]
	require.Equal(t, map[string]any{"status": "PENDING", "tier": "TIER_2", "bvnVerified": false, "ninVerified": false,
		"livenessPassed": false, "bvn": "*******2222", "nin": "*******4444", "email": "a***@example.com",
		"phone": "**********2222", "hasDateOfBirth": true}, created)
	require.Equal(t, created, audits["kyc.updated"][0])
	require.Equal(t, "o***@mail.example.org", audits["kyc.updated"][1]["email"])
	require.Equal(t, false, audits["kyc.updated"][1]["hasDateOfBirth"])
	require.Equal(t, "officer@bank.example", audits["user.created"][1]["email"], "only KYC records are scrubbed")
	var auditText string
	require.NoError(t, conn.QueryRow(ctx, `select string_agg(coalesce(before::text, '') || coalesce(after::text, ''), ' ')
		from audit_events where resource_type = 'kyc_application'`).Scan(&auditText))
	for _, v := range []string{"22211112222", "70133334444", "ada.obi@example.com", "2348031112222", "1984-02-29"} {
		require.NotContains(t, auditText, v)
	}
	var forced bool
	require.NoError(t, conn.QueryRow(ctx, `select relforcerowsecurity from pg_class where relname = 'audit_events'`).Scan(&forced))
	require.True(t, forced, "the scrub puts row-level security back")

	db, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 4, Logger: slog.New(slog.DiscardHandler), CredentialsKey: pgtest.CredentialsKey})
	require.NoError(t, err)
	t.Cleanup(db.Close)
	st := applicationstore.NewKYCStore(db)
	// Between the migration and the Go step, a legacy row still reads correctly.
	got, err := st.Get(ctx, tenant, "kyc_legacy_1")
	require.NoError(t, err)
	require.Equal(t, "22211112222", got.BVN)

	// The Go half.
	n, err := applicationstore.SealKYCIdentifiers(ctx, db)
	require.NoError(t, err)
	require.Equal(t, 2+1500, n, "every application with a number")
	var left int
	require.NoError(t, conn.QueryRow(ctx, `select count(*) from kyc_applications where bvn <> '' or nin <> ''`).Scan(&left))
	require.Zero(t, left)
	r := readRawKYC(ctx, t, conn, "kyc_legacy_1")
	require.Empty(t, r.BVN)
	require.Empty(t, r.NIN)
	require.NotEmpty(t, r.BVNSealed)
	require.NotEmpty(t, r.NINHash)
	require.NotContains(t, r.Text, "22211112222")
	require.NotContains(t, r.Text, "70133334444")
	r = readRawKYC(ctx, t, conn, "kyc_legacy_2")
	require.Nil(t, r.BVNSealed)
	require.Nil(t, r.BVNHash)
	require.NotEmpty(t, r.NINSealed)
	require.NotContains(t, r.Text, "70155556666")

	got, err = st.Get(ctx, tenant, "kyc_legacy_1")
	require.NoError(t, err)
	require.Equal(t, "22211112222", got.BVN)
	require.Equal(t, "70133334444", got.NIN)
	got, err = st.Get(ctx, tenant, "kyc_legacy_2")
	require.NoError(t, err)
	require.Equal(t, "", got.BVN)
	require.Equal(t, "70155556666", got.NIN)

	sst := screenstore.NewScreeningStore(db, screenstore.ScreeningStoreOptions{})
	t.Cleanup(sst.Close)
	p, err := sst.Prefetch(ctx, &screening.Transaction{TenantID: tenant, ExternalID: "legacy-1", SenderAccountNumber: "3000000001",
		SenderBVN: "22211112222", Timestamp: time.Now()}, true, admission.PaceOf(ctx))
	require.NoError(t, err)
	require.True(t, p.KYC.Found)
	require.Equal(t, "kyc_legacy_1", p.KYC.ExternalRef)
	p, err = sst.Prefetch(ctx, &screening.Transaction{TenantID: tenant, ExternalID: "bulk-1234", SenderAccountNumber: "3000000002",
		SenderBVN: "30000001234", Timestamp: time.Now()}, true, admission.PaceOf(ctx))
	require.NoError(t, err)
	require.Equal(t, "kyc_bulk_1234", p.KYC.ExternalRef)

	n, err = applicationstore.SealKYCIdentifiers(ctx, db)
	require.NoError(t, err)
	require.Zero(t, n, "idempotent")

	// Going back below 0011 would hand sealed numbers to code that cannot read them: refused.
	err = postgres.MigrateDownToForTest(ctx, url, 10)
	require.ErrorContains(t, err, "sealed BVNs/NINs exist")
	// Later migrations above 0011 did go down before the refusal: bring them back up.
	require.NoError(t, postgres.Migrate(ctx, url, slog.New(slog.DiscardHandler)))
	got, err = st.Get(ctx, tenant, "kyc_legacy_1")
	require.NoError(t, err)
	require.Equal(t, "22211112222", got.BVN)
}

func kycCreatedEvent(tenantID tenancy.TenantID) audit.Event {
	return audit.Event{TenantID: tenantID, Actor: audit.System, Action: "kyc.created", ResourceType: "kyc_application"}
}
