package customers

import (
	"time"

	"github.com/complyd/complyd/internal/lookup"
	"github.com/complyd/complyd/internal/webhook"
)

// Risk is a customer's current rating and its review dates.
type Risk struct {
	CustomerID     string
	Rating         Rating
	ComputedAt     time.Time
	NextReviewAt   time.Time
	LastReviewedAt *time.Time
}

// HistoryEntry is one change of rating.
type HistoryEntry struct {
	ID             string
	Rating         Rating
	PreviousRating string
	Reason         string
	CreatedAt      time.Time
}

// Application is a KYC or KYB application linked to the customer.
type Application struct {
	ID, Kind, Status, Tier, RiskLevel string
	CreatedAt                         time.Time
}

// Account is an account the customer's BVN sent from.
type Account struct {
	Account              string
	Transactions, Alerts int
	FirstAt, LastAt      time.Time
}

// Case is a linked case.
type Case struct {
	ID, CaseNumber, Title, Status, Priority string
	CreatedAt                               time.Time
}

// SanctionsReview is a reviewed false positive of the customer's BVN or accounts.
type SanctionsReview struct {
	ID, SubjectKey, EntryID, Reason string
	Active                          bool
	CreatedAt                       time.Time
}

// Report is a regulatory report of the customer: drafted for one of its accounts or from one of
// its cases (docs/guide/reports.md).
type Report struct {
	ID, Type, Status, Account, CaseID string
	Day                               time.Time
	CreatedAt                         time.Time
}

// Overview is a profile with everything linked to it.
type Overview struct {
	Profile           lookup.Profile
	Risk              *Risk
	Applications      []Application
	Accounts          []Account
	AccountsTruncated bool
	Cases             []Case
	CasesTruncated    bool
	SanctionsReviews  []SanctionsReview
	Reports           []Report
	ReportsTruncated  bool
}

// ListItem is a profile with its rating (Risk nil until rated).
type ListItem struct {
	ID, Type, Name string
	Risk           *Risk
	UpdatedAt      time.Time
}

// SearchParams filter the customer list.
type SearchParams struct {
	Query  string
	Rating string
}

// Due is a customer whose review is due, for the notification.
type Due struct {
	CustomerID, Name, Rating string
	NextReviewAt             time.Time
}

// Recompute reasons that are not queued by a trigger.
const (
	ReasonManual     = "MANUAL"
	ReasonReview     = "REVIEW"
	ReasonNewProfile = "NEW_PROFILE"
)

// Events of the webhook and audit log.
const (
	// EventReviewDue is the webhook event of a due periodic review (docs/guide/webhooks.md).
	EventReviewDue = webhook.EventCustomerReviewDue
	// EventRiskChanged is the webhook event of a changed rating.
	EventRiskChanged = webhook.EventCustomerRiskChanged
)
