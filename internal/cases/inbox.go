package cases

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// Inbox is a team's inbox of cases (docs/guide/dashboard-cases.md "Inboxes and service level"): it
// takes the new cases of its CaseTypes (none: every type no other inbox names), gives each a due
// time from its service level, and may assign it to a member automatically. Filing, due time and
// assignment happen in the database, in the creating transaction (migration 0042's case_route),
// whatever path creates the case.
type Inbox struct {
	ID         string
	TenantID   tenancy.TenantID
	Name       string
	CaseTypes  []string
	Assignment string
	SLA        SLA
	Members    []Person
	OpenCases  int
	Breached   int
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Assignment strategies of an inbox.
const (
	AssignManual      = "MANUAL"
	AssignRoundRobin  = "ROUND_ROBIN"
	AssignLeastLoaded = "LEAST_LOADED"
)

// SLA is an inbox's service level: minutes from creation to due, per priority.
type SLA struct {
	Critical, High, Medium, Low int
}

// DefaultSLA is the service level of an inbox created without one and of cases filed in no
// inbox: 4 hours, 1 day, 3 days, 7 days. The spec is silent; these follow the priorities' words.
var DefaultSLA = SLA{Critical: 240, High: 1440, Medium: 4320, Low: 10080}

// Due returns when a case of priority created at is due under s.
func (s SLA) Due(priority string, created time.Time) time.Time {
	m := s.Low
	switch priority {
	case PriorityCritical:
		m = s.Critical
	case PriorityHigh:
		m = s.High
	case PriorityMedium:
		m = s.Medium
	}
	return created.Add(time.Duration(m) * time.Minute)
}

// maxSLAMinutes bounds a service level to a year.
const maxSLAMinutes = 525600

func (s SLA) validate(field string) []apperr.FieldError {
	var bad []apperr.FieldError
	for _, v := range []struct {
		name string
		m    int
	}{{"critical", s.Critical}, {"high", s.High}, {"medium", s.Medium}, {"low", s.Low}} {
		if v.m < 1 || v.m > maxSLAMinutes {
			bad = append(bad, apperr.FieldError{Field: field + "." + v.name, Message: "must be between 1 and 525600 minutes"})
		}
	}
	return bad
}

// InboxParams create or change an inbox; nil fields are left as they are on a change.
type InboxParams struct {
	Name       *string
	CaseTypes  []string
	Assignment *string
	SLA        *SLA
	// MemberIDs replace the members when SetMembers.
	SetMembers bool
	MemberIDs  []string
}

// Apply validates p and applies it to in. Errors: VALIDATION_ERROR naming each bad field.
func (p InboxParams) Apply(in *Inbox) error {
	var bad []apperr.FieldError
	if p.Name != nil {
		n := strings.TrimSpace(*p.Name)
		if n == "" || len([]rune(n)) > 100 {
			bad = append(bad, apperr.FieldError{Field: "name", Message: "must be 1 to 100 characters"})
		}
		in.Name = n
	}
	if p.CaseTypes != nil {
		types := []string{}
		for _, t := range p.CaseTypes {
			if !IsType(t) {
				bad = append(bad, apperr.FieldError{Field: "caseTypes", Message: "must be case types"})
				break
			}
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
		in.CaseTypes = types
	}
	if p.Assignment != nil {
		switch *p.Assignment {
		case AssignManual, AssignRoundRobin, AssignLeastLoaded:
			in.Assignment = *p.Assignment
		default:
			bad = append(bad, apperr.FieldError{Field: "assignment", Message: "must be MANUAL, ROUND_ROBIN or LEAST_LOADED"})
		}
	}
	if p.SLA != nil {
		bad = append(bad, p.SLA.validate("sla")...)
		in.SLA = *p.SLA
	}
	if in.Name == "" && p.Name == nil {
		bad = append(bad, apperr.FieldError{Field: "name", Message: "is required"})
	}
	if len(bad) > 0 {
		return apperr.InvalidFields(bad...)
	}
	return nil
}

// SavedView is a user's named queue filters, private to that user.
type SavedView struct {
	ID        string
	TenantID  tenancy.TenantID
	UserID    string
	Name      string
	Filters   ViewFilters
	CreatedAt time.Time
}

// ViewFilters are the queue filters a saved view keeps (the queue's own words).
type ViewFilters struct {
	Status   string `json:"status,omitempty"`
	Type     string `json:"type,omitempty"`
	Priority string `json:"priority,omitempty"`
	Scope    string `json:"scope,omitempty"`
	InboxID  string `json:"inboxId,omitempty"`
	Sort     string `json:"sort,omitempty"`
}

// Validate checks the filters against the queue's values. Errors: VALIDATION_ERROR.
func (f ViewFilters) Validate() error {
	var bad []apperr.FieldError
	if f.Status != "" && !IsStatus(f.Status) {
		bad = append(bad, apperr.FieldError{Field: "filters.status", Message: "must be a case status"})
	}
	if f.Type != "" && !IsType(f.Type) {
		bad = append(bad, apperr.FieldError{Field: "filters.type", Message: "must be a case type"})
	}
	if f.Priority != "" && !IsPriority(f.Priority) {
		bad = append(bad, apperr.FieldError{Field: "filters.priority", Message: "must be a priority"})
	}
	if f.Scope != "" && !slices.Contains([]string{"queue", "mine", "unassigned", "all", "confirm"}, f.Scope) {
		bad = append(bad, apperr.FieldError{Field: "filters.scope", Message: "must be queue, mine, unassigned, all or confirm"})
	}
	if f.Sort != "" && !slices.Contains([]string{"NEWEST", "OLDEST", "PRIORITY", "DUE"}, f.Sort) {
		bad = append(bad, apperr.FieldError{Field: "filters.sort", Message: "must be NEWEST, OLDEST, PRIORITY or DUE"})
	}
	if len(bad) > 0 {
		return apperr.InvalidFields(bad...)
	}
	return nil
}

// InboxStore is the persistence port of inboxes, saved views and the assignable people
// (internal/postgres). Every method is scoped to tenantID; another tenant's inbox or another
// user's view is NOT_FOUND.
type InboxStore interface {
	// CreateInbox inserts the inbox and its members. Errors: CONFLICT on a duplicate name;
	// VALIDATION_ERROR on a member who is not an active user of the tenant.
	CreateInbox(ctx context.Context, in Inbox, memberIDs []string) (*Inbox, error)
	// UpdateInbox locks the inbox, calls fn, and writes it (and the members when fn says so).
	// Errors: NOT_FOUND; CONFLICT; whatever fn returns.
	UpdateInbox(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Inbox) (InboxParams, error)) (*Inbox, error)
	// Name returns an inbox's name, "" when there is none. Errors: INTERNAL.
	Name(ctx context.Context, tenantID tenancy.TenantID, id string) (string, error)
	// Inboxes lists the tenant's inboxes by name with members and counts. Errors: INTERNAL.
	Inboxes(ctx context.Context, tenantID tenancy.TenantID, now time.Time) ([]Inbox, error)
	// Assignable lists the active users a case may be assigned to (officers and analysts), or
	// an inbox's active members. Errors: NOT_FOUND (inbox).
	Assignable(ctx context.Context, tenantID tenancy.TenantID, inboxID string) ([]Person, error)
	// CreateView inserts a saved view. Errors: CONFLICT on a duplicate name for the user.
	CreateView(ctx context.Context, v SavedView) (*SavedView, error)
	// Views lists the user's saved views by name. Errors: INTERNAL.
	Views(ctx context.Context, tenantID tenancy.TenantID, userID string) ([]SavedView, error)
	// DeleteView deletes one of the user's views. Errors: NOT_FOUND (also another user's).
	DeleteView(ctx context.Context, tenantID tenancy.TenantID, userID, id string) error
}
