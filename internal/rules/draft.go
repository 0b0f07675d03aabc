package rules

import (
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// DraftStatus is where a rule draft stands (docs/guide/rules.md "Maker-checker").
type DraftStatus string

// The draft statuses: a DRAFT is PUBLISHED (it became a rule or a rule's next version) or
// DISCARDED; both are final.
const (
	DraftOpen      DraftStatus = "DRAFT"
	DraftPublished DraftStatus = "PUBLISHED"
	DraftDiscarded DraftStatus = "DISCARDED"
)

// Draft is a proposed custom rule (RuleID empty) or a proposed new version of the live rule
// RuleID (drafted from BaseVersion). It is back-tested on stored history and shadowed on live
// screenings before someone other than its author publishes it.
type Draft struct {
	ID          string
	TenantID    tenancy.TenantID
	RuleID      string // the live rule it changes; "" for a new rule
	BaseVersion int    // the rule's version it was drafted from; 0 for a new rule
	// Rule holds the proposed name, description, expression, score, outcome and enabled flag.
	Rule      Rule
	Status    DraftStatus
	CreatedBy string
	CreatedAt time.Time
	UpdatedAt time.Time
	// Publication, set once PUBLISHED.
	PublishedBy      string
	PublishedAt      *time.Time
	PublishReason    string
	PublishedRuleID  string
	PublishedVersion int
	// Shadow period: ShadowStartedAt set while or since it shadowed; it shadows while neither
	// ShadowStoppedAt nor ShadowEndsAt has passed.
	ShadowStartedAt *time.Time
	ShadowEndsAt    *time.Time
	ShadowStoppedAt *time.Time
}

// Shadowing reports whether d runs in shadow at now.
func (d *Draft) Shadowing(now time.Time) bool {
	return d.Status == DraftOpen && d.ShadowStartedAt != nil && d.ShadowStoppedAt == nil &&
		(d.ShadowEndsAt == nil || now.Before(*d.ShadowEndsAt))
}

// MaxShadows bounds the drafts of one tenant that shadow at once: each is one more CEL
// evaluation on every live screening of the tenant (docs/guide/rules.md "Cost").
const MaxShadows = 10

// PublishCheck is who publishes a draft and under which tenant control.
type PublishCheck struct {
	Publisher string
	Reason    string
	// SinglePerson is the tenant's ruleSinglePerson setting: the author may publish.
	SinglePerson bool
}

// CanPublish says whether c may publish d (the role, BANK_ADMIN or COMPLIANCE_OFFICER, is
// checked by the transport). Errors: VALIDATION_ERROR (no reason); CONFLICT (not a DRAFT);
// FORBIDDEN (the author, unless the tenant allows a single person).
func (d *Draft) CanPublish(c PublishCheck) error {
	switch {
	case d.Status != DraftOpen:
		return apperr.Newf(apperr.Conflict, "draft %s is %s: only a DRAFT can be published", d.ID, d.Status)
	case c.Reason == "":
		return apperr.Invalid("reason", "is required")
	case c.Publisher == d.CreatedBy && !c.SinglePerson:
		return apperr.New(apperr.Forbidden, "a rule draft must be published by someone other than its author (four eyes)").
			WithData(map[string]any{"reason": "FOUR_EYES_REQUIRED"})
	}
	return nil
}

// CanChange says whether d can still be discarded or shadowed. Errors: CONFLICT.
func (d *Draft) CanChange() error {
	if d.Status != DraftOpen {
		return apperr.Newf(apperr.Conflict, "draft %s is %s", d.ID, d.Status)
	}
	return nil
}

// Controls are the tenant's rule controls (docs/guide/rules.md "Maker-checker").
type Controls struct {
	// SinglePerson lets a draft's author publish it (a tenant with one officer).
	SinglePerson bool
	// DraftsRequired closes the direct POST/PATCH/DELETE /rules of docs/design/design-choices.md §10: every
	// change of a custom rule then goes through a published draft.
	DraftsRequired bool
}

// DraftEnv is what a draft change may depend on, read in the transaction that locks the draft:
// the tenant's controls and how many of its drafts shadow now.
type DraftEnv struct {
	Controls  Controls
	Shadowing int
}

// Publication is a draft's publication as the store runs it on the locked draft: Check (the
// maker-checker and status checks), then Build (the rule to store: the new rule for a draft of
// a new rule, or live changed by the draft), at At.
type Publication struct {
	Tenant  tenancy.TenantID
	DraftID string
	Check   func(d *Draft, c Controls) error
	Build   func(d *Draft, live *Rule) (Rule, error)
	At      time.Time
}
