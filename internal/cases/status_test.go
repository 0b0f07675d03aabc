package cases

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

// wantMoves is docs/design/design-choices.md §5 typed out again, independently of the transitions map.
var wantMoves = map[string][]string{
	"OPEN":                    {"IN_PROGRESS", "ESCALATED"},
	"IN_PROGRESS":             {"PENDING_REVIEW", "ESCALATED"},
	"PENDING_REVIEW":          {"IN_PROGRESS", "ESCALATED", "RESOLVED_TRUE_POSITIVE", "RESOLVED_FALSE_POSITIVE"},
	"ESCALATED":               {"IN_PROGRESS", "PENDING_REVIEW", "RESOLVED_TRUE_POSITIVE", "RESOLVED_FALSE_POSITIVE"},
	"RESOLVED_TRUE_POSITIVE":  {"CLOSED", "IN_PROGRESS"},
	"RESOLVED_FALSE_POSITIVE": {"CLOSED", "IN_PROGRESS"},
	"CLOSED":                  {},
}

var t0 = time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)

func caseIn(status string) Case {
	c := Case{
		ID: "case_x", TenantID: "t1", CaseNumber: "CASE-2026-00001", Type: TypeAMLAlert,
		Priority: PriorityHigh, Title: "t", Description: "d", Status: status, Tags: []string{},
		CreatedBy: "u0", CreatedAt: t0, UpdatedAt: t0,
	}
	if status == StatusResolvedTruePositive || status == StatusResolvedFalsePositive || status == StatusClosed {
		c.ResolvedAt = ptr(t0)
		c.ResolutionNote = "earlier note"
	}
	return c
}

func TestStatusesAndTable(t *testing.T) {
	t.Parallel()
	require.Len(t, Statuses(), 7)
	require.Len(t, wantMoves, 7)
	for _, from := range Statuses() {
		require.Equal(t, wantMoves[from], Allowed(from), from)
	}
	require.Equal(t, []string{}, Allowed("NOPE"))
	// Allowed returns a copy: callers cannot corrupt the table.
	got := Allowed(StatusOpen)
	got[0] = "X"
	require.Equal(t, StatusInProgress, Allowed(StatusOpen)[0])
}

// TestChangeStatusMatrix runs every from × to pair of the 7 statuses (49 cases).
func TestChangeStatusMatrix(t *testing.T) {
	t.Parallel()
	for _, from := range Statuses() {
		for _, to := range Statuses() {
			allowed := slices.Contains(wantMoves[from], to)
			t.Run(fmt.Sprintf("%s->%s", from, to), func(t *testing.T) {
				t.Parallel()
				require.Equal(t, allowed, CanTransition(from, to))
				a := Actor{UserID: "u1", At: t0.Add(time.Hour)}
				before := caseIn(from)
				got, eff, err := ChangeStatus(before, a, to, "  because  ")
				if !allowed {
					require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err))
					e, _ := apperr.As(err)
					require.Equal(t, map[string]any{"from": from, "to": to, "allowed": wantMoves[from]}, e.Data)
					require.Equal(t, before, got)
					require.Empty(t, eff.Events)
					return
				}
				require.NoError(t, err)
				require.Equal(t, to, got.Status)
				require.Equal(t, a.At, got.UpdatedAt)
				require.Len(t, eff.Events, 1)
				ev := eff.Events[0]
				require.Equal(t, EventStatusChanged, ev.EventType)
				require.Equal(t, from, *ev.PreviousValue)
				require.Equal(t, to, *ev.NewValue)
				require.Equal(t, "u1", ev.ActorID)
				require.Equal(t, before.ID, ev.CaseID)

				switch to {
				case StatusResolvedTruePositive, StatusResolvedFalsePositive:
					require.Equal(t, a.At, *got.ResolvedAt)
					require.Equal(t, "because", got.ResolutionNote)
				case StatusClosed:
					require.Equal(t, t0, *got.ResolvedAt, "closing keeps the resolution time")
					require.Equal(t, "because", got.ResolutionNote)
				default:
					require.Nil(t, got.ResolvedAt)
					require.Empty(t, got.ResolutionNote)
				}
				if RequiresResolutionNote(to) {
					require.Len(t, eff.Webhooks, 1)
					require.Equal(t, WebhookCaseResolved, eff.Webhooks[0].Event)
					require.Equal(t, to, eff.Webhooks[0].Data["status"])
					require.Equal(t, from, eff.Webhooks[0].Data["previousStatus"])
					require.Equal(t, "because", eff.Webhooks[0].Data["resolutionNote"])
				} else {
					require.Empty(t, eff.Webhooks)
				}
			})
		}
	}
}

func TestChangeStatusResolutionNote(t *testing.T) {
	t.Parallel()
	a := Actor{UserID: "u1", At: t0}
	tests := []struct {
		from, to, note string
		wantCode       apperr.Code
		wantField      string
	}{
		{StatusPendingReview, StatusResolvedTruePositive, "", apperr.Validation, "resolutionNote"},
		{StatusEscalated, StatusResolvedFalsePositive, "   \n", apperr.Validation, "resolutionNote"},
		{StatusResolvedTruePositive, StatusClosed, "", apperr.Validation, "resolutionNote"},
		{StatusPendingReview, StatusResolvedTruePositive, string(make([]rune, MaxNoteLen+1)), apperr.Validation, "resolutionNote"},
		// The transition is checked before the note: a forbidden move is 409 even without a note.
		{StatusOpen, StatusClosed, "", apperr.InvalidStatusTransition, ""},
		{StatusOpen, StatusResolvedTruePositive, "", apperr.InvalidStatusTransition, ""},
		// No note needed for the other moves.
		{StatusOpen, StatusInProgress, "", "", ""},
		{StatusResolvedFalsePositive, StatusInProgress, "", "", ""},
		// Unknown target.
		{StatusOpen, "DONE", "x", apperr.Validation, "status"},
	}
	for _, tt := range tests {
		t.Run(tt.from+"->"+tt.to, func(t *testing.T) {
			t.Parallel()
			_, _, err := ChangeStatus(caseIn(tt.from), a, tt.to, tt.note)
			require.Equal(t, tt.wantCode, apperr.CodeOf(err))
			if tt.wantField != "" {
				e, _ := apperr.As(err)
				require.Equal(t, tt.wantField, e.Details[0].Field)
			}
		})
	}
}

func TestReopenClearsResolution(t *testing.T) {
	t.Parallel()
	c, _, err := ChangeStatus(caseIn(StatusResolvedTruePositive), Actor{UserID: "u", At: t0}, StatusInProgress, "")
	require.NoError(t, err)
	require.Nil(t, c.ResolvedAt)
	require.Empty(t, c.ResolutionNote)
}

func TestFormatNumber(t *testing.T) {
	t.Parallel()
	require.Equal(t, "CASE-2026-00042", FormatNumber(2026, 42))
	require.Equal(t, "CASE-2026-00001", FormatNumber(2026, 1))
	require.Equal(t, "CASE-2026-99999", FormatNumber(2026, 99999))
	require.Equal(t, "CASE-2027-100000", FormatNumber(2027, 100000))
}

func TestNewID(t *testing.T) {
	t.Parallel()
	a, b := NewID(PrefixCase), NewID(PrefixCase)
	require.NotEqual(t, a, b)
	require.Regexp(t, `^case_[0-9a-v]{26}$`, a)
}
