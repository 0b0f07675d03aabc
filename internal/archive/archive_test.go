package archive_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/archive"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/s3"
	"github.com/complyd/complyd/internal/s3/s3test"
	"github.com/complyd/complyd/internal/tenancy"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// s3Store starts versitygw and returns a store over a fresh bucket.
func s3Store(t *testing.T) *s3.Store {
	t.Helper()
	endpoint := s3test.StartVersityGW(t)
	st, err := s3.NewStore(s3.Config{Endpoint: endpoint, Bucket: "archives", Region: "us-east-1",
		AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey})
	require.NoError(t, err)
	_, err = st.Client().CreateBucket(t.Context(), &awss3.CreateBucketInput{Bucket: aws.String("archives")})
	require.NoError(t, err)
	return st
}

// insertTx stores a screened transaction at ts from sender (BVN bvn) and returns its id.
func insertTx(ctx context.Context, t *testing.T, admin *pgx.Conn, tenant tenancy.TenantID, ts time.Time, sender, bvn string) string {
	t.Helper()
	id := uuid.NewString()
	_, err := admin.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_bvn, sender_name, receiver_account_number, transaction_timestamp, verdict_id, outcome,
  risk_level, aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
values ($1::uuid, $2, 'ext-' || $1::text, 'TRANSFER', 'MOBILE', 12345.67, 'NGN', 12345.67, $4, $5, 'Sender', '0987654321', $3, 'vrd', 'APPROVE',
  'LOW', 10, '{}', '[]', 5, $3, $3)`, id, string(tenant), ts, sender, bvn)
	require.NoError(t, err)
	return id
}

func monthRows(ctx context.Context, t *testing.T, admin *pgx.Conn, tenant tenancy.TenantID, month time.Time) []string {
	t.Helper()
	rows, err := admin.Query(ctx, `select id::text from transactions where tenant_id = $1 and transaction_timestamp >= $2
		and transaction_timestamp < $3 order by id`, string(tenant), month, month.AddDate(0, 1, 0))
	require.NoError(t, err)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return ids
}

func getObject(ctx context.Context, t *testing.T, st *s3.Store, key string) []byte {
	t.Helper()
	r, err := st.Get(ctx, key)
	require.NoError(t, err)
	defer r.Close()
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return b
}

// TestArchiveVerifyDropRestore is issue 54's Done-when for retention: a tenant-month of stored
// screenings past retention is archived to S3 (versitygw), verified, dropped and restored for
// an examiner; rows a legal hold or an open case protects are neither archived nor dropped; a
// corrupted object fails verification and blocks the drop; a hold placed after verification
// stops the drop; another tenant's rows of the same month are untouched.
func TestArchiveVerifyDropRestore(t *testing.T) {
	ctx := t.Context()
	db := pgtest.DB(t)
	admin := pgtest.Admin(ctx, t)
	st := s3Store(t)
	now := time.Now().UTC()
	store := postgres.NewArchiveStore(db)
	svc := archive.NewService(archive.Deps{Months: store, Store: store, Blobs: st, Now: func() time.Time { return now },
		Logger: slog.New(slog.DiscardHandler)})
	officer := audit.Actor{ID: uuid.NewString(), Type: audit.ActorUser}

	a := pgtest.Tenant(ctx, t, db).ID
	b := pgtest.Tenant(ctx, t, db).ID
	old := archive.MonthOf(now.AddDate(-6, 0, 0))    // past the default five years
	older := old.AddDate(0, -1, 0)                   // a second month, to corrupt
	recent := archive.MonthOf(now.AddDate(-1, 0, 0)) // within retention

	var plain []string
	for i := range 16 {
		plain = append(plain, insertTx(ctx, t, admin, a, old.Add(time.Duration(i)*time.Hour), "2000000000", "22200000000"))
	}
	var heldByAccount []string
	for i := range 3 {
		heldByAccount = append(heldByAccount, insertTx(ctx, t, admin, a, old.Add(time.Duration(i)*time.Minute+48*time.Hour), "1111111111", "22211111111"))
	}
	heldByCase := insertTx(ctx, t, admin, a, old.Add(72*time.Hour), "3000000000", "22233333333")
	_, err := admin.Exec(ctx, `insert into cases (id, tenant_id, case_number, type, priority, title, description, status,
		related_transaction_id, created_at, updated_at) values ($1, $2, 'CASE-OLD-1', 'TRANSACTION_ALERT', 'HIGH', 't', 'd', 'IN_PROGRESS', $3, $4, $4)`,
		"case_"+uuid.NewString(), string(a), heldByCase, old)
	require.NoError(t, err)
	heldByReport := insertTx(ctx, t, admin, a, old.Add(96*time.Hour), "3100000000", "22231000000")
	rep := "rep_" + uuid.NewString()
	_, err = admin.Exec(ctx, `insert into reports (id, tenant_id, type, status, origin, report_day, deadline_at, created_at, updated_at)
		values ($1, $2, 'STR', 'FILED', 'CASE', $3::date, $4, $4, $4)`, rep, string(a), old, old)
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `insert into report_transactions (tenant_id, report_id, transaction_id, added_at) values ($1, $2, $3, $4)`,
		string(a), rep, heldByReport, old)
	require.NoError(t, err)
	heldByBVN := insertTx(ctx, t, admin, a, old.Add(120*time.Hour), "3200000000", "22232000000")
	for i := range 5 {
		insertTx(ctx, t, admin, a, older.Add(time.Duration(i)*time.Hour), "2000000000", "22200000000")
	}
	insertTx(ctx, t, admin, a, recent.Add(time.Hour), "2000000000", "22200000000")
	otherTenant := []string{insertTx(ctx, t, admin, b, old.Add(time.Hour), "2000000000", "22200000000")}

	// Retention: never below five years; the month within retention is refused.
	_, err = svc.Archive(ctx, a, officer, archive.TableTransactions, recent)
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err), "%v", err)
	require.Equal(t, apperr.Validation, apperr.CodeOf(store.SetRetentionYears(ctx, a, 4, audit.Event{})))
	due, err := svc.Due(ctx, a, archive.TableTransactions)
	require.NoError(t, err)
	require.Equal(t, []archive.Month{{Month: older, Rows: 5}, {Month: old, Rows: 22}}, due)

	hold, err := svc.PlaceHold(ctx, a, officer, archive.SubjectAccount, "1111111111", "EFCC request 2026/118")
	require.NoError(t, err)
	_, err = svc.PlaceHold(ctx, a, officer, archive.SubjectCustomer, "22232000000", "NFIU request")
	require.NoError(t, err)
	_, err = svc.PlaceHold(ctx, a, officer, "BANK", "x", "y")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))

	// Archive: the held rows (account and customer holds, open case, report) are not exported.
	arc, err := svc.Archive(ctx, a, officer, archive.TableTransactions, old)
	require.NoError(t, err)
	require.Equal(t, int64(16), arc.Rows)
	require.Equal(t, int64(6), arc.HeldRows)
	require.Equal(t, archive.StateWritten, arc.State)
	_, err = svc.Archive(ctx, a, officer, archive.TableTransactions, old)
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err), "a month is archived once")

	// The objects are self-describing: the manifest's checksum is the data's.
	data := getObject(ctx, t, st, arc.DataKey)
	sum := sha256.Sum256(data)
	var man archive.Manifest
	require.NoError(t, json.Unmarshal(getObject(ctx, t, st, arc.ManifestKey), &man))
	require.Equal(t, archive.SchemaVersion, man.SchemaVersion)
	require.Positive(t, man.MigrationVersion)
	require.Equal(t, hex.EncodeToString(sum[:]), man.Files[0].SHA256)
	require.Equal(t, int64(16), man.Files[0].Rows)
	require.Equal(t, int64(len(data)), man.Files[0].Bytes)
	require.Equal(t, "transaction_timestamp", man.TimeColumn)
	require.Contains(t, man.Columns, archive.Column{Name: "amount", Type: "numeric"})
	zr, err := gzip.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	lines, err := io.ReadAll(zr)
	require.NoError(t, err)
	var exported []string
	for _, l := range bytes.Split(bytes.TrimSpace(lines), []byte("\n")) {
		var r struct {
			ID     string          `json:"id"`
			Amount json.RawMessage `json:"amount"`
		}
		require.NoError(t, json.Unmarshal(l, &r))
		require.Equal(t, "12345.67", string(r.Amount))
		exported = append(exported, r.ID)
	}
	sort.Strings(plain)
	require.Equal(t, plain, exported)

	// Drop refuses an archive not yet verified (archive_drop_month itself, as the app role).
	tx := pgtest.AsApp(ctx, t, admin, a)
	_, err = tx.Exec(ctx, `select archive_drop_month($1)`, arc.ID)
	require.ErrorContains(t, err, "not VERIFIED")
	_ = tx.Rollback(ctx)

	v, err := svc.Verify(ctx, a, officer, arc.ID)
	require.NoError(t, err)
	require.Equal(t, archive.StateVerified, v.State)

	// A hold placed after verification stops the drop: nothing is deleted.
	late, err := svc.PlaceHold(ctx, a, officer, archive.SubjectTransaction, plain[0], "late request")
	require.NoError(t, err)
	_, err = svc.Drop(ctx, a, officer, arc.ID)
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err), "%v", err)
	require.ErrorContains(t, err, "does not match")
	require.Len(t, monthRows(ctx, t, admin, a, old), 22)
	_, err = svc.LiftHold(ctx, a, officer, late.ID, "request withdrawn")
	require.NoError(t, err)

	// Drop: the archived rows go, the held ones and the other tenant's stay.
	n, err := svc.Drop(ctx, a, officer, arc.ID)
	require.NoError(t, err)
	require.Equal(t, int64(16), n)
	left := monthRows(ctx, t, admin, a, old)
	want := append(append([]string{}, heldByAccount...), heldByCase, heldByReport, heldByBVN)
	sort.Strings(want)
	require.Equal(t, want, left)
	require.Equal(t, otherTenant, monthRows(ctx, t, admin, b, old))
	require.Len(t, monthRows(ctx, t, admin, a, recent), 1)
	// The dropped rows' idempotency keys go with them (transaction_keys, migration 0043): a key
	// left behind made a resent externalId of a dropped row a duplicate of nothing. The held
	// rows keep theirs.
	var orphanKeys, heldKeys int
	require.NoError(t, admin.QueryRow(ctx, `select count(*) filter (where t.id is null), count(*) filter (where t.id is not null)
		from transaction_keys k left join transactions t on t.id = k.transaction_id and t.transaction_timestamp = k.transaction_timestamp
		where k.tenant_id = $1 and k.transaction_timestamp >= $2 and k.transaction_timestamp < $3`,
		string(a), old, old.AddDate(0, 1, 0)).Scan(&orphanKeys, &heldKeys))
	require.Zero(t, orphanKeys, "keys of dropped rows")
	require.Equal(t, len(want), heldKeys)
	_, err = svc.Drop(ctx, a, officer, arc.ID)
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err), "a dropped archive is not dropped again")

	// A corrupted object fails verification and blocks the drop.
	arc2, err := svc.Archive(ctx, a, officer, archive.TableTransactions, older)
	require.NoError(t, err)
	_, err = svc.Verify(ctx, a, officer, arc2.ID)
	require.NoError(t, err)
	bad := getObject(ctx, t, st, arc2.DataKey)
	bad[len(bad)/2] ^= 0xff
	_, err = st.Put(ctx, arc2.DataKey, bytes.NewReader(bad), "application/gzip")
	require.NoError(t, err)
	_, err = svc.Drop(ctx, a, officer, arc2.ID)
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err), "%v", err)
	require.Len(t, monthRows(ctx, t, admin, a, older), 5)
	failed, err := svc.Get(ctx, a, arc2.ID)
	require.NoError(t, err)
	require.Equal(t, archive.StateFailed, failed.State)
	require.NotEmpty(t, failed.Failure)
	_, err = svc.Restore(ctx, a, officer, arc2.ID)
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err))

	// List and restore for an examiner.
	list, err := svc.List(ctx, a, paging.Params{Page: 1, Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 2, list.Total)
	require.Equal(t, arc.ID, list.Items[0].ID)
	require.Equal(t, archive.StateDropped, list.Items[0].State)
	require.Equal(t, archive.StateFailed, list.Items[1].State)
	_, err = svc.Get(ctx, b, arc.ID)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err), "another tenant's archive")

	restored, err := svc.Restore(ctx, a, officer, arc.ID)
	require.NoError(t, err)
	require.NotNil(t, restored.RestoredRows)
	require.Equal(t, int64(16), *restored.RestoredRows)
	page, err := svc.RestoredRows(ctx, a, arc.ID, paging.Params{Page: 1, Limit: 100})
	require.NoError(t, err)
	require.Equal(t, 16, page.Total)
	var back []string
	for _, r := range page.Items {
		var row struct {
			ID string `json:"id"`
		}
		require.NoError(t, json.Unmarshal(r, &row))
		back = append(back, row.ID)
	}
	require.Equal(t, plain, back)
	_, err = svc.Restore(ctx, a, officer, arc.ID)
	require.NoError(t, err, "a second restore keeps the copy")

	// The application may not change the examiner's copy.
	tx = pgtest.AsApp(ctx, t, admin, a)
	_, err = tx.Exec(ctx, `delete from archive_restored_rows`)
	require.ErrorContains(t, err, "permission denied")
	_ = tx.Rollback(ctx)

	// Every step is audited.
	var actions []string
	rows, err := admin.Query(ctx, `select action from audit_events where tenant_id = $1 and resource_type in ('archive', 'legal_hold')
		order by created_at, action`, string(a))
	require.NoError(t, err)
	actions, err = pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	for _, want := range []string{"archive.written", "archive.verified", "archive.dropped", "archive.verify_failed",
		"archive.restored", "legal_hold.placed", "legal_hold.lifted"} {
		require.Contains(t, actions, want)
	}
	_ = hold
}

// TestRunArchivesDueMonths: the job's pass archives, verifies and drops every month of a tenant
// past its retention (seven years here) and leaves the months within it.
func TestRunArchivesDueMonths(t *testing.T) {
	ctx := t.Context()
	db := pgtest.DB(t)
	admin := pgtest.Admin(ctx, t)
	st := s3Store(t)
	now := time.Now().UTC()
	store := postgres.NewArchiveStore(db)
	svc := archive.NewService(archive.Deps{Months: store, Store: store, Blobs: st, Now: func() time.Time { return now },
		Logger: slog.New(slog.DiscardHandler)})
	a := pgtest.Tenant(ctx, t, db).ID
	require.NoError(t, store.SetRetentionYears(ctx, a, 7, audit.Event{TenantID: a, Actor: audit.System, Action: "tenant.retention_set"}))
	eight := archive.MonthOf(now.AddDate(-8, 0, 0))
	six := archive.MonthOf(now.AddDate(-6, 0, 0))
	insertTx(ctx, t, admin, a, eight.Add(time.Hour), "2000000000", "22200000000")
	insertTx(ctx, t, admin, a, six.Add(time.Hour), "2000000000", "22200000000")

	seven := archive.MonthOf(now.AddDate(-7, -6, 0))
	insertTx(ctx, t, admin, a, seven.Add(time.Hour), "2000000000", "22200000000")
	// An earlier pass that stopped after writing its archive: the next pass drops it.
	_, err := svc.Archive(ctx, a, audit.System, archive.TableTransactions, seven)
	require.NoError(t, err)

	n, err := svc.Run(ctx, a)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.Empty(t, monthRows(ctx, t, admin, a, seven), "the written archive's month is dropped")
	require.Empty(t, monthRows(ctx, t, admin, a, eight))
	require.Len(t, monthRows(ctx, t, admin, a, six), 1, "within the tenant's seven years")
	n, err = svc.Run(ctx, a)
	require.NoError(t, err)
	require.Zero(t, n, "nothing more is due")
}
