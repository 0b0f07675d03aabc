package cases

import (
	"slices"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// Case is one investigation of a flagged transaction, KYC application or manual concern
// (docs/reference/specification.md 2.3).
type Case struct {
	ID                      string // case_<id>
	TenantID                tenancy.TenantID
	CaseNumber              string // CASE-<year>-<5 digits>, see FormatNumber
	Type                    string
	Priority                string
	Title                   string
	Description             string
	Status                  string
	AssignedTo              *string
	RelatedTransactionID    *string
	RelatedKYCApplicationID *string
	Tags                    []string
	ResolvedAt              *time.Time
	ResolutionNote          string
	CreatedBy               string // user id; "" when the system created the case
	CreatedAt               time.Time
	UpdatedAt               time.Time
	// InboxID and DueAt are set by the database when the case is created (migration 0042's
	// case_route): the inbox that took it and its service level's due time.
	InboxID *string
	DueAt   *time.Time
	// Facts are the queue's columns from the related transaction; lists fill them, nil else.
	Facts *QueueFacts
}

// QueueFacts are what the queue shows of a case beyond its own row: its inbox's name and its
// transaction's amount, party, top rule and score.
type QueueFacts struct {
	InboxName string
	Amount    string // decimal string
	Currency  string
	Party     string
	TopRule   string
	Score     float64
}

// Case types (docs/reference/specification.md 2.3).
const (
	TypeSuspiciousTransaction = "SUSPICIOUS_TRANSACTION"
	TypeAMLAlert              = "AML_ALERT"
	TypeSanctionsHit          = "SANCTIONS_HIT"
	TypePEPMatch              = "PEP_MATCH"
	TypeFraudAlert            = "FRAUD_ALERT"
	TypeKYCReview             = "KYC_REVIEW"
	TypeRegulatoryInquiry     = "REGULATORY_INQUIRY"
	TypeBehavioralAnomaly     = "BEHAVIORAL_ANOMALY"
)

// Types lists every case type in the spec's order.
func Types() []string {
	return []string{
		TypeSuspiciousTransaction, TypeAMLAlert, TypeSanctionsHit, TypePEPMatch,
		TypeFraudAlert, TypeKYCReview, TypeRegulatoryInquiry, TypeBehavioralAnomaly,
	}
}

// Case priorities (docs/reference/specification.md 2.3).
const (
	PriorityLow      = "LOW"
	PriorityMedium   = "MEDIUM"
	PriorityHigh     = "HIGH"
	PriorityCritical = "CRITICAL"
)

// Priorities lists every priority from lowest to highest.
func Priorities() []string {
	return []string{PriorityLow, PriorityMedium, PriorityHigh, PriorityCritical}
}

// Length limits on free text; the spec is silent, these keep rows and webhooks bounded.
const (
	MaxTitleLen       = 200
	MaxDescriptionLen = 10_000
	MaxNoteLen        = 10_000
	MaxTags           = 20
	MaxTagLen         = 50
)

// IsType reports whether t is a case type.
func IsType(t string) bool { return slices.Contains(Types(), t) }

// IsPriority reports whether p is a case priority.
func IsPriority(p string) bool { return slices.Contains(Priorities(), p) }

// IsResolved reports whether the case is in one of the two resolved states.
func (c *Case) IsResolved() bool {
	return c.Status == StatusResolvedTruePositive || c.Status == StatusResolvedFalsePositive
}

// requiredText returns the trimmed text, or a field error when it is blank or longer than maxLen.
func requiredText(field, s string, maxLen int) (string, *apperr.FieldError) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", &apperr.FieldError{Field: field, Message: "is required"}
	case len([]rune(s)) > maxLen:
		return "", &apperr.FieldError{Field: field, Message: "is too long"}
	}
	return s, nil
}

// normalizeTags trims tags, drops empty ones and duplicates, and keeps the caller's order.
func normalizeTags(tags []string) ([]string, *apperr.FieldError) {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		t = strings.TrimSpace(t)
		if t == "" || slices.Contains(out, t) {
			continue
		}
		if len([]rune(t)) > MaxTagLen {
			return nil, &apperr.FieldError{Field: "tags", Message: "a tag is too long"}
		}
		out = append(out, t)
	}
	if len(out) > MaxTags {
		return nil, &apperr.FieldError{Field: "tags", Message: "too many tags"}
	}
	return out, nil
}
