package screening

import (
	"context"
	"errors"
	"fmt"

	"github.com/complyd/complyd/internal/prose"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

// List types of a NameHit (docs/design/design-choices.md §10).
const (
	ListSanctions = "SANCTIONS"
	ListPEP       = "PEP"
	ListInternal  = "INTERNAL"
)

// Parties a name belongs to.
const (
	PartySender   = "SENDER"
	PartyReceiver = "RECEIVER"
	// PartyBeneficialOwner is a beneficial owner of the sending business, from the tenant's KYB
	// record of it (KYB.BeneficialOwners).
	PartyBeneficialOwner = "BENEFICIAL_OWNER"
)

// Sanctions match thresholds (docs/design/design-choices.md §8).
const (
	MatchBlock    = 0.95 // and above: score 100, BLOCK, SANCTIONS_HIT case
	MatchEscalate = 0.85 // up to MatchBlock: ESCALATE
	MatchReview   = 0.75 // up to MatchEscalate: REVIEW; below: ignored
)

// NameScreener is the port to the name matcher (internal/sanctions' in-memory matcher over
// the global lists and the tenant's watchlists, the same one POST /sanctions/search uses).
type NameScreener interface {
	// Screen returns the matches of q.Name at or above MatchReview, best first, leaving out the
	// entries reviewed as false positives for any of q.SubjectKeys. Errors are upstream failures
	// (the engine fails open).
	Screen(ctx context.Context, tenantID tenancy.TenantID, q NameQuery) ([]NameHit, error)
}

// NameQuery is one party's name to screen.
type NameQuery struct {
	Name string
	// EntityType is INDIVIDUAL, BUSINESS or "" for unknown.
	EntityType string
	// SubjectKeys identify the party for reviewed false positives (its BVN and account number).
	SubjectKeys []string
}

// NameHit is one match of a screened name against a list entry.
type NameHit struct {
	List        string // the list's name, e.g. "OFAC SDN"
	ListType    string // SANCTIONS, PEP or INTERNAL
	EntryID     string
	SourceID    string // the list's own id of the entity
	Name        string // the entry's primary name
	MatchedName string // the name or alias that matched
	Score       float64
	Explanation string
}

// PartyHit is a NameHit with the party whose name matched.
type PartyHit struct {
	Party string // SENDER or RECEIVER
	NameHit
}

// SanctionsEngine screens the sender's and receiver's names, a payment message's other parties
// and the sending business's beneficial owners (pipeline step 3).
type SanctionsEngine struct {
	screener NameScreener
}

// NewSanctionsEngine returns the Global Sanctions Screening engine over screener.
func NewSanctionsEngine(screener NameScreener) *SanctionsEngine {
	if screener == nil {
		panic("screening.NewSanctionsEngine: nil screener")
	}
	return &SanctionsEngine{screener: screener}
}

// Category implements Engine.
func (s *SanctionsEngine) Category() string { return CategorySanctions }

// Inline implements InlineEngine: the engine is as inline as its screener, which says so by
// implementing Inline() bool itself (the in-memory matcher does; a remote one would not).
func (s *SanctionsEngine) Inline() bool {
	i, ok := s.screener.(interface{ Inline() bool })
	return ok && i.Inline()
}

// Evaluate screens the sender (with the transaction's entity type) and the receiver when
// named. SANCTIONS and INTERNAL list hits score by band: ≥ 0.95 → 100 BLOCK, 0.85–0.95 → 75
// ESCALATE, 0.75–0.85 → 50 REVIEW. PEP hits score nothing here: they are returned in Hits and
// the sender's feed AML-004 in the Regulatory Compliance engine.
func (s *SanctionsEngine) Evaluate(ctx context.Context, tx *Transaction, e *Enrichment) (EngineVerdict, error) {
	b := newVerdict(CategorySanctions)
	type screened struct {
		party, name, entityType string
		keys                    []string
	}
	parties := []screened{
		{PartySender, tx.SenderName, tx.senderEntityType(), subjectKeys(tx.SenderBVN, tx.SenderAccountNumber)},
		{PartyReceiver, tx.ReceiverName, "", subjectKeys(tx.ReceiverBVN, tx.ReceiverAccountNumber)},
	}
	// A payment message's other parties and agents (payment.go): each by its name, and an
	// agent by its BIC as well (a tenant list may name a bank by its BIC).
	for _, p := range tx.extraParties() {
		keys := subjectKeys(p.Account, p.BIC, p.LEI)
		parties = append(parties, screened{p.ScreenedAs, p.Name, p.EntityType, keys})
		if p.BIC != "" && p.BIC != p.Name {
			parties = append(parties, screened{p.ScreenedAs, p.BIC, EntityBusiness, keys})
		}
	}
	// The debtor and creditor are screened by name above (the sender's and receiver's); one that
	// a message identifies by a BIC as well (a pacs.009 institution, an OrgId's AnyBIC) is
	// screened by that BIC too, as every other party is.
	for _, p := range tx.bicOfSenderAndReceiver() {
		parties = append(parties, screened{p.ScreenedAs, p.BIC, EntityBusiness, subjectKeys(p.Account, p.BIC, p.LEI)})
	}
	// The sending business's beneficial owners, as the tenant's KYB record of it names them:
	// the same screening as the sender's (one normalisation, the same lists and thresholds).
	if e != nil {
		for _, o := range e.KYB.BeneficialOwners {
			parties = append(parties, screened{PartyBeneficialOwner, o.Name, "", subjectKeys(o.BVN, o.NIN)})
		}
	}
	// A screener with no list to screen against (EngineUnavailable) still reports hits on the
	// lists it has: a hit is a hit, but no hit is not a clean name, so the engine fails open then.
	var unavailable error
	for _, p := range parties {
		if p.name == "" {
			continue
		}
		hits, err := s.screener.Screen(ctx, tx.TenantID, NameQuery{Name: p.name, EntityType: p.entityType, SubjectKeys: p.keys})
		var ue *EngineUnavailable
		if errors.As(err, &ue) {
			unavailable = fmt.Errorf("screen %s name: %w", p.party, err)
			continue
		}
		if err != nil {
			return EngineVerdict{}, fmt.Errorf("screen %s name: %w", p.party, err)
		}
		for _, h := range hits {
			if h.Score < MatchReview {
				continue
			}
			b.v.Hits = append(b.v.Hits, PartyHit{Party: p.party, NameHit: h})
			if h.ListType == ListPEP {
				continue
			}
			score, outcome := sanctionsBand(h.Score)
			b.trigger(TriggeredRule{
				ID:        "SANCTIONS_MATCH",
				Name:      "Sanctions Match",
				RiskScore: score,
				Outcome:   outcome,
				Details:   details(p.party, p.name, h),
			})
		}
	}
	if unavailable != nil && len(b.v.Hits) == 0 {
		if e == nil || e.Config.SanctionsListsMissing != tenancy.ListsMissingBlock {
			return EngineVerdict{}, unavailable
		}
		// The tenant blocks rather than fail open while there is nothing to screen against.
		b.trigger(TriggeredRule{ID: "SANCTIONS_LISTS_UNAVAILABLE", Name: "Sanctions Lists Unavailable", RiskScore: 100,
			Outcome: rules.Block, Details: unavailable.Error() + "; the tenant's policy blocks screenings while no sanctions list is loaded"})
	}
	v := b.verdict()
	switch v.Outcome {
	case rules.Block:
		b.action(rules.ActionGenerateSAR, rules.ActionNotifyCompliance, rules.ActionCreateCase)
	default:
		b.action(rules.OutcomeActions(v.Outcome)...)
	}
	return b.verdict(), nil
}

// sanctionsBand maps a match score to the engine score and outcome of docs/design/design-choices.md §8.
func sanctionsBand(score float64) (int, rules.Outcome) {
	switch {
	case score >= MatchBlock:
		return 100, rules.Block
	case score >= MatchEscalate:
		return 75, rules.Escalate
	default:
		return 50, rules.Review
	}
}

// senderPEPHits returns the sender's PEP hits of a sanctions verdict (AML-004's input).
func senderPEPHits(v EngineVerdict) []NameHit {
	var out []NameHit
	for _, h := range v.Hits {
		if h.Party == PartySender && h.ListType == ListPEP {
			out = append(out, h.NameHit)
		}
	}
	return out
}

// details is a triggered sanctions rule's explanation: who matched which list entry, and why
// (the matcher's token-by-token account), for the regulator reading the verdict.
func details(party, name string, h NameHit) string {
	// The party and the list type in words (issue 50 point 4): "Ultimate creditor name …", "sanctions entry".
	d := fmt.Sprintf("%s name %q matched %q on %s (%s entry %s, source id %s, score %.2f)",
		prose.Capital(prose.Enum(party)), name, h.MatchedName, h.List, prose.Enum(h.ListType), h.EntryID, h.SourceID, h.Score)
	if h.Explanation != "" {
		d += ": " + h.Explanation
	}
	return d
}

// subjectKeys lists a party's non-empty identifiers for reviewed false positives.
func subjectKeys(keys ...string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if k != "" {
			out = append(out, k)
		}
	}
	return out
}
