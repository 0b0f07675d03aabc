package postgres

import (
	"context"
	"fmt"
	"log/slog"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// InterdictionChannel is the LISTEN/NOTIFY channel on which a change of a tenant's interdictions
// in force (a confirmation, a lift requested, approved or rejected) is announced, in the
// changing transaction; the payload is the tenant id. Every replica's InterdictionCache drops
// that tenant's entry, so the next screening reads the new state (docs/guide/interdictions.md).
const InterdictionChannel = "complyd_interdictions"

// inForce are the statuses screening enforces: a lift awaiting its approver is still in force.
var inForce = []string{cases.InterdictionConfirmed, cases.InterdictionLiftRequested}

func notifyInterdictions(ctx context.Context, tx pgx.Tx, tenant tenancy.TenantID) error {
	_, err := tx.Exec(ctx, "select pg_notify($1, $2)", InterdictionChannel, string(tenant))
	return err
}

// queuedInterdictionRow is an interdiction with its case's number.
type queuedInterdictionRow struct {
	interdictionRow
	CaseNumber string `db:"case_number"`
}

const caseNumberOfInterdiction = "(select c.case_number from cases c where c.id = case_interdictions.case_id) as case_number"

// InterdictionStore reads interdictions across cases: the queue and the screening cache's load.
type InterdictionStore struct{ db *DB }

// NewInterdictionStore returns the store.
func NewInterdictionStore(db *DB) *InterdictionStore { return &InterdictionStore{db: db} }

// ListInterdictions implements cases.InterdictionQueue.
func (s *InterdictionStore) ListInterdictions(ctx context.Context, tenantID tenancy.TenantID, f cases.InterdictionFilter, p paging.Params) (paging.Result[cases.Interdiction], error) {
	where := sq.And{sq.Eq{"tenant_id": string(tenantID)}}
	if f.Status != "" {
		where = append(where, sq.Eq{"status": f.Status})
	}
	if f.InForce {
		where = append(where, sq.Eq{"status": inForce})
	}
	if f.Action != "" {
		where = append(where, sq.Eq{"action": f.Action})
	}
	if f.AccountNumber != "" {
		where = append(where, sq.Eq{"account_number": f.AccountNumber})
	}
	if f.CaseID != "" {
		where = append(where, sq.Eq{"case_id": f.CaseID})
	}
	out := paging.Result[cases.Interdiction]{Items: []cases.Interdiction{}, Page: p.Page, Limit: p.Limit}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := count(ctx, tx, psql.Select("count(*)").From("case_interdictions").Where(where))
		if err != nil {
			return err
		}
		rows, err := collect[queuedInterdictionRow](ctx, tx, psql.Select(interdictionColumns, caseNumberOfInterdiction).
			From("case_interdictions").Where(where).OrderBy("requested_at DESC", "id DESC").
			Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		out.Total = n
		for _, r := range rows {
			in := toInterdiction(r.interdictionRow)
			in.CaseNumber = r.CaseNumber
			out.Items = append(out.Items, in)
		}
		return nil
	})
	return out, err
}

// QueuedInterdiction implements cases.InterdictionQueue.
func (s *InterdictionStore) QueuedInterdiction(ctx context.Context, tenantID tenancy.TenantID, id string) (*cases.Interdiction, error) {
	var in cases.Interdiction
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		r, err := one[queuedInterdictionRow](ctx, tx, psql.Select(interdictionColumns, caseNumberOfInterdiction).
			From("case_interdictions").Where(sq.Eq{"tenant_id": string(tenantID), "id": id}), "interdiction")
		in = toInterdiction(r.interdictionRow)
		in.CaseNumber = r.CaseNumber
		return err
	})
	if err != nil {
		return nil, err
	}
	return &in, nil
}

// Restrictions loads the tenant's interdictions in force (one indexed query).
func (s *InterdictionStore) Restrictions(ctx context.Context, tenantID tenancy.TenantID) (screening.Restrictions, error) {
	out := screening.Restrictions{}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := collect[queuedInterdictionRow](ctx, tx, psql.Select(interdictionColumns, caseNumberOfInterdiction).
			From("case_interdictions").Where(sq.Eq{"tenant_id": string(tenantID), "status": inForce}).OrderBy("requested_at", "id"))
		for _, r := range rows {
			out[r.AccountNumber] = append(out[r.AccountNumber], screening.Restriction{InterdictionID: r.ID, CaseID: r.CaseID,
				CaseNumber: r.CaseNumber, Action: r.Action, AccountNumber: r.AccountNumber, Reference: r.Reference})
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load interdictions: %w", err)
	}
	return out, nil
}

// InterdictionCache keeps each tenant's interdictions in force in memory, so that a screening
// checks its accounts without a database read (screening.InterdictionSource). A tenant's entry
// is loaded on its first screening and kept until InterdictionChannel announces a change of the
// tenant (every replica, within milliseconds of the commit), or this process changed one itself
// (Invalidate, immediately after the commit). Unlike the settings cache it has no TTL: an
// interdiction is a legal order, and a stale "not frozen" must not survive a lost notification,
// so the whole cache is also emptied on every (re)connection of the listener.
type InterdictionCache struct {
	load func(context.Context, tenancy.TenantID) (screening.Restrictions, error)
	log  *slog.Logger

	entries *tenantEntries[screening.Restrictions]
}

// NewInterdictionCache returns a cache over store.
func NewInterdictionCache(store *InterdictionStore, log *slog.Logger) *InterdictionCache {
	return &InterdictionCache{load: store.Restrictions, log: log, entries: newTenantEntries[screening.Restrictions]()}
}

// Restrictions implements screening.InterdictionSource.
func (c *InterdictionCache) Restrictions(ctx context.Context, tenant tenancy.TenantID) (screening.Restrictions, error) {
	if r, ok := c.entries.get(tenant); ok {
		return r, nil
	}
	return c.entries.load(ctx, tenant, func(ctx context.Context) (screening.Restrictions, error) { return c.load(ctx, tenant) })
}

// Invalidate drops tenant's entry ("" drops every entry).
func (c *InterdictionCache) Invalidate(tenant tenancy.TenantID) { c.entries.invalidate(tenant) }

// Listen follows InterdictionChannel on a dedicated connection until ctx ends (the settings
// cache's listen loop), invalidating the announced tenants and everything on (re)connection.
func (c *InterdictionCache) Listen(ctx context.Context, db *DB, ready func()) {
	listen(ctx, db, InterdictionChannel, c.log, ready, func(payload string) { c.Invalidate(tenancy.TenantID(payload)) },
		func() { c.Invalidate("") })
}
