package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/archive"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// ArchiveStore is archive.Store, archive.MonthStore and archive.Partitions (migrations 0047
// and 0049, docs/guide/retention.md) of transactions and audit_events: a tenant-month's rows
// are exported with to_jsonb, and dropped either by the SECURITY DEFINER function
// archive_drop_month, which deletes only the archived rows no hold protects (the application
// role has no DELETE on the append-only tables), or with the whole month's partition
// (archive_partition_store.go).
type ArchiveStore struct {
	db *DB
}

// NewArchiveStore returns the store.
func NewArchiveStore(db *DB) *ArchiveStore { return &ArchiveStore{db: db} }

var (
	_ archive.Store      = (*ArchiveStore)(nil)
	_ archive.MonthStore = (*ArchiveStore)(nil)
)

// heldTransaction is migration 0047's predicate on a transactions row aliased t.
const heldTransaction = `transaction_held(t.tenant_id, t.id, t.sender_account_number, t.receiver_account_number, t.sender_bvn, t.receiver_bvn)`

// archivedTable is how an archived table is read: its time (and partition) column and the
// predicate of a held row aliased t (migrations 0047 and 0049).
type archivedTable struct{ timeColumn, held string }

var archivedTables = map[string]archivedTable{
	archive.TableTransactions: {timeColumn: "transaction_timestamp", held: heldTransaction},
	archive.TableAuditEvents:  {timeColumn: "created_at", held: `audit_event_held(t.tenant_id, t.resource_type, t.resource_id)`},
}

func archivedTableOf(table string) (archivedTable, error) {
	at, ok := archivedTables[table]
	if !ok {
		return at, apperr.Invalid("table", "only transactions and audit_events are archived")
	}
	return at, nil
}

// Tenants implements archive.Store.
func (s *ArchiveStore) Tenants(ctx context.Context) ([]tenancy.TenantID, error) {
	return s.db.tenantIDs(ctx)
}

// RetentionYears implements archive.Store.
func (s *ArchiveStore) RetentionYears(ctx context.Context, tenantID tenancy.TenantID) (int, error) {
	years := archive.MinRetentionYears
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `select retention_years from tenant_settings where tenant_id = $1`, string(tenantID)).Scan(&years)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	return years, err
}

// SetRetentionYears sets the tenant's retention (at least archive.MinRetentionYears), audited.
func (s *ArchiveStore) SetRetentionYears(ctx context.Context, tenantID tenancy.TenantID, years int, ev audit.Event) error {
	if years < archive.MinRetentionYears || years > 100 {
		return apperr.Invalid("retentionYears", fmt.Sprintf("must be between %d (the law's minimum) and 100", archive.MinRetentionYears))
	}
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `update tenant_settings set retention_years = $2, updated_at = $3 where tenant_id = $1`,
			string(tenantID), years, s.db.now())
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return apperr.NotFoundf("tenant settings not found")
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// Months implements archive.MonthStore.
func (s *ArchiveStore) Months(ctx context.Context, tenantID tenancy.TenantID, table string, cutoff time.Time) ([]archive.Month, error) {
	at, err := archivedTableOf(table)
	if err != nil {
		return nil, err
	}
	var out []archive.Month
	err = s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, fmt.Sprintf(`select date_trunc('month', %[1]s at time zone 'UTC') as m, count(*)
			from %[2]s_kept where tenant_id = $1 and %[1]s < date_trunc('month', $2::timestamptz at time zone 'UTC') at time zone 'UTC'
			group by 1 order by 1`, at.timeColumn, table), string(tenantID), cutoff)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (archive.Month, error) {
			var m archive.Month
			err := r.Scan(&m.Month, &m.Rows)
			m.Month = time.Date(m.Month.Year(), m.Month.Month(), 1, 0, 0, 0, 0, time.UTC)
			return m, err
		})
		return err
	})
	return out, err
}

// Export implements archive.MonthStore: one transaction, rows streamed in id order; the
// session's time zone is UTC so that timestamps are written as RFC 3339 UTC. Months and Export
// read <table>_kept (migration 0049): the table and the rows retained from its dropped
// partitions, which are archived once their tenant's retention has passed.
func (s *ArchiveStore) Export(ctx context.Context, p archive.ExportParams, row func(id string, json []byte) error) (archive.ExportInfo, error) {
	var info archive.ExportInfo
	at, err := archivedTableOf(p.Table)
	if err != nil {
		return info, err
	}
	info.TimeColumn = at.timeColumn
	from := archive.MonthOf(p.Month)
	err = s.db.inTenant(ctx, p.TenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `set local timezone = 'UTC'`); err != nil {
			return err
		}
		cols, err := tx.Query(ctx, `select a.attname, format_type(a.atttypid, a.atttypmod) from pg_attribute a
			where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`, p.Table)
		if err != nil {
			return err
		}
		info.Columns, err = pgx.CollectRows(cols, func(r pgx.CollectableRow) (archive.Column, error) {
			var c archive.Column
			return c, r.Scan(&c.Name, &c.Type)
		})
		if err != nil {
			return fmt.Errorf("columns: %w", err)
		}
		if err := tx.QueryRow(ctx, `select coalesce(max(version_id), 0) from goose_db_version where is_applied`).Scan(&info.MigrationVersion); err != nil {
			return fmt.Errorf("migration version: %w", err)
		}
		rows, err := tx.Query(ctx, fmt.Sprintf(`select t.id::text, to_jsonb(t)::text, %[1]s from %[2]s_kept t
			where t.tenant_id = $1 and t.%[3]s >= $2 and t.%[3]s < $3 order by t.id`, at.held, p.Table, at.timeColumn),
			string(p.TenantID), from, from.AddDate(0, 1, 0))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				id   string
				js   []byte
				held bool
			)
			if err := rows.Scan(&id, &js, &held); err != nil {
				return err
			}
			if held {
				info.HeldRows++
				continue
			}
			if err := row(id, js); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	return info, err
}

// DropMonth implements archive.MonthStore through archive_drop_month.
func (s *ArchiveStore) DropMonth(ctx context.Context, tenantID tenancy.TenantID, archiveID string, ev audit.Event) (int64, error) {
	if !isUUID(archiveID) {
		return 0, apperr.NotFoundf("archive not found")
	}
	var n int64
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `select archive_drop_month($1)`, archiveID).Scan(&n); err != nil {
			return dropErr(err)
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
	return n, err
}

// dropErr maps archive_drop_month's refusals: no_data_found is NOT_FOUND, a prerequisite not
// met (not VERIFIED, within retention, rows changed since) is CONFLICT with its message.
func dropErr(err error) error {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch pg.Code {
		case "P0002":
			return apperr.NotFoundf("archive not found")
		case "55000":
			return apperr.New(apperr.Conflict, pg.Message)
		}
	}
	return err
}

type archiveRow struct {
	ID           string     `db:"id"`
	TenantID     string     `db:"tenant_id"`
	TableName    string     `db:"table_name"`
	Month        time.Time  `db:"month"`
	Prefix       string     `db:"prefix"`
	DataKey      string     `db:"data_key"`
	ManifestKey  string     `db:"manifest_key"`
	RowCount     int64      `db:"row_count"`
	HeldRows     int64      `db:"held_rows"`
	ByteSize     int64      `db:"byte_size"`
	SHA256       string     `db:"sha256"`
	IDDigest     string     `db:"id_digest"`
	State        string     `db:"state"`
	Failure      *string    `db:"failure"`
	CreatedAt    time.Time  `db:"created_at"`
	VerifiedAt   *time.Time `db:"verified_at"`
	DroppedAt    *time.Time `db:"dropped_at"`
	RestoredAt   *time.Time `db:"restored_at"`
	RestoredRows *int64     `db:"restored_rows"`
}

const archiveColumns = `id::text, tenant_id::text, table_name, month, prefix, data_key, manifest_key, row_count, held_rows,
	byte_size, sha256, id_digest::text as id_digest, state, failure, created_at, verified_at, dropped_at, restored_at, restored_rows`

func toArchive(r archiveRow) archive.Archive {
	return archive.Archive{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), Table: r.TableName,
		Month: time.Date(r.Month.Year(), r.Month.Month(), 1, 0, 0, 0, 0, time.UTC), Prefix: r.Prefix, DataKey: r.DataKey,
		ManifestKey: r.ManifestKey, Rows: r.RowCount, HeldRows: r.HeldRows, Bytes: r.ByteSize, SHA256: r.SHA256,
		IDDigest: r.IDDigest, State: r.State, Failure: deref(r.Failure), CreatedAt: r.CreatedAt, VerifiedAt: r.VerifiedAt,
		DroppedAt: r.DroppedAt, RestoredAt: r.RestoredAt, RestoredRows: r.RestoredRows}
}

// CreateArchive implements archive.Store.
func (s *ArchiveStore) CreateArchive(ctx context.Context, a archive.Archive, ev audit.Event) error {
	return s.db.inTenant(ctx, a.TenantID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `insert into archives (id, tenant_id, table_name, month, prefix, data_key, manifest_key,
			row_count, held_rows, byte_size, sha256, id_digest, state, created_at)
			values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric, $13, $14)`,
			a.ID, string(a.TenantID), a.Table, a.Month, a.Prefix, a.DataKey, a.ManifestKey, a.Rows, a.HeldRows, a.Bytes,
			a.SHA256, a.IDDigest, a.State, a.CreatedAt)
		if err != nil {
			var pg *pgconn.PgError
			if errors.As(err, &pg) && pg.Code == "23505" && pg.ConstraintName == "archives_tenant_table_month_key" {
				return apperr.New(apperr.Conflict, "this month is already archived")
			}
			return err
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// SetState implements archive.Store; a DROPPED archive keeps its state.
func (s *ArchiveStore) SetState(ctx context.Context, tenantID tenancy.TenantID, id, state, failure string, at time.Time, ev audit.Event) error {
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `update archives set state = $3, failure = $4,
			verified_at = case when $3 = 'VERIFIED' then $5 else verified_at end
			where tenant_id = $1 and id = $2::uuid and state <> 'DROPPED'`, string(tenantID), id, state, nullIfEmpty(failure), at)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return apperr.NotFoundf("archive not found")
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// GetArchive implements archive.Store.
func (s *ArchiveStore) GetArchive(ctx context.Context, tenantID tenancy.TenantID, id string) (archive.Archive, error) {
	if !isUUID(id) {
		return archive.Archive{}, apperr.NotFoundf("archive not found")
	}
	var a archive.Archive
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select `+archiveColumns+` from archives where tenant_id = $1 and id = $2::uuid`, string(tenantID), id)
		if err != nil {
			return err
		}
		r, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[archiveRow])
		if err != nil {
			return mapErr(err, "archive")
		}
		a = toArchive(r)
		return nil
	})
	return a, err
}

// ListArchives implements archive.Store: newest month first.
func (s *ArchiveStore) ListArchives(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[archive.Archive], error) {
	res := paging.Result[archive.Archive]{Page: p.Page, Limit: p.Limit, Items: []archive.Archive{}}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `select count(*) from archives where tenant_id = $1`, string(tenantID)).Scan(&res.Total); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `select `+archiveColumns+` from archives where tenant_id = $1
			order by month desc, created_at desc, id limit $2 offset $3`, string(tenantID), p.Limit, p.Offset())
		if err != nil {
			return err
		}
		rs, err := pgx.CollectRows(rows, pgx.RowToStructByName[archiveRow])
		for _, r := range rs {
			res.Items = append(res.Items, toArchive(r))
		}
		return err
	})
	return res, err
}

// ArchivedMonths implements archive.Store.
func (s *ArchiveStore) ArchivedMonths(ctx context.Context, tenantID tenancy.TenantID, table string) (map[time.Time]bool, error) {
	out := map[time.Time]bool{}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select month from archives where tenant_id = $1 and table_name = $2 and state <> 'FAILED'`,
			string(tenantID), table)
		if err != nil {
			return err
		}
		ms, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
		for _, m := range ms {
			out[time.Date(m.Year(), m.Month(), 1, 0, 0, 0, 0, time.UTC)] = true
		}
		return err
	})
	return out, err
}

// Restore implements archive.Store. The examiner's copy is written once per archive: a
// second restore of the same archive keeps the rows already there (the application may not
// delete them) and only records the restore again.
func (s *ArchiveStore) Restore(ctx context.Context, tenantID tenancy.TenantID, id string, rows [][]byte, at time.Time, ev audit.Event) error {
	if !isUUID(id) {
		return apperr.NotFoundf("archive not found")
	}
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var have int64
		if err := tx.QueryRow(ctx, `select count(*) from archive_restored_rows where tenant_id = $1 and archive_id = $2::uuid`,
			string(tenantID), id).Scan(&have); err != nil {
			return err
		}
		if have == 0 {
			// COPY is refused under row-level security: batches of an unnest insert instead.
			const chunk = 5000
			for start := 0; start < len(rows); start += chunk {
				part := rows[start:min(start+chunk, len(rows))]
				texts := make([]string, len(part))
				for i, r := range part {
					texts[i] = string(r)
				}
				if _, err := tx.Exec(ctx, `insert into archive_restored_rows (tenant_id, archive_id, row_number, row)
					select $1, $2::uuid, $3 + u.n, u.r::jsonb from unnest($4::text[]) with ordinality as u(r, n)`,
					string(tenantID), id, int64(start), texts); err != nil {
					return fmt.Errorf("insert restored rows: %w", err)
				}
			}
		} else if have != int64(len(rows)) {
			return apperr.Newf(apperr.Conflict, "the examiner's copy has %d rows, the archive %d", have, len(rows))
		}
		tag, err := tx.Exec(ctx, `update archives set restored_at = $3, restored_rows = $4 where tenant_id = $1 and id = $2::uuid`,
			string(tenantID), id, at, int64(len(rows)))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return apperr.NotFoundf("archive not found")
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// ListRestoredRows implements archive.Store: the rows in archive order.
func (s *ArchiveStore) ListRestoredRows(ctx context.Context, tenantID tenancy.TenantID, id string, p paging.Params) (paging.Result[[]byte], error) {
	res := paging.Result[[]byte]{Page: p.Page, Limit: p.Limit, Items: [][]byte{}}
	if !isUUID(id) {
		return res, apperr.NotFoundf("archive not found")
	}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var restored *int64
		if err := tx.QueryRow(ctx, `select restored_rows from archives where tenant_id = $1 and id = $2::uuid`, string(tenantID), id).
			Scan(&restored); err != nil {
			return mapErr(err, "archive")
		}
		if restored == nil {
			return apperr.New(apperr.Conflict, "the archive has not been restored (POST /api/v1/archives/{id}/restore)")
		}
		res.Total = int(*restored)
		rows, err := tx.Query(ctx, `select row::text from archive_restored_rows where tenant_id = $1 and archive_id = $2::uuid
			order by row_number limit $3 offset $4`, string(tenantID), id, p.Limit, p.Offset())
		if err != nil {
			return err
		}
		rs, err := pgx.CollectRows(rows, pgx.RowTo[string])
		for _, r := range rs {
			res.Items = append(res.Items, []byte(r))
		}
		return err
	})
	return res, err
}

type holdRow struct {
	ID          string     `db:"id"`
	TenantID    string     `db:"tenant_id"`
	SubjectType string     `db:"subject_type"`
	SubjectID   string     `db:"subject_id"`
	Reason      string     `db:"reason"`
	PlacedBy    string     `db:"placed_by"`
	PlacedAt    time.Time  `db:"placed_at"`
	LiftedBy    *string    `db:"lifted_by"`
	LiftedAt    *time.Time `db:"lifted_at"`
	LiftReason  *string    `db:"lift_reason"`
}

const holdColumns = `id::text, tenant_id::text, subject_type, subject_id, reason, placed_by, placed_at, lifted_by, lifted_at, lift_reason`

func toHold(r holdRow) archive.Hold {
	return archive.Hold{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), SubjectType: r.SubjectType, SubjectID: r.SubjectID,
		Reason: r.Reason, PlacedBy: r.PlacedBy, PlacedAt: r.PlacedAt, LiftedBy: deref(r.LiftedBy), LiftedAt: r.LiftedAt,
		LiftReason: deref(r.LiftReason)}
}

// PlaceHold implements archive.Store.
func (s *ArchiveStore) PlaceHold(ctx context.Context, h archive.Hold, ev audit.Event) error {
	return s.db.inTenant(ctx, h.TenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `insert into legal_holds (id, tenant_id, subject_type, subject_id, reason, placed_by, placed_at)
			values ($1, $2, $3, $4, $5, $6, $7)`, h.ID, string(h.TenantID), h.SubjectType, h.SubjectID, h.Reason, h.PlacedBy, h.PlacedAt); err != nil {
			return err
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// LiftHold implements archive.Store: NOT_FOUND for a hold of another tenant or none, CONFLICT
// for one already lifted.
func (s *ArchiveStore) LiftHold(ctx context.Context, tenantID tenancy.TenantID, id, by, reason string, at time.Time, ev func(before archive.Hold) audit.Event) (archive.Hold, error) {
	var h archive.Hold
	if !isUUID(id) {
		return h, apperr.NotFoundf("legal hold not found")
	}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select `+holdColumns+` from legal_holds where tenant_id = $1 and id = $2::uuid for update`, string(tenantID), id)
		if err != nil {
			return err
		}
		r, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[holdRow])
		if err != nil {
			return mapErr(err, "legal hold")
		}
		before := toHold(r)
		if !before.Active() {
			return apperr.New(apperr.Conflict, "the legal hold is already lifted")
		}
		if _, err := tx.Exec(ctx, `update legal_holds set lifted_by = $3, lifted_at = $4, lift_reason = $5 where tenant_id = $1 and id = $2::uuid`,
			string(tenantID), id, by, at, nullIfEmpty(reason)); err != nil {
			return err
		}
		h = before
		h.LiftedBy, h.LiftedAt, h.LiftReason = by, &at, reason
		return insertAudit(ctx, tx, ev(before), s.db.now())
	})
	return h, err
}

// ListHolds implements archive.Store: newest first.
func (s *ArchiveStore) ListHolds(ctx context.Context, tenantID tenancy.TenantID, activeOnly bool, p paging.Params) (paging.Result[archive.Hold], error) {
	res := paging.Result[archive.Hold]{Page: p.Page, Limit: p.Limit, Items: []archive.Hold{}}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `select count(*) from legal_holds where tenant_id = $1 and (not $2 or lifted_at is null)`,
			string(tenantID), activeOnly).Scan(&res.Total); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `select `+holdColumns+` from legal_holds where tenant_id = $1 and (not $2 or lifted_at is null)
			order by placed_at desc, id desc limit $3 offset $4`, string(tenantID), activeOnly, p.Limit, p.Offset())
		if err != nil {
			return err
		}
		rs, err := pgx.CollectRows(rows, pgx.RowToStructByName[holdRow])
		for _, r := range rs {
			res.Items = append(res.Items, toHold(r))
		}
		return err
	})
	return res, err
}
