package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

// Rule versions (migration 0036, docs/design/engines.md "Rule versions"): rule_versions holds every
// version of every custom rule, append-only, and outlives the rule, so that the versions a
// stored verdict names stay readable.

type ruleVersionRow struct {
	RuleID      string    `db:"rule_id"`
	TenantID    string    `db:"tenant_id"`
	Version     int       `db:"version"`
	Name        string    `db:"name"`
	Description *string   `db:"description"`
	Expression  string    `db:"expression"`
	Score       int       `db:"score"`
	Outcome     string    `db:"outcome"`
	Enabled     bool      `db:"enabled"`
	CreatedBy   string    `db:"created_by"`
	CreatedAt   time.Time `db:"created_at"`
}

const ruleVersionSelect = `select rule_id, tenant_id::text, version, name, description, expression, score, outcome,
	enabled, created_by, created_at from rule_versions`

// rule returns the version as a rule: CreatedBy and CreatedAt are the version's (who made the
// change, and when).
func (r ruleVersionRow) rule() rules.Rule {
	return rules.Rule{ID: r.RuleID, TenantID: tenancy.TenantID(r.TenantID), Name: r.Name, Description: deref(r.Description),
		Expression: r.Expression, Score: r.Score, Outcome: rules.Outcome(r.Outcome), Enabled: r.Enabled,
		CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, UpdatedAt: r.CreatedAt, Version: r.Version}
}

// ruleChanged reports whether next differs from prev in anything a version records.
func ruleChanged(prev, next rules.Rule) bool {
	return prev.Name != next.Name || prev.Description != next.Description || prev.Expression != next.Expression ||
		prev.Score != next.Score || prev.Outcome != next.Outcome || prev.Enabled != next.Enabled
}

func actorID(a audit.Actor) string {
	if a.ID == "" {
		return "system"
	}
	return a.ID
}

// insertRuleVersion stores r as version r.Version, made by author at r.UpdatedAt.
func insertRuleVersion(ctx context.Context, tx pgx.Tx, r rules.Rule, author string) error {
	if err := exec(ctx, tx, psql.Insert("rule_versions").SetMap(map[string]any{"tenant_id": string(r.TenantID),
		"rule_id": r.ID, "version": r.Version, "name": r.Name, "description": nullIfEmpty(r.Description),
		"expression": r.Expression, "score": r.Score, "outcome": string(r.Outcome), "enabled": r.Enabled,
		"created_by": author, "created_at": r.UpdatedAt})); err != nil {
		return fmt.Errorf("insert rule version: %w", err)
	}
	return nil
}

// RuleVersions returns every version of a custom rule, newest first, also after the rule was
// deleted. Errors: NOT_FOUND when the tenant never had the rule.
func (s *SettingsStore) RuleVersions(ctx context.Context, tenant tenancy.TenantID, id string) ([]rules.Rule, error) {
	var out []rules.Rule
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, ruleVersionSelect+` where tenant_id = $1 and rule_id = $2 order by version desc`,
			string(tenant), id)
		if err != nil {
			return err
		}
		rs, err := pgx.CollectRows(rows, pgx.RowToStructByName[ruleVersionRow])
		if err != nil {
			return err
		}
		if len(rs) == 0 {
			return mapErr(pgx.ErrNoRows, "rule")
		}
		for _, r := range rs {
			out = append(out, r.rule())
		}
		return nil
	})
	return out, err
}

// RuleVersion returns one version of a custom rule. Errors: NOT_FOUND.
func (s *SettingsStore) RuleVersion(ctx context.Context, tenant tenancy.TenantID, id string, version int) (rules.Rule, error) {
	var out rules.Rule
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, ruleVersionSelect+` where tenant_id = $1 and rule_id = $2 and version = $3`,
			string(tenant), id, version)
		if err != nil {
			return err
		}
		r, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[ruleVersionRow])
		if err != nil {
			return mapErr(err, "rule version")
		}
		out = r.rule()
		return nil
	})
	return out, err
}
