package postgres

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

type ruleRow struct {
	ID          string    `db:"id"`
	TenantID    string    `db:"tenant_id"`
	Name        string    `db:"name"`
	Description *string   `db:"description"`
	Expression  string    `db:"expression"`
	Score       int       `db:"score"`
	Outcome     string    `db:"outcome"`
	Enabled     bool      `db:"enabled"`
	CreatedBy   string    `db:"created_by"`
	CreatedAt   time.Time `db:"created_at"`
	UpdatedAt   time.Time `db:"updated_at"`
	Version     int       `db:"version"`
}

const ruleSelect = `select id, tenant_id::text, name, description, expression, score, outcome, enabled, created_by, created_at, updated_at, version from screening_rules`

func (r ruleRow) rule() rules.Rule {
	return rules.Rule{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), Name: r.Name, Description: deref(r.Description),
		Expression: r.Expression, Score: r.Score, Outcome: rules.Outcome(r.Outcome), Enabled: r.Enabled,
		CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Version: r.Version}
}

func ruleAudit(r rules.Rule) map[string]any {
	return map[string]any{"name": r.Name, "expression": r.Expression, "score": r.Score, "outcome": string(r.Outcome),
		"enabled": r.Enabled, "version": r.Version}
}

// Rules returns the tenant's custom rules, oldest first.
func (s *SettingsStore) Rules(ctx context.Context, tenant tenancy.TenantID) ([]rules.Rule, error) {
	out := []rules.Rule{}
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, ruleSelect+` where tenant_id = $1 order by created_at, id`, string(tenant))
		if err != nil {
			return err
		}
		rs, err := pgx.CollectRows(rows, pgx.RowToStructByName[ruleRow])
		for _, r := range rs {
			out = append(out, r.rule())
		}
		return err
	})
	return out, err
}

// Rule returns one custom rule. Errors: NOT_FOUND.
func (s *SettingsStore) Rule(ctx context.Context, tenant tenancy.TenantID, id string) (rules.Rule, error) {
	var out rules.Rule
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		r, err := getRule(ctx, tx, tenant, id, false)
		out = r
		return err
	})
	return out, err
}

func getRule(ctx context.Context, tx pgx.Tx, tenant tenancy.TenantID, id string, lock bool) (rules.Rule, error) {
	q := ruleSelect + ` where tenant_id = $1 and id = $2`
	if lock {
		q += " for update"
	}
	rows, err := tx.Query(ctx, q, string(tenant), id)
	if err != nil {
		return rules.Rule{}, err
	}
	r, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[ruleRow])
	if err != nil {
		return rules.Rule{}, mapErr(err, "rule")
	}
	return r.rule(), nil
}

// CreateRule stores a validated rule, audits it and announces the change.
func (s *SettingsStore) CreateRule(ctx context.Context, r rules.Rule, actor audit.Actor) error {
	r.Version = 1
	return s.db.inTenant(ctx, r.TenantID, func(tx pgx.Tx) error {
		if err := insertRule(ctx, tx, r); err != nil {
			return err
		}
		if err := insertRuleVersion(ctx, tx, r, r.CreatedBy); err != nil {
			return err
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: r.TenantID, Actor: actor, Action: "rule.created",
			ResourceType: "rule", ResourceID: r.ID, After: ruleAudit(r)}, s.db.now()); err != nil {
			return err
		}
		return notifySettings(ctx, tx, r.TenantID)
	})
}

func insertRule(ctx context.Context, tx pgx.Tx, r rules.Rule) error {
	if err := exec(ctx, tx, psql.Insert("screening_rules").SetMap(map[string]any{"id": r.ID, "tenant_id": string(r.TenantID),
		"name": r.Name, "description": nullIfEmpty(r.Description), "expression": r.Expression, "score": r.Score,
		"outcome": string(r.Outcome), "enabled": r.Enabled, "created_by": r.CreatedBy, "created_at": r.CreatedAt,
		"updated_at": r.UpdatedAt, "version": r.Version})); err != nil {
		return fmt.Errorf("insert rule: %w", err)
	}
	return nil
}

// UpdateRule changes a rule through fn (which validates), audits and announces it.
// Errors: NOT_FOUND; fn's errors.
func (s *SettingsStore) UpdateRule(ctx context.Context, tenant tenancy.TenantID, id string, fn func(*rules.Rule) error, actor audit.Actor) (rules.Rule, error) {
	var out rules.Rule
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		r, err := getRule(ctx, tx, tenant, id, true)
		if err != nil {
			return err
		}
		prev := r
		before := ruleAudit(r)
		if err := fn(&r); err != nil {
			return err
		}
		// Every change is a new immutable version (docs/design/engines.md "Rule versions"); a PATCH that
		// changes nothing stores none.
		r.Version = prev.Version
		if ruleChanged(prev, r) {
			r.Version++
			if err := insertRuleVersion(ctx, tx, r, actorID(actor)); err != nil {
				return err
			}
		}
		if err := exec(ctx, tx, psql.Update("screening_rules").SetMap(map[string]any{"name": r.Name,
			"description": nullIfEmpty(r.Description), "expression": r.Expression, "score": r.Score,
			"outcome": string(r.Outcome), "enabled": r.Enabled, "updated_at": r.UpdatedAt, "version": r.Version}).
			Where(sq.Eq{"tenant_id": string(tenant), "id": id})); err != nil {
			return fmt.Errorf("update rule: %w", err)
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: "rule.updated",
			ResourceType: "rule", ResourceID: id, Before: before, After: ruleAudit(r)}, s.db.now()); err != nil {
			return err
		}
		out = r
		return notifySettings(ctx, tx, tenant)
	})
	return out, err
}

// DeleteRule deletes a custom rule. Errors: NOT_FOUND.
func (s *SettingsStore) DeleteRule(ctx context.Context, tenant tenancy.TenantID, id string, actor audit.Actor) (rules.Rule, error) {
	var out rules.Rule
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		r, err := getRule(ctx, tx, tenant, id, true)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `delete from screening_rules where tenant_id = $1 and id = $2`, string(tenant), id); err != nil {
			return fmt.Errorf("delete rule: %w", err)
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: "rule.deleted",
			ResourceType: "rule", ResourceID: id, Before: ruleAudit(r)}, s.db.now()); err != nil {
			return err
		}
		out = r
		return notifySettings(ctx, tx, tenant)
	})
	return out, err
}
