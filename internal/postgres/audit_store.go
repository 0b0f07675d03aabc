package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// insertAudit writes ev in tx; every store change calls it in the transaction of the change.
func insertAudit(ctx context.Context, tx writer, ev audit.Event, now time.Time) error {
	if ev.Action == "" {
		return nil
	}
	before, err := jsonOrNil(ev.Before)
	if err != nil {
		return err
	}
	after, err := jsonOrNil(ev.After)
	if err != nil {
		return err
	}
	actorType := ev.Actor.Type
	if actorType == "" {
		actorType = audit.ActorSystem
	}
	_, err = tx.Exec(ctx, insertAuditSQL, uuid.Must(uuid.NewV7()).String(), string(ev.TenantID), nullIfEmpty(ev.Actor.ID), actorType, ev.Action,
		ev.ResourceType, nullIfEmpty(ev.ResourceID), before, after, nullIfEmpty(ev.Actor.IP), nullIfEmpty(ev.Actor.RequestID), now)
	return err
}

func jsonOrNil(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal audit state: %w", err)
	}
	return b, nil
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

type auditRow struct {
	ID           string    `db:"id"`
	TenantID     string    `db:"tenant_id"`
	ActorID      *string   `db:"actor_id"`
	ActorType    string    `db:"actor_type"`
	Action       string    `db:"action"`
	ResourceType string    `db:"resource_type"`
	ResourceID   *string   `db:"resource_id"`
	Before       []byte    `db:"before"`
	After        []byte    `db:"after"`
	IPAddress    *string   `db:"ip_address"`
	RequestID    *string   `db:"request_id"`
	CreatedAt    time.Time `db:"created_at"`
}

func toAuditEvent(r auditRow) audit.Event {
	ev := audit.Event{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), Action: r.Action, ResourceType: r.ResourceType,
		CreatedAt: r.CreatedAt, Actor: audit.Actor{Type: r.ActorType}}
	ev.Actor.ID = deref(r.ActorID)
	ev.Actor.IP = deref(r.IPAddress)
	ev.Actor.RequestID = deref(r.RequestID)
	ev.ResourceID = deref(r.ResourceID)
	if r.Before != nil {
		var m map[string]any
		if json.Unmarshal(r.Before, &m) == nil {
			ev.Before = m
		}
	}
	if r.After != nil {
		var m map[string]any
		if json.Unmarshal(r.After, &m) == nil {
			ev.After = m
		}
	}
	return ev
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ListAudit pages the tenant's audit log, newest first, retained rows of dropped partitions
// too (audit_events_kept, migration 0049).
func (db *DB) ListAudit(ctx context.Context, tenantID tenancy.TenantID, f audit.ListParams, p paging.Params) (paging.Result[audit.Event], error) {
	res := paging.Result[audit.Event]{Page: p.Page, Limit: p.Limit, Items: []audit.Event{}}
	where := sq.And{sq.Eq{"tenant_id": string(tenantID)}}
	if f.ActorID != "" {
		where = append(where, sq.Eq{"actor_id": f.ActorID})
	}
	if f.Action != "" {
		where = append(where, sq.Eq{"action": f.Action})
	}
	if f.ResourceType != "" {
		where = append(where, sq.Eq{"resource_type": f.ResourceType})
	}
	if f.From != nil {
		where = append(where, sq.GtOrEq{"created_at": *f.From})
	}
	if f.To != nil {
		where = append(where, sq.Lt{"created_at": *f.To})
	}
	err := db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := count(ctx, tx, psql.Select("count(*)").From("audit_events_kept").Where(where))
		if err != nil {
			return err
		}
		rows, err := collect[auditRow](ctx, tx, psql.Select("*").From("audit_events_kept").Where(where).
			OrderBy("created_at DESC", "id DESC").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, toAuditEvent(r))
		}
		return nil
	})
	return res, err
}
