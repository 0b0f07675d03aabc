package postgres

import (
	"context"
	"errors"
	"fmt"
	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/tenancy"
)

// CreateProposal implements cases.Store.
func (s *CaseStore) CreateProposal(ctx context.Context, tenantID tenancy.TenantID, caseID string, fn func(*cases.Case) (cases.Proposal, cases.Effects, error)) (*cases.Case, *cases.Proposal, error) {
	var c cases.Case
	var p cases.Proposal
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		if c, err = getCase(ctx, tx, tenantID, caseID, true); err != nil {
			return err
		}
		var eff cases.Effects
		if p, eff, err = fn(&c); err != nil {
			return err
		}
		if err := exec(ctx, tx, psql.Insert("case_proposals").
			Columns("id", "tenant_id", "case_id", "resolution", "note", "status", "proposed_by", "proposed_at").
			Values(p.ID, string(tenantID), c.ID, p.Resolution, p.Note, p.Status, p.ProposedBy, p.ProposedAt)); err != nil {
			return mapErr(err, "proposal")
		}
		if err := updateCase(ctx, tx, c); err != nil {
			return fmt.Errorf("update case: %w", err)
		}
		return s.db.applyCaseEffects(ctx, tx, tenantID, eff)
	})
	if err != nil {
		return nil, nil, err
	}
	return &c, &p, nil
}

// DecideProposal implements cases.Store.
func (s *CaseStore) DecideProposal(ctx context.Context, tenantID tenancy.TenantID, caseID, proposalID string, fn func(*cases.Case, *cases.Proposal) (cases.Effects, error)) (*cases.Case, *cases.Proposal, error) {
	var c cases.Case
	var p cases.Proposal
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		if c, err = getCase(ctx, tx, tenantID, caseID, true); err != nil {
			return err
		}
		r, err := one[proposalRow](ctx, tx, psql.Select(proposalColumns).From("case_proposals").
			Where(sq.Eq{"tenant_id": string(tenantID), "id": proposalID}).Suffix("FOR UPDATE"), "proposal")
		if err != nil {
			return err
		}
		p = toProposal(r)
		was := c.Status
		eff, err := fn(&c, &p)
		if err != nil {
			return err
		}
		if err := exec(ctx, tx, psql.Update("case_proposals").SetMap(map[string]any{
			"status": p.Status, "decided_by": p.DecidedBy, "decided_at": p.DecidedAt, "reason": p.Reason,
		}).Where(sq.Eq{"tenant_id": string(tenantID), "id": p.ID})); err != nil {
			return fmt.Errorf("update proposal: %w", err)
		}
		if err := updateCase(ctx, tx, c); err != nil {
			return fmt.Errorf("update case: %w", err)
		}
		if err := s.db.applyCaseEffects(ctx, tx, tenantID, eff); err != nil {
			return err
		}
		if c.Status == cases.StatusResolvedTruePositive && was != c.Status { // report_drafts.go
			return s.db.draftCaseReport(ctx, tx, tenantID, c)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return &c, &p, nil
}

// Proposals implements cases.Store.
func (s *CaseStore) Proposals(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]cases.Proposal, error) {
	out := []cases.Proposal{}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := getCase(ctx, tx, tenantID, caseID, false); err != nil {
			return err
		}
		rows, err := collect[proposalRow](ctx, tx, psql.Select(proposalColumns).From("case_proposals").
			Where(sq.Eq{"tenant_id": string(tenantID), "case_id": caseID}).OrderBy("proposed_at", "id"))
		for _, r := range rows {
			out = append(out, toProposal(r))
		}
		return err
	})
	return out, err
}

// CreateInterdiction implements cases.Store.
func (s *CaseStore) CreateInterdiction(ctx context.Context, tenantID tenancy.TenantID, caseID string, fn func(*cases.Case) (cases.Interdiction, cases.Effects, error)) (*cases.Interdiction, error) {
	var in cases.Interdiction
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		c, err := getCase(ctx, tx, tenantID, caseID, true)
		if err != nil {
			return err
		}
		var eff cases.Effects
		if in, eff, err = fn(&c); err != nil {
			return err
		}
		if err := exec(ctx, tx, psql.Insert("case_interdictions").
			Columns("id", "tenant_id", "case_id", "action", "account_number", "reason", "status", "requested_by", "requested_at").
			Values(in.ID, string(tenantID), c.ID, in.Action, in.AccountNumber, in.Reason, in.Status, in.RequestedBy, in.RequestedAt)); err != nil {
			return fmt.Errorf("insert interdiction: %w", err)
		}
		if err := updateCase(ctx, tx, c); err != nil {
			return fmt.Errorf("update case: %w", err)
		}
		return s.db.applyCaseEffects(ctx, tx, tenantID, eff)
	})
	if err != nil {
		return nil, err
	}
	return &in, nil
}

// UpdateInterdiction implements cases.Store.
func (s *CaseStore) UpdateInterdiction(ctx context.Context, tenantID tenancy.TenantID, caseID, interdictionID string, fn func(*cases.Case, *cases.Interdiction) (cases.Effects, error)) (*cases.Interdiction, error) {
	var in cases.Interdiction
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		c, err := getCase(ctx, tx, tenantID, caseID, true)
		if err != nil {
			return err
		}
		r, err := one[interdictionRow](ctx, tx, psql.Select(interdictionColumns).From("case_interdictions").
			Where(sq.Eq{"tenant_id": string(tenantID), "id": interdictionID}).Suffix("FOR UPDATE"), "interdiction")
		if err != nil {
			return err
		}
		in = toInterdiction(r)
		eff, err := fn(&c, &in)
		if err != nil {
			return err
		}
		if err := exec(ctx, tx, psql.Update("case_interdictions").SetMap(map[string]any{
			"status": in.Status, "confirmed_by": in.ConfirmedBy, "confirmed_at": in.ConfirmedAt, "reference": in.Reference,
			"lift_reason": in.LiftReason, "lift_requested_by": in.LiftRequestedBy, "lift_requested_at": in.LiftRequestedAt,
			"lifted_by": in.LiftedBy, "lifted_at": in.LiftedAt,
		}).Where(sq.Eq{"tenant_id": string(tenantID), "id": in.ID})); err != nil {
			return fmt.Errorf("update interdiction: %w", err)
		}
		if err := notifyInterdictions(ctx, tx, tenantID); err != nil {
			return fmt.Errorf("announce interdiction: %w", err)
		}
		if err := updateCase(ctx, tx, c); err != nil {
			return fmt.Errorf("update case: %w", err)
		}
		return s.db.applyCaseEffects(ctx, tx, tenantID, eff)
	})
	if err != nil {
		return nil, err
	}
	return &in, nil
}

// GetInterdiction implements cases.Store.
func (s *CaseStore) GetInterdiction(ctx context.Context, tenantID tenancy.TenantID, id string) (*cases.Interdiction, error) {
	var in cases.Interdiction
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		r, err := one[interdictionRow](ctx, tx, psql.Select(interdictionColumns).From("case_interdictions").
			Where(sq.Eq{"tenant_id": string(tenantID), "id": id}), "interdiction")
		in = toInterdiction(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &in, nil
}

// Interdictions implements cases.Store.
func (s *CaseStore) Interdictions(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]cases.Interdiction, error) {
	out := []cases.Interdiction{}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := getCase(ctx, tx, tenantID, caseID, false); err != nil {
			return err
		}
		rows, err := collect[interdictionRow](ctx, tx, psql.Select(interdictionColumns).From("case_interdictions").
			Where(sq.Eq{"tenant_id": string(tenantID), "case_id": caseID}).OrderBy("requested_at", "id"))
		for _, r := range rows {
			out = append(out, toInterdiction(r))
		}
		return err
	})
	return out, err
}

// People implements cases.Views.
func (s *CaseStore) People(ctx context.Context, tenantID tenancy.TenantID, ids []string) (map[string]cases.Person, error) {
	out := map[string]cases.Person{}
	if len(ids) == 0 {
		return out, nil
	}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := collect[userRow](ctx, tx, psql.Select(userColumns).From("users").
			Where(sq.And{sq.Eq{"tenant_id": string(tenantID)}, sq.Expr("id::text = any(?)", ids)}))
		for _, r := range rows {
			out[r.ID] = cases.Person{ID: r.ID, Email: r.Email, FirstName: r.FirstName, LastName: r.LastName}
		}
		return err
	})
	return out, err
}

// RelatedTransaction implements cases.Views.
func (s *CaseStore) RelatedTransaction(ctx context.Context, tenantID tenancy.TenantID, transactionID string) (*cases.TransactionSummary, error) {
	var out *cases.TransactionSummary
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		out, err = relatedTransaction(ctx, tx, tenantID, transactionID)
		return err
	})
	return out, err
}

// relatedTransaction reads a case's relatedTransaction: {id, externalId, amount, currency,
// senderName, verdict {outcome, riskLevel, aggregateScore, totalLatencyMs}}, or nil when the
// transaction is not in the tenant (the verdict lives in the transaction's row, migration 0005;
// a retained row of a dropped partition is found too: transactions_kept, migration 0049).
func relatedTransaction(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string) (*cases.TransactionSummary, error) {
	var t cases.TransactionSummary
	var v cases.VerdictSummary
	if !isUUID(id) {
		return nil, nil
	}
	err := tx.QueryRow(ctx, `select t.id::text, t.external_id, t.amount::text, t.currency, t.sender_name,
			t.outcome, t.risk_level, t.aggregate_score::float8, t.total_latency_ms
		from transactions_kept t where t.tenant_id = $1 and t.id = $2::uuid`, string(tenantID), id).
		Scan(&t.ID, &t.ExternalID, &t.Amount, &t.Currency, &t.SenderName, &v.Outcome, &v.RiskLevel, &v.AggregateScore,
			&v.TotalLatencyMs)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("related transaction: %w", err)
	}
	t.Verdict = &v
	return &t, nil
}
