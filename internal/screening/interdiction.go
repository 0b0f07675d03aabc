package screening

import (
	"context"
	"fmt"

	"github.com/complyd/complyd/internal/prose"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

// Interdiction actions as screening reads them (the cases package owns the records; screening
// must not import it, so the three values are repeated here and pinned by a test).
const (
	RestrictionFreeze      = "FREEZE"
	RestrictionBlock       = "BLOCK"
	RestrictionPostNoDebit = "POST_NO_DEBIT"
)

// RuleInterdiction is the id of the rule that blocks a transaction on an interdicted account
// (docs/guide/interdictions.md).
const RuleInterdiction = "INTERDICTION"

// Restriction is an interdiction in force on one of the tenant's accounts: confirmed by the bank
// and not lifted (a lift awaiting its second approver is still in force).
type Restriction struct {
	InterdictionID string
	CaseID         string
	CaseNumber     string
	Action         string // RestrictionFreeze, RestrictionBlock or RestrictionPostNoDebit
	AccountNumber  string
	Reference      string // the bank's reference of the executed order, or ""
}

// Restrictions are a tenant's interdictions in force, by account number. A value is shared
// between screenings and never modified.
type Restrictions map[string][]Restriction

// InterdictionSource returns the tenant's interdictions in force from memory: the screening
// path never reads the database for them (postgres.InterdictionCache, invalidated on every
// replica by LISTEN/NOTIFY when an interdiction is confirmed or lifted). Errors: INTERNAL.
type InterdictionSource interface {
	Restrictions(ctx context.Context, tenantID tenancy.TenantID) (Restrictions, error)
}

// creditsSender reports whether a transaction type moves money into the sender account rather
// than out of it: a cash deposit names the depositor's own account as senderAccountNumber.
func creditsSender(txType string) bool { return txType == "CASH_DEPOSIT" }

// blocks reports whether r forbids a debit (debit true) or a credit (debit false) of its account.
// FREEZE and BLOCK stop both; POST_NO_DEBIT stops debits and lets credits in.
func (r Restriction) blocks(debit bool) bool {
	switch r.Action {
	case RestrictionFreeze, RestrictionBlock:
		return true
	case RestrictionPostNoDebit:
		return debit
	}
	return false
}

// interdictionHits returns the restrictions tx runs into: on the sender account (a debit, or a
// credit for a cash deposit) and on the receiver account (a credit). A receiver account is the
// tenant's own only when no bank code says otherwise: NUBAN numbers are unique per bank, so a
// transfer to the same number at another bank (both bank codes given and different) is not
// matched.
func interdictionHits(tx *Transaction, in Restrictions) []Restriction {
	if len(in) == 0 {
		return nil
	}
	var out []Restriction
	senderDebit := !creditsSender(tx.Type)
	for _, r := range in[tx.SenderAccountNumber] {
		if r.blocks(senderDebit) {
			out = append(out, r)
		}
	}
	if tx.ReceiverAccountNumber != "" && tx.ReceiverAccountNumber != tx.SenderAccountNumber &&
		(tx.ReceiverBankCode == "" || tx.SenderBankCode == "" || tx.ReceiverBankCode == tx.SenderBankCode) {
		for _, r := range in[tx.ReceiverAccountNumber] {
			if r.blocks(false) {
				out = append(out, r)
			}
		}
	}
	return out
}

// applyInterdictions adds the INTERDICTION rule to the Regulatory Compliance verdict of res for
// every interdiction in force that tx runs into, then aggregates again: an interdiction is a
// legal order the bank has executed, so the transaction is BLOCKed whatever the engines found,
// and the verdict names the interdiction, its action and its case. The rule lives in an engine
// verdict (not beside them) so that the stored breakdown carries it and a retro-screening that
// re-aggregates keeps it.
func applyInterdictions(tx *Transaction, in Restrictions, res *Result) {
	hits := interdictionHits(tx, in)
	if len(hits) == 0 {
		return
	}
	idx := -1
	for i, v := range res.Breakdown {
		if v.Category == CategoryRegulatory {
			idx = i
			break
		}
	}
	if idx < 0 {
		return // every pipeline has the regulatory engine; nothing to attach to otherwise
	}
	b := &verdictBuilder{v: res.Breakdown[idx]}
	for _, r := range hits {
		side := "sender"
		if r.AccountNumber != tx.SenderAccountNumber {
			side = "receiver"
		}
		d := fmt.Sprintf("%s %s on %s account %s (case %s)", prose.Enum(r.Action), r.InterdictionID, side, r.AccountNumber, caseLabel(r))
		if r.Reference != "" {
			d += "; bank reference " + r.Reference
		}
		tr := TriggeredRule{ID: RuleInterdiction, Name: "Account interdiction in force", RiskScore: 100,
			Outcome: rules.Block, Details: d}
		b.trigger(tr, rules.ActionNotifyCompliance)
		res.TriggeredRules = append(res.TriggeredRules, b.v.RulesTriggered[len(b.v.RulesTriggered)-1])
	}
	res.Breakdown[idx] = b.v
	res.Aggregate = AggregateVerdicts(res.Breakdown)
	res.Case = DecideCase(res.Breakdown, res.Aggregate)
}

func caseLabel(r Restriction) string {
	if r.CaseNumber != "" {
		return r.CaseNumber
	}
	return r.CaseID
}

// checkInterdictions is the Service's hook: it applies the tenant's interdictions in force (read
// from memory) to the pipeline's result.
func (s *Service) checkInterdictions(ctx context.Context, tx *Transaction, res *Result) error {
	if s.d.Interdictions == nil {
		return nil
	}
	in, err := s.d.Interdictions.Restrictions(ctx, tx.TenantID)
	if err != nil {
		return fmt.Errorf("interdictions: %w", err)
	}
	applyInterdictions(tx, in, res)
	return nil
}
