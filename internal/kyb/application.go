// Package kyb owns business (KYB) applications (docs/reference/specification.md 2.6, 3.3, 4.5; docs/design/design-choices.md §5):
// the milestone order (never lowered), CAC verification and director checks through the
// identity provider chain charged from the wallet, beneficial-owner screening with the shared
// sanctions/PEP matcher, run-screening, documents and officer decisions.
//
// kyb is core: it imports application, identity, document, sanctions, wallet, audit, apperr, paging and
// tenancy; never pgx, river, connect, net/http or an adapter.
package kyb

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/identity"
)

// Statuses (docs/reference/specification.md 3.3, docs/design/design-choices.md §5).
const (
	StatusPending                  = application.StatusPending
	StatusDocumentUploaded         = application.StatusDocumentUploaded
	StatusCACVerified              = "CAC_VERIFIED"
	StatusDirectorsVerified        = "DIRECTORS_VERIFIED"
	StatusBeneficialOwnersVerified = "BENEFICIAL_OWNERS_VERIFIED"
	StatusScreeningPassed          = "SCREENING_PASSED"
	StatusApproved                 = application.StatusApproved
	StatusRejected                 = application.StatusRejected
)

// List page sizes (docs/design/design-choices.md §7).
const (
	PageDefault = application.PageDefault
	PageMax     = application.PageMax
)

// Id prefixes.
const (
	IDPrefix      = "kyb_"
	CheckIDPrefix = "kbc_"
)

// Check types on the evidence trail.
const (
	CheckCAC   = "CAC"
	CheckDir   = "DIRECTOR"
	CheckOwner = "BENEFICIAL_OWNER"
)

// lifecycle is the order of docs/design/design-choices.md §5: a step never lowers the status;
// APPROVED and REJECTED are terminal.
var lifecycle = application.NewLifecycle([]string{StatusPending, StatusDocumentUploaded, StatusCACVerified,
	StatusDirectorsVerified, StatusBeneficialOwnersVerified, StatusScreeningPassed}, StatusApproved, StatusRejected)

// Statuses lists every status.
func Statuses() []string { return lifecycle.Statuses() }

// IsTerminal reports APPROVED and REJECTED.
func IsTerminal(status string) bool { return lifecycle.IsTerminal(status) }

// MilestoneRank is the position of a milestone (PENDING 0 … SCREENING_PASSED 5), -1 otherwise.
func MilestoneRank(status string) int { return lifecycle.Rank(status) }

// Director is a company director on the application (spec 2.6) with our verification fact.
type Director struct {
	Name        string `json:"name"`
	BVN         string `json:"bvn,omitempty"`
	NIN         string `json:"nin,omitempty"`
	Email       string `json:"email,omitempty"`
	Phone       string `json:"phone,omitempty"`
	Nationality string `json:"nationality,omitempty"`
	Verified    bool   `json:"verified"`
}

// Owner is a beneficial owner (spec 2.6) with the result of its last screening: Clean is nil
// until the owner was screened.
type Owner struct {
	Name       string  `json:"name"`
	Percentage float64 `json:"percentage"`
	BVN        string  `json:"bvn,omitempty"`
	NIN        string  `json:"nin,omitempty"`
	Clean      *bool   `json:"clean,omitempty"`
	Hits       []Hit   `json:"hits,omitempty"`
}

// Hit is one sanctions, PEP or internal watchlist match of a screened name (docs/design/design-choices.md §10
// search shape, plus the §8 band).
type Hit struct {
	List        string  `json:"list"`
	ListType    string  `json:"listType"`
	EntryID     string  `json:"entryId"`
	SourceID    string  `json:"sourceId"`
	Name        string  `json:"name"`
	MatchedName string  `json:"matchedName"`
	Score       float64 `json:"score"`
	Band        string  `json:"band"`
}

// Application is a KYB application: the shared fields (application.Base: id, status, risk
// level, assignee, notes, times, customer) and its own. Empty strings are absent values
// (rendered as null).
type Application struct {
	application.Base
	CompanyName       string
	RCNumber          string
	TIN               string
	Address           string
	IncorporationDate *time.Time
	BusinessActivity  string
	OperatingCountry  string
	Directors         []Director
	Owners            []Owner
	// Verification facts behind the milestones.
	CACVerified       bool
	DirectorsVerified bool
	OwnersClean       bool
	// Company is the registry record of the last CAC lookup that found the company.
	Company   *identity.Company
	ProfileID string
}

// Check is one entry of the evidence trail: a CAC lookup, a director check or an owner
// screening. Charged is what the wallet paid for it ("0.00" for in-house screening).
type Check struct {
	ID             string
	ApplicationID  string
	Type           string
	Subject        string
	Passed         bool
	Confidence     float64
	Provider       string
	ProviderSource string
	Detail         map[string]any
	Charged        decimal.Decimal
	CheckedAt      time.Time
}

// Detail is an application with its checks (oldest first) and documents.
type Detail struct {
	Application
	Checks    []Check
	Documents []document.Document
	// Evidence is what an approval rests on (docs/guide/kyb.md "Evidence and overrides"): the store
	// fills the open cases, overrides and setting; Service.Get the open checks.
	Evidence evidence.Record
}

// advance moves a to the milestone to unless a is already at or above it (never lowered).
func (a *Application) advance(to string) { lifecycle.Advance(&a.Base, to) }

func newID(prefix string) string { return application.NewID(prefix) }

// snapshot is the audited state of an application.
func snapshot(a Application) map[string]any {
	m := map[string]any{"status": a.Status, "companyName": a.CompanyName, "rcNumber": a.RCNumber,
		"cacVerified": a.CACVerified, "directorsVerified": a.DirectorsVerified, "ownersClean": a.OwnersClean,
		"directors": len(a.Directors), "beneficialOwners": len(a.Owners)}
	if a.RiskLevel != "" {
		m["riskLevel"] = a.RiskLevel
	}
	if a.Notes != "" {
		m["notes"] = a.Notes
	}
	return m
}
