package screenstore

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// The CSV exports (docs/guide/dashboard.md "Exports") read a filtered list in keyset pages: each page
// is one short tenant transaction returning the rows after a cursor (the last row's sort key),
// newest first like the lists. No page holds more than limit rows, no transaction stays open
// while the client downloads, and a row inserted during the export above the cursor is simply
// not part of it. The cells are formatted by PostgreSQL (text casts, ISO 8601 UTC timestamps).

// ExportStore pages the exported lists.
type ExportStore struct{ db *postgres.DB }

// NewExportStore returns the store.
func NewExportStore(db *postgres.DB) *ExportStore { return &ExportStore{db: db} }

// isoUTC formats a timestamptz column as ISO 8601 UTC with microseconds.
func isoUTC(col string) string {
	return `to_char(` + col + ` at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
}

// exportCursor is the sort key of the last row exported: its time and id.
type exportCursor struct {
	At time.Time
	ID string
}

func (c exportCursor) String() string {
	return base64.RawURLEncoding.EncodeToString([]byte(c.At.UTC().Format(time.RFC3339Nano) + "|" + c.ID))
}

func parseCursor(s string) (*exportCursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, apperr.Invalid("cursor", "malformed cursor")
	}
	at, id, ok := strings.Cut(string(b), "|")
	t, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil {
		return nil, apperr.Invalid("cursor", "malformed cursor")
	}
	return &exportCursor{At: t, ID: id}, nil
}

// page reads one page: the row's cells are the selected text columns after the first two (the
// sort key: a timestamptz and an id as text).
func (s *ExportStore) page(ctx context.Context, tenant tenancy.TenantID, b sq.SelectBuilder, limit int) ([][]string, string, error) {
	var out [][]string
	var last exportCursor
	err := s.db.InTenantRead(ctx, tenant, func(tx pgx.Tx) error {
		q, args, err := b.Limit(uint64(limit)).ToSql() //nolint:gosec // limit is positive
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				return err
			}
			last.At, _ = vals[0].(time.Time)
			last.ID, _ = vals[1].(string)
			cells := make([]string, len(vals)-2)
			for i, v := range vals[2:] {
				if v != nil {
					cells[i] = fmt.Sprint(v)
				}
			}
			out = append(out, cells)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, "", err
	}
	if len(out) < limit {
		return out, "", nil
	}
	return out, last.String(), nil
}

// keyset adds "after the cursor, newest first" on (at, id) to b.
func keyset(b sq.SelectBuilder, at, id string, after *exportCursor) sq.SelectBuilder {
	if after != nil {
		b = b.Where("("+at+", "+id+") < (?, ?)", after.At, after.ID)
	}
	return b.OrderBy(at+" desc", id+" desc")
}

// TransactionHeader names the columns of ExportTransactions.
var TransactionHeader = []string{"id", "externalId", "transactionTimestamp", "type", "channel", "amount", "currency",
	"amountNgn", "senderAccountNumber", "senderName", "receiverAccountNumber", "receiverName", "receiverCountry",
	"outcome", "riskLevel", "aggregateScore", "narration", "createdAt"}

// ExportTransactions returns the page of the tenant's transactions matching f (the filters of
// GET /transactions) after cursor, and the next cursor ("" at the end). Errors:
// VALIDATION_ERROR (cursor), INTERNAL.
func (s *ExportStore) ExportTransactions(ctx context.Context, tenant tenancy.TenantID, f screening.ListParams, cursor string, limit int) ([][]string, string, error) {
	after, err := parseCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	where := transactionFilter(tenant, f)
	b := postgres.Psql.Select("t.transaction_timestamp", "t.id::text", "t.id::text", "t.external_id", isoUTC("t.transaction_timestamp"),
		"t.type", "t.channel", "t.amount::text", "t.currency", "t.amount_ngn::text", "t.sender_account_number", "t.sender_name",
		"t.receiver_account_number", "t.receiver_name", "t.receiver_country", "t.outcome", "t.risk_level",
		"t.aggregate_score::text", "t.narration", isoUTC("t.created_at")).From("transactions t").Where(where)
	rows, next, err := s.page(ctx, tenant, keyset(b, "t.transaction_timestamp", "t.id", uuidCursor(after)), limit)
	if err != nil {
		return nil, "", fmt.Errorf("export transactions: %w", err)
	}
	return rows, next, nil
}

// uuidCursor keeps a transactions cursor comparable with the uuid column: a malformed id would
// fail the cast, so it is refused as the zero uuid (the cursor came from this store anyway).
func uuidCursor(c *exportCursor) *exportCursor {
	if c == nil {
		return nil
	}
	if len(c.ID) != 36 {
		c.ID = "00000000-0000-0000-0000-000000000000"
	}
	return c
}

// CaseHeader names the columns of ExportCases.
var CaseHeader = []string{"id", "caseNumber", "type", "priority", "status", "title", "assignedTo", "assigneeEmail",
	"relatedTransactionId", "relatedKycApplicationId", "tags", "resolvedAt", "createdAt", "updatedAt"}

// ExportCases returns the page of the tenant's cases matching f (the filters of GET /cases;
// newest first whatever f.Sort says) after cursor. Errors: VALIDATION_ERROR (cursor), INTERNAL.
func (s *ExportStore) ExportCases(ctx context.Context, tenant tenancy.TenantID, f cases.ListParams, cursor string, limit int) ([][]string, string, error) {
	after, err := parseCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	where := sq.And{sq.Eq{"c.tenant_id": string(tenant)}}
	if f.Status != "" {
		where = append(where, sq.Eq{"c.status": f.Status})
	}
	if f.Type != "" {
		where = append(where, sq.Eq{"c.type": f.Type})
	}
	if f.Priority != "" {
		where = append(where, sq.Eq{"c.priority": f.Priority})
	}
	switch {
	case f.AssigneeID != "" && f.IncludeUnassigned:
		where = append(where, sq.Or{sq.Expr("c.assigned_to::text = ?", f.AssigneeID), sq.Expr("c.assigned_to IS NULL")})
	case f.AssigneeID != "":
		where = append(where, sq.Expr("c.assigned_to::text = ?", f.AssigneeID))
	case f.IncludeUnassigned:
		where = append(where, sq.Expr("c.assigned_to IS NULL"))
	}
	b := postgres.Psql.Select("c.created_at", "c.id", "c.id", "c.case_number", "c.type", "c.priority", "c.status", "c.title",
		"c.assigned_to::text", "u.email", "c.related_transaction_id", "c.related_kyc_application_id", "array_to_string(c.tags, ';')",
		isoUTC("c.resolved_at"), isoUTC("c.created_at"), isoUTC("c.updated_at")).
		From("cases c").LeftJoin("users u on u.tenant_id = c.tenant_id and u.id = c.assigned_to").Where(where)
	rows, next, err := s.page(ctx, tenant, keyset(b, "c.created_at", "c.id", after), limit)
	if err != nil {
		return nil, "", fmt.Errorf("export cases: %w", err)
	}
	return rows, next, nil
}

// AuditHeader names the columns of ExportAudit.
var AuditHeader = []string{"id", "createdAt", "actorId", "actorType", "action", "resourceType", "resourceId", "ipAddress",
	"requestId", "before", "after"}

// ExportAudit returns the page of the tenant's audit events matching f after cursor. Errors:
// VALIDATION_ERROR (cursor), INTERNAL.
func (s *ExportStore) ExportAudit(ctx context.Context, tenant tenancy.TenantID, f audit.ListParams, cursor string, limit int) ([][]string, string, error) {
	after, err := parseCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	where := auditWhere(tenant, f)
	b := postgres.Psql.Select("a.created_at", "a.id::text", "a.id::text", isoUTC("a.created_at"), "a.actor_id::text", "a.actor_type", "a.action",
		"a.resource_type", "a.resource_id", "a.ip_address", "a.request_id", "a.before::text", "a.after::text").
		From("audit_events_kept a").Where(where) // with the rows retained from dropped partitions (migration 0049), as the list
	rows, next, err := s.page(ctx, tenant, keyset(b, "a.created_at", "a.id", uuidCursor(after)), limit)
	if err != nil {
		return nil, "", fmt.Errorf("export audit: %w", err)
	}
	return rows, next, nil
}

// auditWhere is the audit log's filters on audit_events aliased a.
func auditWhere(tenant tenancy.TenantID, f audit.ListParams) sq.And {
	where := sq.And{sq.Eq{"a.tenant_id": string(tenant)}}
	if f.ActorID != "" {
		where = append(where, sq.Expr("a.actor_id::text = ?", f.ActorID))
	}
	if f.Action != "" {
		where = append(where, sq.Eq{"a.action": f.Action})
	}
	if f.ResourceType != "" {
		where = append(where, sq.Eq{"a.resource_type": f.ResourceType})
	}
	if f.From != nil {
		where = append(where, sq.GtOrEq{"a.created_at": *f.From})
	}
	if f.To != nil {
		where = append(where, sq.Lt{"a.created_at": *f.To})
	}
	return where
}
