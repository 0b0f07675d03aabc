package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// Load reads a tenant's screening settings in one round trip.
func (s *SettingsStore) Load(ctx context.Context, tenant tenancy.TenantID) (screening.Settings, error) {
	out := screening.Settings{Config: tenancy.Config{TenantID: tenant, FXRates: map[string]tenancy.FXRate{}}}
	c := &out.Config
	b := &pgx.Batch{}
	b.Queue("begin read only")
	b.Queue("select set_config('app.tenant_id', $1, true)", string(tenant))
	b.Queue(`select kyc_trust_mode, kyc_fallback_mode, provider_mode, tier_limits, expiry_days, mfa_required,
		sanctions_lists_missing from tenant_settings where tenant_id = $1`, string(tenant)).QueryRow(func(row pgx.Row) error {
		var limits map[string]string
		if err := row.Scan(&c.KYCTrustMode, &c.KYCFallbackMode, &c.ProviderMode, &limits, &c.ExpiryDays, &c.MFARequired,
			&c.SanctionsListsMissing); err != nil {
			return mapErr(err, "tenant")
		}
		c.TierLimits = map[string]decimal.Decimal{}
		for k, v := range limits {
			d, err := decimal.NewFromString(v)
			if err != nil {
				return fmt.Errorf("tier limit %s: %w", k, err)
			}
			c.TierLimits[k] = d
		}
		return nil
	})
	b.Queue(`select currency, rate_to_ngn::text, updated_at from tenant_fx_rates where tenant_id = $1`, string(tenant)).
		Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var r tenancy.FXRate
				var rate string
				if err := rows.Scan(&r.Currency, &rate, &r.UpdatedAt); err != nil {
					return err
				}
				r.RateToNGN = decimal.RequireFromString(rate)
				c.FXRates[r.Currency] = r
			}
			return rows.Err()
		})
	b.Queue(ruleSelect+` where tenant_id = $1 order by created_at, id`, string(tenant)).Query(func(rows pgx.Rows) error {
		rs, err := pgx.CollectRows(rows, pgx.RowToStructByName[ruleRow])
		for _, r := range rs {
			out.Rules = append(out.Rules, r.rule())
		}
		return err
	})
	queueCountries(b, tenant, &out)    // country_store.go
	queueEngineConfig(b, tenant, &out) // engine_config_store.go
	queueShadows(b, tenant, &out)      // rule_draft_store.go
	b.Queue("commit")
	if err := s.db.Pool.SendBatch(ctx, b).Close(); err != nil {
		return screening.Settings{}, fmt.Errorf("load screening settings: %w", err)
	}
	return out, nil
}

// SetTrustMode changes kyc_trust_mode. Errors: NOT_FOUND.
func (s *SettingsStore) SetTrustMode(ctx context.Context, tenant tenancy.TenantID, mode string, actor audit.Actor) error {
	now := s.db.now()
	return s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		var prev string
		if err := tx.QueryRow(ctx, `select kyc_trust_mode from tenant_settings where tenant_id = $1 for update`, string(tenant)).
			Scan(&prev); err != nil {
			return mapErr(err, "tenant")
		}
		if _, err := tx.Exec(ctx, `update tenant_settings set kyc_trust_mode = $2, updated_at = $3 where tenant_id = $1`,
			string(tenant), mode, now); err != nil {
			return fmt.Errorf("update trust mode: %w", err)
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: "tenant.kyc_config.updated",
			ResourceType: "tenant", ResourceID: string(tenant), Before: map[string]any{"kycTrustMode": prev},
			After: map[string]any{"kycTrustMode": mode}}, now); err != nil {
			return err
		}
		return notifySettings(ctx, tx, tenant)
	})
}

// SetDocumentReviewFourEyes changes document_review_four_eyes (docs/guide/kyc.md "Document review"),
// audited. KYC reads it in the review's own transaction, so no cache is involved. Errors:
// NOT_FOUND.
func (s *SettingsStore) SetDocumentReviewFourEyes(ctx context.Context, tenant tenancy.TenantID, on bool, actor audit.Actor) error {
	now := s.db.now()
	return s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		var prev bool
		if err := tx.QueryRow(ctx, `select document_review_four_eyes from tenant_settings where tenant_id = $1 for update`,
			string(tenant)).Scan(&prev); err != nil {
			return mapErr(err, "tenant")
		}
		if _, err := tx.Exec(ctx, `update tenant_settings set document_review_four_eyes = $2, updated_at = $3 where tenant_id = $1`,
			string(tenant), on, now); err != nil {
			return fmt.Errorf("update document review four eyes: %w", err)
		}
		return insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: "tenant.kyc_config.updated",
			ResourceType: "tenant", ResourceID: string(tenant), Before: map[string]any{"documentReviewFourEyes": prev},
			After: map[string]any{"documentReviewFourEyes": on}}, now)
	})
}

// SetApprovalEvidenceRequired changes approval_evidence_required (docs/guide/kyc.md "Evidence and
// overrides"), audited. KYC and KYB read it with the application they approve, so no cache is
// involved. Errors: NOT_FOUND.
func (s *SettingsStore) SetApprovalEvidenceRequired(ctx context.Context, tenant tenancy.TenantID, on bool, actor audit.Actor) error {
	now := s.db.now()
	return s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		var prev bool
		if err := tx.QueryRow(ctx, `select approval_evidence_required from tenant_settings where tenant_id = $1 for update`,
			string(tenant)).Scan(&prev); err != nil {
			return mapErr(err, "tenant")
		}
		if _, err := tx.Exec(ctx, `update tenant_settings set approval_evidence_required = $2, updated_at = $3 where tenant_id = $1`,
			string(tenant), on, now); err != nil {
			return fmt.Errorf("update approval evidence required: %w", err)
		}
		return insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: "tenant.kyc_config.updated",
			ResourceType: "tenant", ResourceID: string(tenant), Before: map[string]any{"approvalEvidenceRequired": prev},
			After: map[string]any{"approvalEvidenceRequired": on}}, now)
	})
}

// ScreeningPolicy returns sanctions_lists_missing. Errors: NOT_FOUND.
func (s *SettingsStore) ScreeningPolicy(ctx context.Context, tenant tenancy.TenantID) (string, error) {
	var policy string
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		return mapErr(tx.QueryRow(ctx, `select sanctions_lists_missing from tenant_settings where tenant_id = $1`, string(tenant)).
			Scan(&policy), "tenant")
	})
	return policy, err
}

// SetScreeningPolicy changes sanctions_lists_missing, audited and announced to every replica.
// Errors: NOT_FOUND.
func (s *SettingsStore) SetScreeningPolicy(ctx context.Context, tenant tenancy.TenantID, policy string, actor audit.Actor) error {
	now := s.db.now()
	return s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		var prev string
		if err := tx.QueryRow(ctx, `select sanctions_lists_missing from tenant_settings where tenant_id = $1 for update`,
			string(tenant)).Scan(&prev); err != nil {
			return mapErr(err, "tenant")
		}
		if _, err := tx.Exec(ctx, `update tenant_settings set sanctions_lists_missing = $2, updated_at = $3 where tenant_id = $1`,
			string(tenant), policy, now); err != nil {
			return fmt.Errorf("update screening policy: %w", err)
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: "tenant.screening_policy.updated",
			ResourceType: "tenant", ResourceID: string(tenant), Before: map[string]any{"sanctionsListsMissing": prev},
			After: map[string]any{"sanctionsListsMissing": policy}}, now); err != nil {
			return err
		}
		return notifySettings(ctx, tx, tenant)
	})
}

// UpsertFXRates inserts or replaces rates and returns every rate of the tenant.
func (s *SettingsStore) UpsertFXRates(ctx context.Context, tenant tenancy.TenantID, rates []tenancy.FXRate, actor audit.Actor) ([]tenancy.FXRate, error) {
	now := s.db.now()
	var out []tenancy.FXRate
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		after := map[string]string{}
		for _, r := range rates {
			if _, err := tx.Exec(ctx, `insert into tenant_fx_rates (tenant_id, currency, rate_to_ngn, updated_at) values ($1, $2, $3::numeric, $4)
				on conflict (tenant_id, currency) do update set rate_to_ngn = excluded.rate_to_ngn, updated_at = excluded.updated_at`,
				string(tenant), r.Currency, r.RateToNGN.String(), now); err != nil {
				return fmt.Errorf("upsert fx rate: %w", err)
			}
			after[r.Currency] = r.RateToNGN.String()
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: "tenant.fx_rates.updated",
			ResourceType: "tenant", ResourceID: string(tenant), After: after}, now); err != nil {
			return err
		}
		if err := notifySettings(ctx, tx, tenant); err != nil {
			return err
		}
		var err error
		out, err = fxRates(ctx, tx, tenant)
		return err
	})
	return out, err
}

// FXRates returns the tenant's rates by currency.
func (s *SettingsStore) FXRates(ctx context.Context, tenant tenancy.TenantID) ([]tenancy.FXRate, error) {
	var out []tenancy.FXRate
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) (err error) {
		out, err = fxRates(ctx, tx, tenant)
		return err
	})
	return out, err
}

func fxRates(ctx context.Context, tx pgx.Tx, tenant tenancy.TenantID) ([]tenancy.FXRate, error) {
	rows, err := tx.Query(ctx, `select currency, rate_to_ngn::text, updated_at from tenant_fx_rates where tenant_id = $1 order by currency`,
		string(tenant))
	if err != nil {
		return nil, err
	}
	out := []tenancy.FXRate{}
	for rows.Next() {
		var r tenancy.FXRate
		var rate string
		if err := rows.Scan(&r.Currency, &rate, &r.UpdatedAt); err != nil {
			rows.Close()
			return nil, err
		}
		r.RateToNGN = decimal.RequireFromString(rate)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Limits are the tenant's tier limits and KYC expiry (docs/design/design-choices.md §7, §11).
type Limits struct {
	TierLimits map[string]decimal.Decimal
	ExpiryDays int
}

// Limits returns the tenant's tier limits and KYC expiry in days.
func (s *SettingsStore) Limits(ctx context.Context, tenant tenancy.TenantID) (map[string]decimal.Decimal, int, error) {
	var out Limits
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) (err error) {
		out, err = readLimits(ctx, tx, tenant, false)
		return err
	})
	return out.TierLimits, out.ExpiryDays, err
}

func readLimits(ctx context.Context, tx pgx.Tx, tenant tenancy.TenantID, lock bool) (Limits, error) {
	q := `select tier_limits, expiry_days from tenant_settings where tenant_id = $1`
	if lock {
		q += " for update"
	}
	var raw map[string]string
	var out Limits
	if err := tx.QueryRow(ctx, q, string(tenant)).Scan(&raw, &out.ExpiryDays); err != nil {
		return out, mapErr(err, "tenant")
	}
	out.TierLimits = map[string]decimal.Decimal{}
	for k, v := range raw {
		out.TierLimits[k] = decimal.RequireFromString(v)
	}
	return out, nil
}

// UpdateLimits changes the given tier limits and the expiry (nil keeps it).
func (s *SettingsStore) UpdateLimits(ctx context.Context, tenant tenancy.TenantID, tiers map[string]decimal.Decimal, expiryDays *int, actor audit.Actor) (map[string]decimal.Decimal, int, error) {
	now := s.db.now()
	var out Limits
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		prev, err := readLimits(ctx, tx, tenant, true)
		if err != nil {
			return err
		}
		out = Limits{TierLimits: map[string]decimal.Decimal{}, ExpiryDays: prev.ExpiryDays}
		for k, v := range prev.TierLimits {
			out.TierLimits[k] = v
		}
		for k, v := range tiers {
			out.TierLimits[k] = v
		}
		if expiryDays != nil {
			out.ExpiryDays = *expiryDays
		}
		if err := tenancy.ValidateTierLimits(out.TierLimits); err != nil {
			return err
		}
		raw := map[string]string{}
		for k, v := range out.TierLimits {
			raw[k] = v.String()
		}
		js, _ := json.Marshal(raw)
		if _, err := tx.Exec(ctx, `update tenant_settings set tier_limits = $2::jsonb, expiry_days = $3, updated_at = $4 where tenant_id = $1`,
			string(tenant), string(js), out.ExpiryDays, now); err != nil {
			return fmt.Errorf("update limits: %w", err)
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: "tenant.limits.updated",
			ResourceType: "tenant", ResourceID: string(tenant), Before: limitsJSON(prev), After: limitsJSON(out)}, now); err != nil {
			return err
		}
		return notifySettings(ctx, tx, tenant)
	})
	return out.TierLimits, out.ExpiryDays, err
}

func limitsJSON(l Limits) map[string]any {
	t := map[string]string{}
	for k, v := range l.TierLimits {
		t[k] = v.String()
	}
	return map[string]any{"tierLimits": t, "expiryDays": l.ExpiryDays}
}

// SettingsCache keeps each tenant's screening settings in memory: a screening reads them
// without a database round trip. An entry is dropped when SettingsChannel announces a change
// of its tenant (on every replica, LISTEN/NOTIFY), immediately on a change made through this
// process, and after TTL as a safety net.
type SettingsCache struct {
	load func(context.Context, tenancy.TenantID) (screening.Settings, error)
	ttl  time.Duration
	now  func() time.Time
	log  *slog.Logger
	// warm compiles each loaded rule's expression once (rules.Cache), off the screening path.
	warm func(expr string)

	entries *tenantEntries[settingsEntry]
	// refreshing marks the tenants whose entry is being read again ahead of its TTL.
	refreshing sync.Map
}

type settingsEntry struct {
	s  screening.Settings
	at time.Time
}

// NewSettingsCache returns a cache over store with entries kept at most ttl.
func NewSettingsCache(store *SettingsStore, ttl time.Duration, cache *rules.Cache, log *slog.Logger) *SettingsCache {
	c := &SettingsCache{load: store.Load, ttl: ttl, now: time.Now, log: log, entries: newTenantEntries[settingsEntry]()}
	if cache != nil {
		c.warm = func(expr string) { _, _ = cache.Program(expr) }
	}
	return c
}

// Settings implements screening.SettingsSource.
func (c *SettingsCache) Settings(ctx context.Context, tenant tenancy.TenantID) (screening.Settings, error) {
	e, ok := c.entries.get(tenant)
	if age := c.now().Sub(e.at); ok && age < c.ttl {
		// Read again in the background once three quarters of the TTL have passed, so that
		// the screenings of the second the entry would expire in never wait on the read (as
		// the API keys' entries, PrincipalCache).
		if age >= c.ttl*3/4 {
			if _, busy := c.refreshing.LoadOrStore(tenant, struct{}{}); !busy {
				go func() {
					defer c.refreshing.Delete(tenant)
					_, _ = c.read(context.Background(), tenant)
				}()
			}
		}
		return e.s, nil
	}
	return c.read(ctx, tenant)
}

// read loads tenant's settings (one read for all the callers that miss at once) and keeps them.
func (c *SettingsCache) read(ctx context.Context, tenant tenancy.TenantID) (screening.Settings, error) {
	e, err := c.entries.load(ctx, tenant, func(ctx context.Context) (settingsEntry, error) {
		s, err := c.load(ctx, tenant)
		if err != nil {
			return settingsEntry{}, err
		}
		if c.warm != nil {
			for _, r := range s.Rules {
				if r.Enabled {
					c.warm(r.Expression)
				}
			}
		}
		return settingsEntry{s: s, at: c.now()}, nil
	})
	return e.s, err
}

// Invalidate drops tenant's entry ("" drops every entry).
func (c *SettingsCache) Invalidate(tenant tenancy.TenantID) { c.entries.invalidate(tenant) }

// Listen follows SettingsChannel on a dedicated connection until ctx ends, invalidating the
// announced tenants. While the connection is down nothing can be announced, so the cache is
// emptied on every (re)connection.
func (c *SettingsCache) Listen(ctx context.Context, db *DB, ready func()) {
	listen(ctx, db, SettingsChannel, c.log, ready, func(payload string) { c.Invalidate(tenancy.TenantID(payload)) },
		func() { c.Invalidate("") })
}

// listen follows channel on a dedicated connection (not a pooled one: closing the pool must
// not wait for it) until ctx ends, calling notify with each payload, and reset on every
// (re)connection since notifications sent while disconnected are lost.
func listen(ctx context.Context, db *DB, channel string, log *slog.Logger, ready func(), notify func(string), reset func()) {
	for ctx.Err() == nil {
		err := listenOnce(ctx, db, channel, ready, notify, reset)
		ready = nil
		if ctx.Err() != nil {
			return
		}
		log.Warn("listener reconnecting", "channel", channel, "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

func listenOnce(ctx context.Context, db *DB, channel string, ready func(), notify func(string), reset func()) error {
	conn, err := pgx.ConnectConfig(ctx, db.Pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "listen "+channel); err != nil {
		return err
	}
	reset()
	if ready != nil {
		ready()
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		notify(n.Payload)
	}
}
