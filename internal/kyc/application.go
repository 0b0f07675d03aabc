// Package kyc owns individual KYC applications (docs/reference/specification.md 2.5, 3.2, 4.4; docs/design/design-choices.md §5,
// §6): the status milestones (never lowered), the tier rules 1 to 6, editing rules, officer
// decisions, the Tier 1 → Tier 2 upgrade, verifications through the identity provider chain
// charged from the wallet, biometrics and documents.
//
// kyc is core: it imports application, identity, document, wallet, audit, apperr, paging and tenancy; never
// pgx, river, connect, net/http or an adapter.
package kyc

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/identity"
)

// Statuses (docs/reference/specification.md 3.2).
const (
	StatusPending          = application.StatusPending
	StatusDocumentUploaded = application.StatusDocumentUploaded
	StatusNINVerified      = "NIN_VERIFIED"
	StatusBVNVerified      = "BVN_VERIFIED"
	StatusLivenessPassed   = "LIVENESS_PASSED"
	StatusApproved         = application.StatusApproved
	StatusRejected         = application.StatusRejected
	StatusExpired          = "EXPIRED"
)

// Entity types.
const (
	EntityIndividual = "INDIVIDUAL"
	EntityBusiness   = "BUSINESS"
)

// List page sizes (docs/design/design-choices.md §7).
const (
	PageDefault = application.PageDefault
	PageMax     = application.PageMax
)

// DefaultExpiryDays is how long an application may stay non-terminal (docs/design/design-choices.md §5).
const DefaultExpiryDays = 90

// lifecycle is the order of docs/design/design-choices.md §5: a verification never lowers the
// status; APPROVED, REJECTED and EXPIRED are terminal.
var lifecycle = application.NewLifecycle([]string{StatusPending, StatusDocumentUploaded, StatusNINVerified,
	StatusBVNVerified, StatusLivenessPassed}, StatusApproved, StatusRejected, StatusExpired)

// Statuses lists every status.
func Statuses() []string { return lifecycle.Statuses() }

// IsTerminal reports APPROVED, REJECTED and EXPIRED.
func IsTerminal(status string) bool { return lifecycle.IsTerminal(status) }

// MilestoneRank is the position of a milestone status (PENDING 0 … LIVENESS_PASSED 4), -1 for
// a terminal or unknown status.
func MilestoneRank(status string) int { return lifecycle.Rank(status) }

// Editable reports whether PATCH may change an application in status (spec 3.2).
func Editable(status string) bool {
	switch status {
	case StatusPending, StatusDocumentUploaded, StatusNINVerified, StatusBVNVerified:
		return true
	}
	return false
}

// Application is a KYC application: the shared fields (application.Base: id, status, risk
// level, assignee, notes, times, customer) and its own. Empty strings are absent values
// (rendered as null).
type Application struct {
	application.Base
	EntityType  string
	FirstName   string
	LastName    string
	BVN         string
	NIN         string
	Phone       string
	Email       string
	Address     string
	DateOfBirth *time.Time
	Tier        string
	// Verification facts behind the milestones and tiers.
	BVNVerified    bool
	NINVerified    bool
	LivenessPassed bool
	// Document facts, computed by the store from the application's documents.
	HasIDDocument     bool
	HasProofOfAddress bool
}

// Result is one verification on the application's evidence trail (spec 2.5 verificationResults).
type Result struct {
	ID             string
	ApplicationID  string
	IdentityType   identity.VerificationType
	Provider       string
	ProviderSource string // EMBEDDED, BYOL, or LOCAL (answered before any provider)
	IsMatch        bool
	Confidence     float64
	Raw            json.RawMessage
	ErrorMessage   string
	Charged        decimal.Decimal
	VerifiedAt     time.Time
}

// SourceLocal marks an answer complyd gave itself before asking any provider (NO_FACE,
// MULTIPLE_FACES from its own face detector); such answers are free.
const SourceLocal = "LOCAL"

// Detail is an application with its results (oldest first) and documents.
type Detail struct {
	Application
	Results   []Result
	Documents []document.Document
	// Evidence is what an approval rests on (docs/guide/kyc.md "Evidence and overrides"): the store
	// fills the open cases, overrides and setting; Service.Get the open checks.
	Evidence evidence.Record
}

// advance moves a to the milestone to unless a is already at or above it (never lowered).
func (a *Application) advance(to string) { lifecycle.Advance(&a.Base, to) }

// QualifiedTier is the highest tier the application's facts meet (spec 3.2 rules 1–3), or ""
// when it meets none:
//  1. TIER_1: a verified BVN or NIN;
//  2. TIER_2: a verified BVN and a valid means of identification (a verified NIN alone is not enough);
//  3. TIER_3: a verified BVN or NIN, a valid ID, a proof of address and a passed liveness check.
func (a Application) QualifiedTier() string {
	idVerified := a.BVNVerified || a.NINVerified
	switch {
	case idVerified && a.HasIDDocument && a.HasProofOfAddress && a.LivenessPassed:
		return identity.Tier3
	case a.BVNVerified && a.HasIDDocument:
		return identity.Tier2
	case idVerified:
		return identity.Tier1
	}
	return ""
}

// upgradeTier applies spec 3.2 rule 4: after an upload or a verification the tier rises to the
// qualified tier, and to at least TIER_2 when both a BVN and a NIN are present. It never lowers.
func (a *Application) upgradeTier() {
	raise := func(t string) {
		if identity.TierRank(t) > identity.TierRank(a.Tier) {
			a.Tier = t
		}
	}
	raise(a.QualifiedTier())
	if a.BVN != "" && a.NIN != "" {
		raise(identity.Tier2)
	}
}

func newID(prefix string) string { return application.NewID(prefix) }

// IDPrefix starts every application id; ResultIDPrefix every verification result id.
const (
	IDPrefix       = "kyc_"
	ResultIDPrefix = "vr_"
)
