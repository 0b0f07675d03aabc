package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// Rule drafts (migration 0037, docs/guide/rules.md): a proposed rule or rule version, back-tested and
// shadowed before someone other than its author publishes it.

type ruleDraftRow struct {
	ID               string     `db:"id"`
	TenantID         string     `db:"tenant_id"`
	RuleID           *string    `db:"rule_id"`
	BaseVersion      *int       `db:"base_version"`
	Name             string     `db:"name"`
	Description      *string    `db:"description"`
	Expression       string     `db:"expression"`
	Score            int        `db:"score"`
	Outcome          string     `db:"outcome"`
	Enabled          bool       `db:"enabled"`
	Status           string     `db:"status"`
	CreatedBy        string     `db:"created_by"`
	CreatedAt        time.Time  `db:"created_at"`
	UpdatedAt        time.Time  `db:"updated_at"`
	PublishedBy      *string    `db:"published_by"`
	PublishedAt      *time.Time `db:"published_at"`
	PublishReason    *string    `db:"publish_reason"`
	PublishedRuleID  *string    `db:"published_rule_id"`
	PublishedVersion *int       `db:"published_version"`
	ShadowStartedAt  *time.Time `db:"shadow_started_at"`
	ShadowEndsAt     *time.Time `db:"shadow_ends_at"`
	ShadowStoppedAt  *time.Time `db:"shadow_stopped_at"`
}

const ruleDraftSelect = `select id, tenant_id::text, rule_id, base_version, name, description, expression, score, outcome,
	enabled, status, created_by, created_at, updated_at, published_by, published_at, publish_reason, published_rule_id,
	published_version, shadow_started_at, shadow_ends_at, shadow_stopped_at from rule_drafts`

func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func (r ruleDraftRow) draft() rules.Draft {
	return rules.Draft{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), RuleID: deref(r.RuleID), BaseVersion: derefInt(r.BaseVersion),
		Rule: rules.Rule{ID: deref(r.RuleID), TenantID: tenancy.TenantID(r.TenantID), Name: r.Name, Description: deref(r.Description),
			Expression: r.Expression, Score: r.Score, Outcome: rules.Outcome(r.Outcome), Enabled: r.Enabled, CreatedBy: r.CreatedBy},
		Status: rules.DraftStatus(r.Status), CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		PublishedBy: deref(r.PublishedBy), PublishedAt: r.PublishedAt, PublishReason: deref(r.PublishReason),
		PublishedRuleID: deref(r.PublishedRuleID), PublishedVersion: derefInt(r.PublishedVersion),
		ShadowStartedAt: r.ShadowStartedAt, ShadowEndsAt: r.ShadowEndsAt, ShadowStoppedAt: r.ShadowStoppedAt}
}

func draftAudit(d rules.Draft) map[string]any {
	m := ruleAudit(d.Rule)
	delete(m, "version")
	m["status"] = string(d.Status)
	if d.RuleID != "" {
		m["ruleId"], m["baseVersion"] = d.RuleID, d.BaseVersion
	}
	if d.ShadowStartedAt != nil {
		m["shadowStartedAt"] = d.ShadowStartedAt.UTC().Format(time.RFC3339)
	}
	if d.ShadowEndsAt != nil {
		m["shadowEndsAt"] = d.ShadowEndsAt.UTC().Format(time.RFC3339)
	}
	if d.ShadowStoppedAt != nil {
		m["shadowStoppedAt"] = d.ShadowStoppedAt.UTC().Format(time.RFC3339)
	}
	if d.Status == rules.DraftPublished {
		m["publishedBy"], m["reason"], m["publishedVersion"] = d.PublishedBy, d.PublishReason, d.PublishedVersion
	}
	return m
}

func getDraft(ctx context.Context, tx pgx.Tx, tenant tenancy.TenantID, id string, lock bool) (rules.Draft, error) {
	q := ruleDraftSelect + ` where tenant_id = $1 and id = $2`
	if lock {
		q += " for update"
	}
	rows, err := tx.Query(ctx, q, string(tenant), id)
	if err != nil {
		return rules.Draft{}, err
	}
	r, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[ruleDraftRow])
	if err != nil {
		return rules.Draft{}, mapErr(err, "rule draft")
	}
	return r.draft(), nil
}

func ruleControls(ctx context.Context, tx pgx.Tx, tenant tenancy.TenantID) (rules.Controls, error) {
	var c rules.Controls
	err := tx.QueryRow(ctx, "select rule_single_person, rule_drafts_required from tenant_settings where tenant_id = $1",
		string(tenant)).Scan(&c.SinglePerson, &c.DraftsRequired)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return c, fmt.Errorf("read rule controls: %w", err)
	}
	return c, nil
}

// RuleControls returns the tenant's rule controls (docs/guide/rules.md "Maker-checker").
func (s *SettingsStore) RuleControls(ctx context.Context, tenant tenancy.TenantID) (rules.Controls, error) {
	var out rules.Controls
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) (err error) {
		out, err = ruleControls(ctx, tx, tenant)
		return err
	})
	return out, err
}

// SetRuleControls changes the tenant's rule controls and audits it (rule.controls_updated).
// Errors: NOT_FOUND.
func (s *SettingsStore) SetRuleControls(ctx context.Context, tenant tenancy.TenantID, c rules.Controls, actor audit.Actor) error {
	return s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		before, err := ruleControls(ctx, tx, tenant)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `update tenant_settings set rule_single_person = $2, rule_drafts_required = $3, updated_at = $4
			where tenant_id = $1`, string(tenant), c.SinglePerson, c.DraftsRequired, s.db.now())
		if err != nil {
			return fmt.Errorf("update rule controls: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.NotFoundf("tenant not found")
		}
		return insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: "rule.controls_updated",
			ResourceType: "tenant", ResourceID: string(tenant),
			Before: map[string]any{"singlePerson": before.SinglePerson, "draftsRequired": before.DraftsRequired},
			After:  map[string]any{"singlePerson": c.SinglePerson, "draftsRequired": c.DraftsRequired}}, s.db.now())
	})
}

// CreateDraft stores a validated draft and audits it (rule.draft_created). A draft of a live
// rule records the rule's version in force as its base. Errors: NOT_FOUND (the rule).
func (s *SettingsStore) CreateDraft(ctx context.Context, d rules.Draft, actor audit.Actor) (rules.Draft, error) {
	err := s.db.inTenant(ctx, d.TenantID, func(tx pgx.Tx) error {
		if d.RuleID != "" {
			live, err := getRule(ctx, tx, d.TenantID, d.RuleID, false)
			if err != nil {
				return err
			}
			d.BaseVersion = live.Version
		}
		var ruleID, base any
		if d.RuleID != "" {
			ruleID, base = d.RuleID, d.BaseVersion
		}
		r := d.Rule
		if err := exec(ctx, tx, psql.Insert("rule_drafts").SetMap(map[string]any{"tenant_id": string(d.TenantID), "id": d.ID,
			"rule_id": ruleID, "base_version": base, "name": r.Name, "description": nullIfEmpty(r.Description),
			"expression": r.Expression, "score": r.Score, "outcome": string(r.Outcome), "enabled": r.Enabled,
			"status": string(rules.DraftOpen), "created_by": d.CreatedBy, "created_at": d.CreatedAt, "updated_at": d.UpdatedAt})); err != nil {
			return fmt.Errorf("insert rule draft: %w", err)
		}
		return insertAudit(ctx, tx, audit.Event{TenantID: d.TenantID, Actor: actor, Action: "rule.draft_created",
			ResourceType: "rule_draft", ResourceID: d.ID, After: draftAudit(d)}, s.db.now())
	})
	return d, err
}

// Drafts returns the tenant's drafts, newest first, of status when given.
func (s *SettingsStore) Drafts(ctx context.Context, tenant tenancy.TenantID, status string) ([]rules.Draft, error) {
	out := []rules.Draft{}
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		q := ruleDraftSelect + ` where tenant_id = $1 and ($2 = '' or status = $2) order by created_at desc, id desc limit 500`
		rows, err := tx.Query(ctx, q, string(tenant), status)
		if err != nil {
			return err
		}
		rs, err := pgx.CollectRows(rows, pgx.RowToStructByName[ruleDraftRow])
		for _, r := range rs {
			out = append(out, r.draft())
		}
		return err
	})
	return out, err
}

// Draft returns one draft. Errors: NOT_FOUND.
func (s *SettingsStore) Draft(ctx context.Context, tenant tenancy.TenantID, id string) (rules.Draft, error) {
	var out rules.Draft
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) (err error) {
		out, err = getDraft(ctx, tx, tenant, id, false)
		return err
	})
	return out, err
}

// UpdateDraft changes a draft through fn under its row lock, audits it as action and announces
// the tenant's settings (its shadows are part of them). Errors: NOT_FOUND; fn's errors.
func (s *SettingsStore) UpdateDraft(ctx context.Context, tenant tenancy.TenantID, id, action string,
	fn func(*rules.Draft, rules.DraftEnv) error, actor audit.Actor) (rules.Draft, error) {
	var out rules.Draft
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		d, err := getDraft(ctx, tx, tenant, id, true)
		if err != nil {
			return err
		}
		before := draftAudit(d)
		var env rules.DraftEnv
		if env.Controls, err = ruleControls(ctx, tx, tenant); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `select count(*) from rule_drafts where tenant_id = $1 and status = 'DRAFT'
			and shadow_started_at is not null and shadow_stopped_at is null and (shadow_ends_at is null or shadow_ends_at > $2)`,
			string(tenant), s.db.now()).Scan(&env.Shadowing); err != nil {
			return fmt.Errorf("count shadows: %w", err)
		}
		if err := fn(&d, env); err != nil {
			return err
		}
		if err := writeDraft(ctx, tx, d); err != nil {
			return err
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: tenant, Actor: actor, Action: action,
			ResourceType: "rule_draft", ResourceID: id, Before: before, After: draftAudit(d)}, s.db.now()); err != nil {
			return err
		}
		out = d
		return notifySettings(ctx, tx, tenant)
	})
	return out, err
}

func writeDraft(ctx context.Context, tx pgx.Tx, d rules.Draft) error {
	var pubRule, pubVersion any
	if d.PublishedRuleID != "" {
		pubRule, pubVersion = d.PublishedRuleID, d.PublishedVersion
	}
	if err := exec(ctx, tx, psql.Update("rule_drafts").SetMap(map[string]any{"status": string(d.Status),
		"updated_at": d.UpdatedAt, "published_by": nullIfEmpty(d.PublishedBy), "published_at": d.PublishedAt,
		"publish_reason": nullIfEmpty(d.PublishReason), "published_rule_id": pubRule, "published_version": pubVersion,
		"shadow_started_at": d.ShadowStartedAt, "shadow_ends_at": d.ShadowEndsAt, "shadow_stopped_at": d.ShadowStoppedAt}).
		Where(sq.Eq{"tenant_id": string(d.TenantID), "id": d.ID})); err != nil {
		return fmt.Errorf("update rule draft: %w", err)
	}
	return nil
}

// PublishDraft publishes a draft in one transaction: the rule (created, or its next version),
// its version row, the draft's publication, the audit events (rule.created or rule.updated,
// and rule.draft_published with the reason) and the settings announcement. A draft of a live
// rule that changed since it was drafted is CONFLICT (draft again from the version in force).
// Errors: NOT_FOUND; CONFLICT; Check's and Build's errors.
func (s *SettingsStore) PublishDraft(ctx context.Context, p rules.Publication, actor audit.Actor) (rules.Draft, rules.Rule, error) {
	var outD rules.Draft
	var outR rules.Rule
	err := s.db.inTenant(ctx, p.Tenant, func(tx pgx.Tx) error {
		d, err := getDraft(ctx, tx, p.Tenant, p.DraftID, true)
		if err != nil {
			return err
		}
		before := draftAudit(d)
		ctl, err := ruleControls(ctx, tx, p.Tenant)
		if err != nil {
			return err
		}
		if err := p.Check(&d, ctl); err != nil {
			return err
		}
		var r rules.Rule
		if d.RuleID == "" {
			if r, err = p.Build(&d, nil); err != nil {
				return err
			}
			r.Version = 1
			if err := insertRule(ctx, tx, r); err != nil {
				return err
			}
			if err := insertRuleVersion(ctx, tx, r, d.CreatedBy); err != nil {
				return err
			}
			if err := insertAudit(ctx, tx, audit.Event{TenantID: p.Tenant, Actor: actor, Action: "rule.created",
				ResourceType: "rule", ResourceID: r.ID, After: ruleAudit(r)}, s.db.now()); err != nil {
				return err
			}
		} else {
			live, err := getRule(ctx, tx, p.Tenant, d.RuleID, true)
			if err != nil {
				return err
			}
			if live.Version != d.BaseVersion {
				return apperr.Newf(apperr.Conflict, "rule %s is at version %d since draft %s was made from version %d; draft the change again",
					live.ID, live.Version, d.ID, d.BaseVersion)
			}
			if r, err = p.Build(&d, &live); err != nil {
				return err
			}
			r.Version = live.Version
			if ruleChanged(live, r) {
				r.Version++
				// The version's author is the maker; the publisher is in the audit and the draft.
				if err := insertRuleVersion(ctx, tx, r, d.CreatedBy); err != nil {
					return err
				}
			}
			if err := exec(ctx, tx, psql.Update("screening_rules").SetMap(map[string]any{"name": r.Name,
				"description": nullIfEmpty(r.Description), "expression": r.Expression, "score": r.Score,
				"outcome": string(r.Outcome), "enabled": r.Enabled, "updated_at": r.UpdatedAt, "version": r.Version}).
				Where(sq.Eq{"tenant_id": string(p.Tenant), "id": r.ID})); err != nil {
				return fmt.Errorf("update rule: %w", err)
			}
			if err := insertAudit(ctx, tx, audit.Event{TenantID: p.Tenant, Actor: actor, Action: "rule.updated",
				ResourceType: "rule", ResourceID: r.ID, Before: ruleAudit(live), After: ruleAudit(r)}, s.db.now()); err != nil {
				return err
			}
		}
		at := p.At
		d.Status, d.PublishedAt, d.UpdatedAt = rules.DraftPublished, &at, at
		d.PublishedRuleID, d.PublishedVersion = r.ID, r.Version
		if d.ShadowStartedAt != nil && d.ShadowStoppedAt == nil {
			d.ShadowStoppedAt = &at
		}
		if err := writeDraft(ctx, tx, d); err != nil {
			return err
		}
		if err := insertAudit(ctx, tx, audit.Event{TenantID: p.Tenant, Actor: actor, Action: "rule.draft_published",
			ResourceType: "rule_draft", ResourceID: d.ID, Before: before, After: draftAudit(d)}, s.db.now()); err != nil {
			return err
		}
		outD, outR = d, r
		return notifySettings(ctx, tx, p.Tenant)
	})
	return outD, outR, err
}

// queueShadows adds the tenant's shadowing drafts to a settings load (screening_settings.go).
func queueShadows(b *pgx.Batch, tenant tenancy.TenantID, out *screening.Settings) {
	b.Queue(ruleDraftSelect+` where tenant_id = $1 and status = 'DRAFT' and shadow_started_at is not null
		and shadow_stopped_at is null and (shadow_ends_at is null or shadow_ends_at > now()) order by created_at, id`,
		string(tenant)).Query(func(rows pgx.Rows) error {
		rs, err := pgx.CollectRows(rows, pgx.RowToStructByName[ruleDraftRow])
		for _, r := range rs {
			d := r.draft()
			out.Shadows = append(out.Shadows, screening.ShadowRule{DraftID: d.ID, Replaces: d.RuleID, Rule: d.Rule, EndsAt: d.ShadowEndsAt})
		}
		return err
	})
}
