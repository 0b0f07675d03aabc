package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/lookup"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// LookupStore implements lookup.Store and the profile half of the re-screening subjects.
type LookupStore struct{ db *DB }

// NewLookupStore returns the store over db.
func NewLookupStore(db *DB) *LookupStore { return &LookupStore{db: db} }

var _ lookup.Store = (*LookupStore)(nil)

// profileData is the stored form of a profile's record (customer_profiles.data).
type profileData struct {
	Person       *identity.PersonRecord `json:"person,omitempty"`
	Company      *identity.Company      `json:"company,omitempty"`
	Shareholders []lookup.Shareholder   `json:"shareholders,omitempty"`
}

// Save implements lookup.Store.
func (s *LookupStore) Save(ctx context.Context, l lookup.Lookup, p *lookup.Profile, h wallet.Hold, ev audit.Event) (string, decimal.Decimal, error) {
	tenantID := tenancy.TenantID(l.TenantID)
	var pid string
	var bal decimal.Decimal
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		if bal, err = s.db.settleHold(ctx, tx, h, fmt.Sprintf("%s lookup %s", l.Type, l.ID)); err != nil {
			return err
		}
		if p != nil {
			data, err := json.Marshal(profileData{Person: p.Person, Company: p.Company, Shareholders: p.Shareholders})
			if err != nil {
				return fmt.Errorf("encode profile: %w", err)
			}
			// One profile per identifier: a repeated lookup refreshes the record and keeps the id.
			err = tx.QueryRow(ctx, `insert into customer_profiles (id, tenant_id, profile_type, profile_key, display_name, bvn, nin,
					rc_number, data, source, lookup_count, last_lookup_at, created_at, updated_at)
				values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11, $11, $11)
				on conflict (tenant_id, profile_key) do update set display_name = excluded.display_name, data = excluded.data,
					lookup_count = customer_profiles.lookup_count + 1, last_lookup_at = excluded.last_lookup_at,
					updated_at = excluded.updated_at
				returning id`, p.ID, l.TenantID, p.Type, p.Key(), p.DisplayName, p.BVN, p.NIN, p.RCNumber, data, p.Source,
				l.CreatedAt).Scan(&pid)
			if err != nil {
				return fmt.Errorf("save profile: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, `insert into lookups (id, tenant_id, lookup_type, query, found, profile_id, provider, provider_source,
				charged, hold_id, actor_id, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10, $11, $12)`,
			l.ID, l.TenantID, l.Type, l.Query, l.Found, nullIfEmpty(pid), l.Provider, l.ProviderSource, l.Charged.String(), nullIfEmpty(h.ID), // NULL for a waived call: no hold (wallet.Paid)
			nullIfEmpty(l.ActorID), l.CreatedAt); err != nil {
			return mapErr(err, "lookup")
		}
		if m, ok := ev.After.(map[string]any); ok && pid != "" {
			m["profileId"] = pid
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
	return pid, bal, err
}

type lookupRow struct {
	ID             string    `db:"id"`
	TenantID       string    `db:"tenant_id"`
	Type           string    `db:"lookup_type"`
	Query          string    `db:"query"`
	Found          bool      `db:"found"`
	ProfileID      *string   `db:"profile_id"`
	Provider       string    `db:"provider"`
	ProviderSource string    `db:"provider_source"`
	Charged        string    `db:"charged"`
	ActorID        *string   `db:"actor_id"`
	CreatedAt      time.Time `db:"created_at"`
}

// Lookups implements lookup.Store.
func (s *LookupStore) Lookups(ctx context.Context, tenantID tenancy.TenantID, f lookup.ListParams, p paging.Params) (paging.Result[lookup.Lookup], error) {
	res := paging.Result[lookup.Lookup]{Page: p.Page, Limit: p.Limit, Items: []lookup.Lookup{}}
	where := sq.Eq{"tenant_id": string(tenantID)}
	if f.Type != "" {
		where["lookup_type"] = f.Type
	}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := count(ctx, tx, psql.Select("count(*)").From("lookups").Where(where))
		if err != nil {
			return err
		}
		rows, err := collect[lookupRow](ctx, tx, psql.Select("id", "tenant_id::text AS tenant_id", "lookup_type", "query", "found",
			"profile_id", "provider", "provider_source", "charged::text AS charged", "actor_id::text AS actor_id", "created_at").
			From("lookups").Where(where).OrderBy("seq DESC").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, lookup.Lookup{ID: r.ID, TenantID: r.TenantID, Type: r.Type, Query: r.Query, Found: r.Found,
				ProfileID: deref(r.ProfileID), Provider: r.Provider, ProviderSource: r.ProviderSource, Charged: dec(r.Charged),
				ActorID: deref(r.ActorID), CreatedAt: r.CreatedAt})
		}
		return nil
	})
	return res, err
}

const profileColumns = `id, tenant_id::text AS tenant_id, profile_type, display_name, bvn, nin, rc_number, data, source, lookup_count,
	last_lookup_at, created_at, updated_at`

type profileRow struct {
	ID           string    `db:"id"`
	TenantID     string    `db:"tenant_id"`
	Type         string    `db:"profile_type"`
	DisplayName  string    `db:"display_name"`
	BVN          string    `db:"bvn"`
	NIN          string    `db:"nin"`
	RCNumber     string    `db:"rc_number"`
	Data         []byte    `db:"data"`
	Source       string    `db:"source"`
	LookupCount  int       `db:"lookup_count"`
	LastLookupAt time.Time `db:"last_lookup_at"`
	CreatedAt    time.Time `db:"created_at"`
	UpdatedAt    time.Time `db:"updated_at"`
}

func toProfile(r profileRow) (lookup.Profile, error) {
	p := lookup.Profile{ID: r.ID, TenantID: r.TenantID, Type: r.Type, DisplayName: r.DisplayName, BVN: r.BVN, NIN: r.NIN,
		RCNumber: r.RCNumber, Source: r.Source, LookupCount: r.LookupCount, LastLookupAt: r.LastLookupAt, CreatedAt: r.CreatedAt,
		UpdatedAt: r.UpdatedAt}
	var d profileData
	if err := json.Unmarshal(r.Data, &d); err != nil {
		return p, fmt.Errorf("decode profile %s: %w", r.ID, err)
	}
	p.Person, p.Company, p.Shareholders = d.Person, d.Company, d.Shareholders
	return p, nil
}

// Profiles implements lookup.Store.
func (s *LookupStore) Profiles(ctx context.Context, tenantID tenancy.TenantID, f lookup.ListParams, p paging.Params) (paging.Result[lookup.Profile], error) {
	res := paging.Result[lookup.Profile]{Page: p.Page, Limit: p.Limit, Items: []lookup.Profile{}}
	where := sq.Eq{"tenant_id": string(tenantID)}
	if f.Type != "" {
		where["profile_type"] = f.Type
	}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := count(ctx, tx, psql.Select("count(*)").From("customer_profiles").Where(where))
		if err != nil {
			return err
		}
		rows, err := collect[profileRow](ctx, tx, psql.Select(profileColumns).From("customer_profiles").Where(where).
			OrderBy("updated_at DESC", "id DESC").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			pr, err := toProfile(r)
			if err != nil {
				return err
			}
			res.Items = append(res.Items, pr)
		}
		return nil
	})
	return res, err
}

// Profile implements lookup.Store.
func (s *LookupStore) Profile(ctx context.Context, tenantID tenancy.TenantID, id string) (lookup.Profile, error) {
	var p lookup.Profile
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		r, err := one[profileRow](ctx, tx, psql.Select(profileColumns).From("customer_profiles").
			Where(sq.Eq{"tenant_id": string(tenantID), "id": id}), "customer profile")
		if err != nil {
			return err
		}
		p, err = toProfile(r)
		return err
	})
	return p, err
}
