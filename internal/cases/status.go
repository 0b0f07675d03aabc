package cases

import "slices"

// Case statuses (docs/reference/specification.md 3.1).
const (
	StatusOpen                  = "OPEN"
	StatusInProgress            = "IN_PROGRESS"
	StatusPendingReview         = "PENDING_REVIEW"
	StatusEscalated             = "ESCALATED"
	StatusResolvedTruePositive  = "RESOLVED_TRUE_POSITIVE"
	StatusResolvedFalsePositive = "RESOLVED_FALSE_POSITIVE"
	StatusClosed                = "CLOSED"
)

// Statuses lists every case status in the spec's lifecycle order.
func Statuses() []string {
	return []string{
		StatusOpen, StatusInProgress, StatusPendingReview, StatusEscalated,
		StatusResolvedTruePositive, StatusResolvedFalsePositive, StatusClosed,
	}
}

// IsStatus reports whether s is a case status.
func IsStatus(s string) bool { return slices.Contains(Statuses(), s) }

// transitions is docs/design/design-choices.md §5's table; anything not listed is 409 INVALID_STATUS_TRANSITION.
var transitions = map[string][]string{
	StatusOpen:                  {StatusInProgress, StatusEscalated},
	StatusInProgress:            {StatusPendingReview, StatusEscalated},
	StatusPendingReview:         {StatusInProgress, StatusEscalated, StatusResolvedTruePositive, StatusResolvedFalsePositive},
	StatusEscalated:             {StatusInProgress, StatusPendingReview, StatusResolvedTruePositive, StatusResolvedFalsePositive},
	StatusResolvedTruePositive:  {StatusClosed, StatusInProgress},
	StatusResolvedFalsePositive: {StatusClosed, StatusInProgress},
	StatusClosed:                {},
}

// Allowed returns the statuses a case in from may move to (docs/design/design-choices.md §5), as a fresh slice.
// It returns an empty, non-nil slice for CLOSED and for unknown statuses.
func Allowed(from string) []string {
	to, ok := transitions[from]
	if !ok {
		return []string{}
	}
	return slices.Clone(to)
}

// CanTransition reports whether docs/design/design-choices.md §5 allows the move from → to.
func CanTransition(from, to string) bool {
	return slices.Contains(transitions[from], to)
}

// RequiresResolutionNote reports whether moving to the status needs a resolutionNote
// (docs/reference/specification.md 3.1: "resolutionNote is required when resolving or closing").
func RequiresResolutionNote(to string) bool {
	return to == StatusResolvedTruePositive || to == StatusResolvedFalsePositive || to == StatusClosed
}
