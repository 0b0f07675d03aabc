package application

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"slices"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/wallet"
)

// Statuses every application has (docs/reference/specification.md 3.2, 3.3).
const (
	StatusPending          = "PENDING"
	StatusDocumentUploaded = "DOCUMENT_UPLOADED"
	StatusApproved         = "APPROVED"
	StatusRejected         = "REJECTED"
)

// List page sizes (docs/design/design-choices.md §7).
const (
	PageDefault = 20
	PageMax     = 100
)

// Deps are the collaborators every kind's service has beside its store; kyc.Deps and kyb.Deps
// embed them. All are required (Complete).
type Deps struct {
	// Wallet pays for the verifications (docs/guide/wallet.md).
	Wallet *wallet.Service
	// Providers returns the tenant's identity providers and their selection.
	Providers identity.ProvidersFunc
	// Matcher screens names (applicants, directors, owners) against the global sanctions/PEP
	// lists and the tenant's watchlists; a hit opens a KYC_REVIEW case.
	Matcher *sanctions.Matcher
	// Blobs stores the documents' objects.
	Blobs  document.Blobs
	Now    func() time.Time
	Logger *slog.Logger
}

// Complete reports whether every dependency is set.
func (d Deps) Complete() bool {
	return d.Wallet != nil && d.Providers != nil && d.Matcher != nil && d.Blobs != nil && d.Now != nil && d.Logger != nil
}

// Base is what every application has; kyc.Application and kyb.Application embed it. Empty
// strings are absent values (rendered as null).
type Base struct {
	ID         string
	TenantID   string
	Status     string
	RiskLevel  string
	AssignedTo string
	Notes      string
	CreatedBy  string
	CreatedAt  time.Time
	UpdatedAt  time.Time
	// CustomerID is the customer profile the approval made or linked (docs/guide/customers.md), ""
	// before the first approval.
	CustomerID string
}

// Common returns the shared fields; through embedding it is a method of every application.
func (b *Base) Common() *Base { return b }

// Record is a pointer to an application that embeds Base.
type Record[A any] interface {
	*A
	Common() *Base
}

// ListParams filters an application list (the review queue, docs/guide/application-assignment.md).
type ListParams struct {
	Status string
	// AssignedTo lists only applications assigned to this user id.
	AssignedTo string
	// Unassigned lists only applications nobody is assigned to.
	Unassigned bool
}

// Queue is a list filter with the assignedTo query value resolved for the caller: "me" is the
// caller, a user id that user, "unassigned" nobody, "" no filter.
func Queue(status, assignedTo, callerID string) ListParams {
	f := ListParams{Status: status}
	switch assignedTo {
	case "":
	case "me":
		f.AssignedTo = callerID
	case "unassigned":
		f.Unassigned = true
	default:
		f.AssignedTo = assignedTo
	}
	return f
}

// Change is the part of an update's change that KYC and KYB share: the audit event and the side
// records the store writes in the same transaction. kyc.Change and kyb.Change embed it beside
// their own evidence records (verification results, checks).
type Change struct {
	Audit audit.Event
	// Hold, when set, is settled (the charge booked) in the same transaction (docs/guide/wallet.md).
	Hold              *wallet.Hold
	ChargeDescription string
	// AddDocument is a document record to insert (its object is already stored).
	AddDocument *document.Document
	// DeleteDocumentID is a document record to delete.
	DeleteDocumentID string
	// OpenCase, when set, is an automatic KYC_REVIEW case the store opens in the same transaction
	// unless the application already has an open KYC_REVIEW case.
	OpenCase *cases.NewParams
	// Override, when set, is the record of an approval over open evidence (internal/evidence),
	// inserted in the same transaction.
	Override *evidence.Override
}

// Lifecycle is the status order of one kind of application: milestones that a step never
// lowers (docs/design/design-choices.md §5) and the terminal statuses.
type Lifecycle struct {
	milestones []string
	terminal   []string
}

// NewLifecycle returns the lifecycle of milestones (in order) and terminal statuses.
func NewLifecycle(milestones []string, terminal ...string) Lifecycle {
	return Lifecycle{milestones: slices.Clone(milestones), terminal: slices.Clone(terminal)}
}

// Statuses lists every status: the milestones in order, then the terminal ones.
func (l Lifecycle) Statuses() []string { return append(slices.Clone(l.milestones), l.terminal...) }

// IsTerminal reports a terminal status.
func (l Lifecycle) IsTerminal(status string) bool { return slices.Contains(l.terminal, status) }

// Rank is the position of a milestone (PENDING 0, …), -1 for a terminal or unknown status.
func (l Lifecycle) Rank(status string) int { return slices.Index(l.milestones, status) }

// Known reports a status of the lifecycle.
func (l Lifecycle) Known(status string) bool { return l.Rank(status) >= 0 || l.IsTerminal(status) }

// Advance moves b to the milestone to unless b is terminal or already at or above it.
func (l Lifecycle) Advance(b *Base, to string) {
	if !l.IsTerminal(b.Status) && l.Rank(to) > l.Rank(b.Status) {
		b.Status = to
	}
}

// CheckOpen refuses a step towards to on a terminal application (409 INVALID_STATUS_TRANSITION,
// before anything is charged or stored).
func (l Lifecycle) CheckOpen(b Base, to string) error {
	if l.IsTerminal(b.Status) {
		return apperr.Transition(b.Status, to, []string{})
	}
	return nil
}

// CheckListStatus refuses an unknown status filter (VALIDATION_ERROR on status).
func (l Lifecycle) CheckListStatus(f ListParams) error {
	if f.Status != "" && !l.Known(f.Status) {
		return apperr.Invalid("status", "unknown status")
	}
	return nil
}

// NewID returns prefix followed by 32 random hex digits.
func NewID(prefix string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
