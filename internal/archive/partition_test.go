package archive_test

import (
	"encoding/json"
	"log/slog"
	"sort"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/archive"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/caseviewstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestArchivePartitionDropRetainsAndRestores is the partition path (migration 0049): two
// tenants share a month that is a partition of its own, of transactions and of audit_events.
// Tenant a (five years) is past its retention, tenant b (seven) is not. The partition is not
// dropped while a's rows are not archived, nor while a row arrived since a's archive was
// verified; a's archives are written and verified (its held rows, of an open case and of a
// legal hold, and the case's audit trail, left out), then both partitions are dropped whole:
// a's held rows and all of b's are copied to <table>_retained first and stay readable (a
// transaction by id, a case's evidence, a report's transactions, the audit log), a's archives
// become DROPPED, the partition's idempotency keys go, and the archives restore; once b's
// retention has passed too, its retained rows are archived from the retained tables.
func TestArchivePartitionDropRetainsAndRestores(t *testing.T) {
	ctx := t.Context()
	db, url := pgtest.Fresh(t)
	admin := pgtest.AdminOf(ctx, t, url)
	st := s3Store(t)
	now := time.Now().UTC()
	store := postgres.NewArchiveStore(db)
	svc := archive.NewService(archive.Deps{Months: store, Partitions: store, Store: store, Blobs: st,
		Now: func() time.Time { return now }, Logger: slog.New(slog.DiscardHandler)})
	officer := audit.Actor{ID: uuid.NewString(), Type: audit.ActorUser}

	a := pgtest.Tenant(ctx, t, db).ID
	b := pgtest.Tenant(ctx, t, db).ID
	require.NoError(t, store.SetRetentionYears(ctx, b, 7, audit.Event{TenantID: b, Actor: audit.System, Action: "tenant.retention_updated"}))
	old := archive.MonthOf(now.AddDate(-6, 0, 0))
	created, err := postgres.NewPartitionStore(db).EnsurePartitions(ctx, old, old.AddDate(0, 1, 0))
	require.NoError(t, err)
	txPart, auditPart := "transactions_p"+old.Format("200601"), "audit_events_p"+old.Format("200601")
	// Every month from then to now (the months stay contiguous, migration 0050).
	require.Contains(t, created, txPart)
	require.Contains(t, created, auditPart)

	var plain []string
	for i := range 10 {
		plain = append(plain, insertTx(ctx, t, admin, a, old.Add(time.Duration(i)*time.Hour), "2000000000", "22200000000"))
	}
	sort.Strings(plain)
	heldByCase := insertTx(ctx, t, admin, a, old.Add(30*time.Hour), "3000000000", "22233333333")
	caseID := "case_" + uuid.NewString()
	_, err = admin.Exec(ctx, `insert into cases (id, tenant_id, case_number, type, priority, title, description, status,
		related_transaction_id, created_at, updated_at) values ($1, $2, 'CASE-OLD-1', 'TRANSACTION_ALERT', 'HIGH', 't', 'd', 'OPEN', $3, $4, $4)`,
		caseID, string(a), heldByCase, old)
	require.NoError(t, err)
	var bRows []string
	for i := range 3 {
		bRows = append(bRows, insertTx(ctx, t, admin, b, old.Add(time.Duration(i)*time.Hour+time.Minute), "2000000000", "22200000000"))
	}
	sort.Strings(bRows)
	var inPart int
	require.NoError(t, admin.QueryRow(ctx, `select count(*) from `+txPart).Scan(&inPart))
	require.Equal(t, 14, inPart, "the month's rows are in its own partition")

	// The audit log of the month: a's plain rows, the open case's trail (held), b's rows.
	insertAudit := func(tenant tenancy.TenantID, resourceType, resourceID string, at time.Time) string {
		id := uuid.NewString()
		_, err := admin.Exec(ctx, `insert into audit_events (id, tenant_id, actor_type, action, resource_type, resource_id, after, created_at)
			values ($1, $2, 'SYSTEM', 'test.event', $3, $4, '{"amount": 12345.67}', $5)`, id, string(tenant), resourceType, resourceID, at)
		require.NoError(t, err)
		return id
	}
	var plainAudit []string
	for i := range 4 {
		plainAudit = append(plainAudit, insertAudit(a, "user", uuid.NewString(), old.Add(time.Duration(i)*time.Hour)))
	}
	sort.Strings(plainAudit)
	caseAudit := insertAudit(a, "case", caseID, old.Add(31*time.Hour))
	bAudit := []string{insertAudit(b, "user", "u1", old.Add(time.Hour)), insertAudit(b, "user", "u2", old.Add(2*time.Hour))}
	sort.Strings(bAudit)

	// Nothing of a's is archived yet: the partitions stay.
	n, err := svc.DropPartitions(ctx)
	require.NoError(t, err)
	require.Zero(t, n)
	_, err = store.DropPartition(ctx, archive.TableTransactions, old, func(archive.PartitionTenant) audit.Event { return audit.Event{} })
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err), "%v", err)
	require.ErrorContains(t, err, "not archived")

	// a's pass archives and verifies both tables' month and leaves the rows for the partition
	// drop (b's month is within its seven years).
	done, err := svc.Run(ctx, a)
	require.NoError(t, err)
	require.Equal(t, 2, done)
	done, err = svc.Run(ctx, b)
	require.NoError(t, err)
	require.Zero(t, done)
	list, err := svc.List(ctx, a, paging.Params{Page: 1, Limit: 10})
	require.NoError(t, err)
	require.Len(t, list.Items, 2)
	arcs := map[string]archive.Archive{}
	for _, x := range list.Items {
		require.Equal(t, archive.StateVerified, x.State, x.Table)
		arcs[x.Table] = x
	}
	require.Equal(t, int64(10), arcs[archive.TableTransactions].Rows)
	require.Equal(t, int64(1), arcs[archive.TableTransactions].HeldRows)
	require.Equal(t, int64(4), arcs[archive.TableAuditEvents].Rows)
	require.Equal(t, int64(1), arcs[archive.TableAuditEvents].HeldRows)
	require.Len(t, monthRows(ctx, t, admin, a, old), 11, "verified, not deleted: the partition goes whole")
	done, err = svc.Run(ctx, a)
	require.NoError(t, err)
	require.Zero(t, done, "a verified archive waiting for its partition is not counted again")

	// A row screened into the month since a's archive: the drop is refused and changes nothing,
	// until a hold keeps that row (it is then retained, not archived).
	late := insertTx(ctx, t, admin, a, old.Add(40*time.Hour), "2000000000", "22200000000")
	_, err = store.DropPartition(ctx, archive.TableTransactions, old, func(archive.PartitionTenant) audit.Event { return audit.Event{} })
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err), "%v", err)
	require.ErrorContains(t, err, "does not match")
	var retainedNow int
	require.NoError(t, admin.QueryRow(ctx, `select count(*) from transactions_retained`).Scan(&retainedNow))
	require.Zero(t, retainedNow)
	_, err = svc.PlaceHold(ctx, a, officer, archive.SubjectTransaction, late, "FIRS request")
	require.NoError(t, err)

	n, err = svc.DropPartitions(ctx)
	require.NoError(t, err)
	// Both tables' partitions of the month, and the empty ones after it up to five years ago.
	cutoff := now.AddDate(-archive.MinRetentionYears, 0, 0)
	var emptyDue int
	for m := old.AddDate(0, 1, 0); !m.AddDate(0, 1, 0).After(cutoff); m = m.AddDate(0, 1, 0) {
		emptyDue++
	}
	require.Equal(t, 2+2*emptyDue, n)
	for _, p := range []string{txPart, auditPart} {
		var reg *string
		require.NoError(t, admin.QueryRow(ctx, `select to_regclass($1)::text`, p).Scan(&reg))
		require.Nil(t, reg, "%s is dropped", p)
	}
	for _, table := range archive.Tables {
		due, err := store.DuePartitions(ctx, table, cutoff)
		require.NoError(t, err)
		require.Empty(t, due, table)
	}
	for _, table := range archive.Tables {
		x, err := svc.Get(ctx, a, arcs[table].ID)
		require.NoError(t, err)
		require.Equal(t, archive.StateDropped, x.State, table)
		require.NotNil(t, x.DroppedAt)
	}

	// Retained: a's held rows and all of b's, per tenant under row-level security.
	retainedIDs := func(tenant tenancy.TenantID, table string) []string {
		tx := pgtest.AsApp(ctx, t, admin, tenant)
		defer func() { _ = tx.Rollback(ctx) }()
		rows, err := tx.Query(ctx, `select id::text from `+table+` order by id`)
		require.NoError(t, err)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return ids
	}
	wantA := []string{heldByCase, late}
	sort.Strings(wantA)
	require.Equal(t, wantA, retainedIDs(a, "transactions_retained"))
	require.Equal(t, bRows, retainedIDs(b, "transactions_retained"))
	require.Equal(t, []string{caseAudit}, retainedIDs(a, "audit_events_retained"))
	require.Equal(t, bAudit, retainedIDs(b, "audit_events_retained"))
	var keys int
	require.NoError(t, admin.QueryRow(ctx, `select count(*) from transaction_keys where transaction_timestamp >= $1 and transaction_timestamp < $2`,
		old, old.AddDate(0, 1, 0)).Scan(&keys))
	require.Zero(t, keys, "the dropped partition's keys")

	// The reads that must find retained rows do: the open case's evidence, a report's
	// transactions, the audit log; another tenant's is not found.
	ev, err := caseviewstore.NewCaseEvidenceStore(db).Evidence(ctx, a, heldByCase, old)
	require.NoError(t, err)
	require.NotNil(t, ev)
	require.Equal(t, heldByCase, ev.Transaction.ID)
	require.Equal(t, "12345.67", ev.Transaction.Amount)
	ev, err = caseviewstore.NewCaseEvidenceStore(db).Evidence(ctx, a, bRows[0], old)
	require.NoError(t, err)
	require.Nil(t, ev, "another tenant's retained row")
	rtx, err := postgres.NewReportStore(db).Transactions(ctx, b, bRows)
	require.NoError(t, err)
	require.Len(t, rtx, 3)
	trail, err := db.ListAudit(ctx, a, audit.ListParams{ResourceType: "case"}, paging.Params{Page: 1, Limit: 10})
	require.NoError(t, err)
	require.Len(t, trail.Items, 1)
	require.Equal(t, caseAudit, trail.Items[0].ID)

	// Restore: the examiner's copies are the archived rows.
	for table, want := range map[string][]string{archive.TableTransactions: plain, archive.TableAuditEvents: plainAudit} {
		restored, err := svc.Restore(ctx, a, officer, arcs[table].ID)
		require.NoError(t, err, table)
		require.Equal(t, int64(len(want)), *restored.RestoredRows)
		page, err := svc.RestoredRows(ctx, a, arcs[table].ID, paging.Params{Page: 1, Limit: 100})
		require.NoError(t, err)
		var back []string
		for _, r := range page.Items {
			var row struct {
				ID string `json:"id"`
			}
			require.NoError(t, json.Unmarshal(r, &row))
			back = append(back, row.ID)
		}
		require.Equal(t, want, back, table)
	}

	// Audited per tenant: a's archives dropped with the partition, b's rows retained.
	actions := func(tenant tenancy.TenantID) []string {
		rows, err := admin.Query(ctx, `select action || ':' || coalesce(after->>'table', '') from audit_events
			where tenant_id = $1 and resource_type in ('archive', 'partition') and action in ('archive.dropped', 'archive.retained')
			order by 1`, string(tenant))
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	require.Equal(t, []string{"archive.dropped:audit_events", "archive.dropped:transactions"}, actions(a))
	require.Equal(t, []string{"archive.retained:audit_events", "archive.retained:transactions"}, actions(b))

	// Once b's own retention has passed (five years now), its retained rows are archived and
	// deleted from the retained tables like any tenant-month without a partition of its own.
	require.NoError(t, store.SetRetentionYears(ctx, b, 5, audit.Event{TenantID: b, Actor: audit.System, Action: "tenant.retention_updated"}))
	done, err = svc.Run(ctx, b)
	require.NoError(t, err)
	require.Equal(t, 2, done)
	bList, err := svc.List(ctx, b, paging.Params{Page: 1, Limit: 10})
	require.NoError(t, err)
	require.Len(t, bList.Items, 2)
	for _, x := range bList.Items {
		require.Equal(t, archive.StateDropped, x.State, x.Table)
		require.Equal(t, map[string]int64{archive.TableTransactions: 3, archive.TableAuditEvents: 2}[x.Table], x.Rows, x.Table)
	}
	require.Empty(t, retainedIDs(b, "transactions_retained"))
	require.Empty(t, retainedIDs(b, "audit_events_retained"))
	require.Equal(t, wantA, retainedIDs(a, "transactions_retained"), "a's held rows stay")

	// The retained tables are append-only for the application.
	tx := pgtest.AsApp(ctx, t, admin, a)
	_, err = tx.Exec(ctx, `delete from transactions_retained`)
	require.ErrorContains(t, err, "permission denied")
	_ = tx.Rollback(ctx)
}

// TestRetainedTablesMatchParents: transactions_retained and audit_events_retained have their
// parent's columns, types and order (archive_drop_partition copies rows with SELECT *, and the
// _kept views are a UNION ALL): a migration that adds a column to the parent and not to the
// retained table fails here.
func TestRetainedTablesMatchParents(t *testing.T) {
	ctx := t.Context()
	pgtest.DB(t)
	admin := pgtest.Admin(ctx, t)
	cols := func(table string) []string {
		rows, err := admin.Query(ctx, `select attname || ' ' || format_type(atttypid, atttypmod) from pg_attribute
			where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`, table)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	for _, table := range archive.Tables {
		require.NotEmpty(t, cols(table))
		require.Equal(t, cols(table), cols(table+"_retained"), table)
		require.Equal(t, cols(table), cols(table+"_kept"), table)
	}
}
