package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// CountryStore implements screening.CountryStore (docs/guide/countries.md).
type CountryStore struct{ db *DB }

// NewCountryStore returns the store.
func NewCountryStore(db *DB) *CountryStore { return &CountryStore{db: db} }

// countrySQL joins the global default with the tenant's overrides ($1), one row per country on
// either; the effective level is the override's when there is one.
const countrySQL = `select coalesce(o.country, d.country) as country, coalesce(o.level, d.level) as level,
	coalesce(d.level, '') as default_level, coalesce(d.source, '') as source, d.published_on, coalesce(o.level, '') as override,
	coalesce(o.reason, '') as reason, coalesce(o.updated_by::text, '') as updated_by, o.updated_at
	from country_risk_defaults d
	full join (select * from tenant_country_overrides where tenant_id = $1) o on o.country = d.country`

func scanCountry(row pgx.Row) (screening.Country, error) {
	var c screening.Country
	var pub *time.Time
	err := row.Scan(&c.Country, &c.Level, &c.Default, &c.DefaultSource, &pub, &c.Override, &c.Reason, &c.UpdatedBy, &c.UpdatedAt)
	c.PublishedOn = pub
	return c, err
}

// queueCountries adds the tenant's effective lists to a settings load (SettingsStore.Load).
func queueCountries(b *pgx.Batch, tenant tenancy.TenantID, out *screening.Settings) {
	b.Queue(countrySQL, string(tenant)).Query(func(rows pgx.Rows) error {
		levels := map[string]string{}
		for rows.Next() {
			c, err := scanCountry(rows)
			if err != nil {
				return fmt.Errorf("scan country: %w", err)
			}
			levels[c.Country] = c.Level
		}
		if err := rows.Err(); err != nil {
			return err
		}
		out.Countries = screening.NewCountryRisk(levels)
		return nil
	})
}

// Countries implements screening.CountryStore.
func (s *CountryStore) Countries(ctx context.Context, tenantID tenancy.TenantID) ([]screening.Country, error) {
	out := []screening.Country{}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, countrySQL+` order by 1`, string(tenantID))
		if err != nil {
			return fmt.Errorf("list countries: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			c, err := scanCountry(rows)
			if err != nil {
				return fmt.Errorf("scan country: %w", err)
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, err
}

func country(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, code string) (*screening.Country, error) {
	c, err := scanCountry(tx.QueryRow(ctx, `select * from (`+countrySQL+`) x where x.country = $2`, string(tenantID), code))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read country: %w", err)
	}
	return &c, nil
}

func countryAudit(c *screening.Country) any {
	if c == nil {
		return map[string]any{"level": screening.CountryNone}
	}
	m := map[string]any{"level": c.Level, "default": c.Default}
	if c.Override != "" {
		m["override"], m["reason"] = c.Override, c.Reason
	}
	return m
}

// SetOverride implements screening.CountryStore.
func (s *CountryStore) SetOverride(ctx context.Context, tenantID tenancy.TenantID, code, level, reason string, actor audit.Actor) (screening.Country, error) {
	var out screening.Country
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		before, err := country(ctx, tx, tenantID, code)
		if err != nil {
			return err
		}
		var by *string
		if actor.Type == audit.ActorUser && actor.ID != "" {
			by = &actor.ID
		}
		if _, err := tx.Exec(ctx, `insert into tenant_country_overrides (tenant_id, country, level, reason, updated_by, updated_at)
			values ($1, $2, $3, $4, $5, $6) on conflict (tenant_id, country) do update
			set level = excluded.level, reason = excluded.reason, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
			string(tenantID), code, level, reason, by, s.db.now()); err != nil {
			return fmt.Errorf("upsert country override: %w", err)
		}
		after, err := country(ctx, tx, tenantID, code)
		if err != nil {
			return err
		}
		out = *after
		return s.finish(ctx, tx, tenantID, "country.override_set", code, before, after, actor)
	})
	return out, err
}

// DeleteOverride implements screening.CountryStore.
func (s *CountryStore) DeleteOverride(ctx context.Context, tenantID tenancy.TenantID, code string, actor audit.Actor) (screening.Country, error) {
	var out screening.Country
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		before, err := country(ctx, tx, tenantID, code)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `delete from tenant_country_overrides where tenant_id = $1 and country = $2`, string(tenantID), code)
		if err != nil {
			return fmt.Errorf("delete country override: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.NotFoundf("no override of %s", code)
		}
		after, err := country(ctx, tx, tenantID, code)
		if err != nil {
			return err
		}
		out = screening.Country{Country: code, Level: screening.CountryNone}
		if after != nil {
			out = *after
		}
		return s.finish(ctx, tx, tenantID, "country.override_deleted", code, before, after, actor)
	})
	return out, err
}

// finish audits a change and announces it on SettingsChannel: every replica's settings cache
// drops the tenant, so its next screening loads the new lists (docs/guide/countries.md).
func (s *CountryStore) finish(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, action, code string, before, after *screening.Country, actor audit.Actor) error {
	if err := insertAudit(ctx, tx, audit.Event{TenantID: tenantID, Actor: actor, Action: action, ResourceType: "country",
		ResourceID: code, Before: countryAudit(before), After: countryAudit(after)}, s.db.now()); err != nil {
		return err
	}
	return notifySettings(ctx, tx, tenantID)
}
