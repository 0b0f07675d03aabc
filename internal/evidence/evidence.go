// Package evidence owns what an officer's approval of a KYC or KYB application rests on (issue
// 48 point 4; docs/guide/kyc.md and docs/guide/kyb.md "Evidence and overrides"): the checks the application
// failed or is missing, its open cases, the override an approval over them records, and the
// tenant setting that refuses such an approval instead. kyc and kyb each say which checks their
// applications need (kyc.Application.OpenChecks, kyb.Application.OpenChecks); the rest is here,
// once, for both.
//
// evidence is core: it imports apperr and audit; never pgx, river, connect, net/http or an
// adapter.
package evidence

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
)

// Check statuses.
const (
	// Failed: the check ran and did not pass (a BVN that did not match, a director not found).
	Failed = "FAILED"
	// Missing: the check never ran, or there was nothing to check (no document uploaded).
	Missing = "MISSING"
)

// Check is one check an application failed or is missing.
type Check struct {
	Kind    string `json:"kind"`
	Status  string `json:"status"`
	Detail  string `json:"detail"`
	Subject string `json:"subject,omitempty"`
}

// Case is an open case of the application (not resolved or closed).
type Case struct {
	ID       string `json:"id"`
	Number   string `json:"caseNumber"`
	Type     string `json:"type"`
	Status   string `json:"status"`
	Priority string `json:"priority"`
	Title    string `json:"title"`
}

// Standing is what is open on an application: its failed or missing checks and its open cases.
type Standing struct {
	Checks    []Check
	OpenCases []Case
}

// Open reports whether anything is open.
func (s Standing) Open() bool { return len(s.Checks) > 0 || len(s.OpenCases) > 0 }

// Override is the record of an approval given over an open standing: who, when, which checks
// and cases, with the notes given. It is append-only (migration 0027).
type Override struct {
	ID        string
	Checks    []Check
	OpenCases []Case
	Notes     string
	ActorID   string
	ActorType string
	// ActorName is the approving user's name, filled by the store when read.
	ActorName string
	CreatedAt time.Time
}

// IDPrefix starts every override id.
const IDPrefix = "ovr_"

// Approve applies the evidence rule to an approval (from → to) over s: nothing open approves
// with no override; with required (the tenant's approval_evidence_required) an open standing
// refuses the approval with 409 INVALID_STATUS_TRANSITION whose data lists what is open
// (openChecks, openCases) beside the usual from/to/allowed; otherwise the approval goes through
// and the returned override records what it overrode. The spec lets an officer approve from any
// state (docs/design/design-choices.md §5), hence the default.
func Approve(s Standing, required bool, from, to string, allowed []string, actor audit.Actor, notes string, now time.Time) (*Override, error) {
	if !s.Open() {
		return nil, nil
	}
	if required {
		e := apperr.Transition(from, to, allowed)
		e.Message = fmt.Sprintf("cannot approve: %s (this tenant requires the evidence before an approval)", s.Summary())
		// Error data travels as a protobuf Struct over gRPC/Connect: plain maps, not structs.
		checks := make([]any, 0, len(s.Checks))
		for _, c := range s.Checks {
			checks = append(checks, map[string]any{"kind": c.Kind, "status": c.Status, "detail": c.Detail, "subject": c.Subject})
		}
		cases := make([]any, 0, len(s.OpenCases))
		for _, c := range s.OpenCases {
			cases = append(cases, map[string]any{"id": c.ID, "caseNumber": c.Number, "type": c.Type, "status": c.Status,
				"priority": c.Priority, "title": c.Title})
		}
		e.Data["openChecks"], e.Data["openCases"] = checks, cases
		return nil, e
	}
	return &Override{ID: newID(), Checks: orEmpty(s.Checks), OpenCases: orEmpty(s.OpenCases), Notes: strings.TrimSpace(notes),
		ActorID: actor.ID, ActorType: actor.Type, CreatedAt: now}, nil
}

// Summary says in words what is open ("2 checks failed or missing, 1 open case").
func (s Standing) Summary() string {
	var parts []string
	if n := len(s.Checks); n > 0 {
		parts = append(parts, plural(n, "check", "checks")+" failed or missing")
	}
	if n := len(s.OpenCases); n > 0 {
		parts = append(parts, plural(n, "open case", "open cases"))
	}
	return strings.Join(parts, ", ")
}

// Audit is the override as the approval's audit event records it (After["override"]).
func (o *Override) Audit() map[string]any {
	if o == nil {
		return nil
	}
	cases := make([]string, 0, len(o.OpenCases))
	for _, c := range o.OpenCases {
		cases = append(cases, c.Number)
	}
	checks := make([]string, 0, len(o.Checks))
	for _, c := range o.Checks {
		k := c.Kind + " " + c.Status
		if c.Subject != "" {
			k += " (" + c.Subject + ")"
		}
		checks = append(checks, k)
	}
	return map[string]any{"id": o.ID, "checks": checks, "openCases": cases, "notes": o.Notes}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func orEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return IDPrefix + hex.EncodeToString(b[:])
}

// Record is an application's evidence as the API shows it: what is open (the checks computed
// by kyc or kyb from the application's facts, the open cases read by the store), the overrides
// recorded so far, and whether the tenant requires the evidence before an approval.
type Record struct {
	Standing
	Overrides []Override
	Required  bool
}
