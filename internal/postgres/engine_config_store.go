package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// EngineConfigStore implements screening.EngineConfigStore (docs/design/engines.md).
type EngineConfigStore struct{ db *DB }

// NewEngineConfigStore returns the store.
func NewEngineConfigStore(db *DB) *EngineConfigStore { return &EngineConfigStore{db: db} }

const engineConfigSQL = `select id, version, weights, disabled, reason, coalesce(created_by::text, ''), created_at
	from tenant_engine_configs where tenant_id = $1 order by version desc limit 1`

func scanEngineConfig(row pgx.Row) (*screening.EngineConfig, error) {
	c := screening.EngineConfig{Disabled: map[string]bool{}}
	var disabled []string
	var weights []byte
	if err := row.Scan(&c.ID, &c.Version, &weights, &disabled, &c.Reason, &c.CreatedBy, &c.CreatedAt); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return screening.DefaultEngineConfig(), nil
		}
		return nil, fmt.Errorf("read engine config: %w", err)
	}
	if err := json.Unmarshal(weights, &c.Weights); err != nil {
		return nil, fmt.Errorf("decode engine weights: %w", err)
	}
	for _, d := range disabled {
		c.Disabled[d] = true
	}
	return &c, nil
}

// queueEngineConfig adds the tenant's configuration in force to a settings load.
func queueEngineConfig(b *pgx.Batch, tenant tenancy.TenantID, out *screening.Settings) {
	b.Queue(engineConfigSQL, string(tenant)).Query(func(rows pgx.Rows) error {
		var err error
		if rows.Next() {
			out.Engines, err = scanEngineConfig(rows)
		} else {
			out.Engines = screening.DefaultEngineConfig()
		}
		if err != nil {
			return err
		}
		return rows.Err()
	})
}

// Current implements screening.EngineConfigStore.
func (s *EngineConfigStore) Current(ctx context.Context, tenantID tenancy.TenantID) (*screening.EngineConfig, error) {
	var c *screening.EngineConfig
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		c, err = scanEngineConfig(tx.QueryRow(ctx, engineConfigSQL, string(tenantID)))
		return err
	})
	return c, err
}

func engineAudit(c *screening.EngineConfig) map[string]any {
	disabled := []string{}
	for k, v := range c.Disabled {
		if v {
			disabled = append(disabled, k)
		}
	}
	return map[string]any{"configId": c.ID, "version": c.Version, "weights": c.Weights, "disabled": disabled}
}

// Update implements screening.EngineConfigStore: the tenant's row in tenants is locked so that
// versions are taken one at a time.
func (s *EngineConfigStore) Update(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor,
	fn func(cur *screening.EngineConfig) (screening.EngineConfig, error)) (*screening.EngineConfig, error) {
	var out *screening.EngineConfig
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `select pg_advisory_xact_lock(hashtext('engine_config:' || $1))`, string(tenantID)); err != nil {
			return fmt.Errorf("lock engine config: %w", err)
		}
		cur, err := scanEngineConfig(tx.QueryRow(ctx, engineConfigSQL, string(tenantID)))
		if err != nil {
			return err
		}
		next, err := fn(cur)
		if err != nil {
			return err
		}
		next.ID, next.Version, next.CreatedAt = screening.NewID("ecfg_"), cur.Version+1, s.db.now().UTC()
		if actor.Type == audit.ActorUser {
			next.CreatedBy = actor.ID
		}
		weights, err := json.Marshal(next.Weights)
		if err != nil {
			return fmt.Errorf("encode engine weights: %w", err)
		}
		disabled := []string{}
		for k, v := range next.Disabled {
			if v {
				disabled = append(disabled, k)
			}
		}
		if _, err := tx.Exec(ctx, `insert into tenant_engine_configs (id, tenant_id, version, weights, disabled, reason, created_by, created_at)
			values ($1, $2, $3, $4, $5, $6, $7, $8)`, next.ID, string(tenantID), next.Version, weights, disabled, next.Reason,
			nullIfEmpty(next.CreatedBy), next.CreatedAt); err != nil {
			return fmt.Errorf("insert engine config: %w", err)
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: tenantID, Actor: actor, Action: "engines.updated",
			ResourceType: "engine_config", ResourceID: next.ID, Before: engineAudit(cur), After: engineAudit(&next)}, s.db.now()); err != nil {
			return err
		}
		out = &next
		return notifySettings(ctx, tx, tenantID)
	})
	return out, err
}
