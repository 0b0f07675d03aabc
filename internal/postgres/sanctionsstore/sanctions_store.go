package sanctionsstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
)

// SanctionsStore implements sanctions.Store: global list versions (no tenant, no RLS), tenant
// watchlists and reviewed false positives (RLS), and re-screening hits.
type SanctionsStore struct{ db *postgres.DB }

// NewSanctionsStore returns the store over db.
func NewSanctionsStore(db *postgres.DB) *SanctionsStore { return &SanctionsStore{db: db} }

var _ sanctions.Store = (*SanctionsStore)(nil)

// pgNotify sends the sanctions notification in tx: PostgreSQL delivers it at commit, never on rollback.
func pgNotify(ctx context.Context, tx pgx.Tx, payload string) error {
	if _, err := tx.Exec(ctx, "select pg_notify($1, $2)", sanctions.NotifyChannel, payload); err != nil {
		return fmt.Errorf("notify %s: %w", sanctions.NotifyChannel, err)
	}
	return nil
}

// ImportList stores a new version of a global list, makes it current and enqueues a
// re-screening job per tenant, in one transaction. A concurrent import of the same list waits
// on the list row lock, so versions stay sequential.
func (s *SanctionsStore) ImportList(ctx context.Context, v sanctions.ListVersion, entries []sanctions.Entry, rescreen sanctions.RescreenArgs) (sanctions.ListVersion, error) {
	files, err := json.Marshal(v.Files)
	if err != nil {
		return v, fmt.Errorf("marshal files: %w", err)
	}
	err = s.db.Global(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `insert into sanctions_lists (name, type, updated_at) values ($1, $2, $3)
			on conflict (name) do update set type = excluded.type`, v.List, string(v.Type), v.ImportedAt); err != nil {
			return fmt.Errorf("upsert list: %w", err)
		}
		var cur *int
		if err := tx.QueryRow(ctx, "select current_version from sanctions_lists where name = $1 for update", v.List).Scan(&cur); err != nil {
			return fmt.Errorf("lock list: %w", err)
		}
		if err := tx.QueryRow(ctx, "select coalesce(max(version), 0) + 1 from sanctions_list_versions where list = $1", v.List).Scan(&v.Version); err != nil {
			return fmt.Errorf("next version: %w", err)
		}
		var published *time.Time
		if !v.PublishedAt.IsZero() {
			published = &v.PublishedAt
		}
		if err := tx.QueryRow(ctx, `insert into sanctions_list_versions (list, version, format, source_files, entry_count, imported_at,
			published_at, source_version) values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`, v.List, v.Version, v.Format, files,
			len(entries), v.ImportedAt, published, v.SourceVersion).Scan(&v.ID); err != nil {
			return fmt.Errorf("insert version: %w", err)
		}
		rows := make([][]any, len(entries))
		for i := range entries {
			b, err := json.Marshal(entries[i])
			if err != nil {
				return fmt.Errorf("marshal entry %s: %w", entries[i].ID, err)
			}
			rows[i] = []any{v.ID, entries[i].ID, b}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"sanctions_entries"}, []string{"version_id", "entry_id", "entry"}, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("copy entries: %w", postgres.MapErr(err, "entry"))
		}
		if _, err := tx.Exec(ctx, "update sanctions_lists set current_version = $2, type = $3, updated_at = $4 where name = $1",
			v.List, v.Version, string(v.Type), v.ImportedAt); err != nil {
			return fmt.Errorf("swap version: %w", err)
		}
		// Previous versions are kept for audit; their entries are dropped to bound storage.
		if _, err := tx.Exec(ctx, `delete from sanctions_entries where version_id in
			(select id from sanctions_list_versions where list = $1 and version < $2 - 1)`, v.List, v.Version); err != nil {
			return fmt.Errorf("prune old entries: %w", err)
		}
		if rescreen.Skip {
			return pgNotify(ctx, tx, v.List)
		}
		tenants, err := allTenants(ctx, tx)
		if err != nil {
			return err
		}
		for _, t := range tenants {
			args := rescreen
			args.TenantID, args.List, args.ListVersion = string(t), v.List, v.List+"@"+strconv.Itoa(v.Version)
			if err := s.db.Enqueue(ctx, tx, args, nil); err != nil {
				return err
			}
		}
		return pgNotify(ctx, tx, v.List)
	})
	return v, err
}

func allTenants(ctx context.Context, tx pgx.Tx) ([]tenancy.TenantID, error) {
	rows, err := tx.Query(ctx, "select id::text from tenants order by id")
	if err != nil {
		return nil, fmt.Errorf("list tenants: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	out := make([]tenancy.TenantID, len(ids))
	for i, id := range ids {
		out[i] = tenancy.TenantID(id)
	}
	return out, err
}

type listVersionRow struct {
	ID         int64      `db:"id"`
	List       string     `db:"list"`
	Type       string     `db:"type"`
	Version    int        `db:"version"`
	Format     string     `db:"format"`
	Files      []byte     `db:"source_files"`
	EntryCount int        `db:"entry_count"`
	ImportedAt time.Time  `db:"imported_at"`
	Published  *time.Time `db:"published_at"`
	SourceVer  string     `db:"source_version"`
}

// CurrentVersions returns the current version of every global list.
func (s *SanctionsStore) CurrentVersions(ctx context.Context) ([]sanctions.ListVersion, error) {
	var out []sanctions.ListVersion
	err := s.db.Global(ctx, func(tx pgx.Tx) error {
		rows, err := postgres.Collect[listVersionRow](ctx, tx, postgres.Psql.Select("v.id", "v.list", "l.type", "v.version", "v.format", "v.source_files",
			"v.entry_count", "v.imported_at", "v.published_at", "v.source_version").From("sanctions_lists l").
			Join("sanctions_list_versions v ON v.list = l.name AND v.version = l.current_version").OrderBy("l.name"))
		if err != nil {
			return err
		}
		for _, r := range rows {
			v := sanctions.ListVersion{ID: r.ID, List: r.List, Type: sanctions.ListType(r.Type), Version: r.Version, Format: r.Format,
				EntryCount: r.EntryCount, ImportedAt: r.ImportedAt, SourceVersion: r.SourceVer}
			if r.Published != nil {
				v.PublishedAt = r.Published.UTC()
			}
			if err := json.Unmarshal(r.Files, &v.Files); err != nil {
				return fmt.Errorf("decode source files: %w", err)
			}
			out = append(out, v)
		}
		return nil
	})
	return out, err
}

// LoadVersion returns the entries of one version, in entry id order.
func (s *SanctionsStore) LoadVersion(ctx context.Context, versionID int64) ([]sanctions.Entry, error) {
	var out []sanctions.Entry
	err := s.db.Global(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "select entry from sanctions_entries where version_id = $1 order by entry_id", versionID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var b []byte
			if err := rows.Scan(&b); err != nil {
				return err
			}
			var e sanctions.Entry
			if err := json.Unmarshal(b, &e); err != nil {
				return fmt.Errorf("decode entry: %w", err)
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

// RecordRescreenHit inserts the hit unless recorded; for a new one it calls open in the
// transaction, and an error from open rolls the record back.
func (s *SanctionsStore) RecordRescreenHit(ctx context.Context, tenantID tenancy.TenantID, h sanctions.RescreenHit, open func() error) (bool, error) {
	fresh := false
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		q, args, err := postgres.Psql.Insert("sanctions_rescreen_hits").
			Columns("tenant_id", "subject_type", "subject_id", "entry_id", "list", "list_version", "score", "found_at").
			Values(string(tenantID), h.SubjectType, h.SubjectID, h.EntryID, h.List, h.ListVersion, h.Score, s.db.Now()).
			Suffix("ON CONFLICT DO NOTHING").ToSql()
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("insert rescreen hit: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		fresh = true
		return open()
	})
	if err != nil {
		return false, err
	}
	return fresh, nil
}

// RescreenHits lists the tenant's recorded re-screening hits (tests and operators).
func (s *SanctionsStore) RescreenHits(ctx context.Context, tenantID tenancy.TenantID) ([]sanctions.RescreenHit, error) {
	var out []sanctions.RescreenHit
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		type row struct {
			SubjectType string  `db:"subject_type"`
			SubjectID   string  `db:"subject_id"`
			EntryID     string  `db:"entry_id"`
			List        string  `db:"list"`
			ListVersion string  `db:"list_version"`
			Score       float64 `db:"score"`
		}
		rows, err := postgres.Collect[row](ctx, tx, postgres.Psql.Select("subject_type", "subject_id", "entry_id", "list", "list_version", "score").
			From("sanctions_rescreen_hits").Where(sq.Eq{"tenant_id": string(tenantID)}).OrderBy("subject_type", "subject_id", "entry_id"))
		for _, r := range rows {
			out = append(out, sanctions.RescreenHit(r))
		}
		return err
	})
	return out, err
}
