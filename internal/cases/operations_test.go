package cases

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

func TestNew(t *testing.T) {
	t.Parallel()
	a := Actor{UserID: "u1", At: t0}
	valid := NewParams{
		TenantID: "t1", Type: TypeSanctionsHit, Priority: PriorityCritical, Title: " Hit ",
		Description: "desc", Tags: []string{"a", " a ", "", "b"}, RelatedTransactionID: ptr("tx1"),
	}

	t.Run("manual", func(t *testing.T) {
		t.Parallel()
		c, eff, err := New(valid, a, "CASE-2026-00007")
		require.NoError(t, err)
		require.Regexp(t, `^case_`, c.ID)
		require.Equal(t, StatusOpen, c.Status)
		require.Nil(t, c.AssignedTo)
		require.Equal(t, "Hit", c.Title)
		require.Equal(t, []string{"a", "b"}, c.Tags)
		require.Equal(t, "CASE-2026-00007", c.CaseNumber)
		require.Equal(t, "u1", c.CreatedBy)
		require.Len(t, eff.Events, 1)
		require.Equal(t, EventCaseCreated, eff.Events[0].EventType)
		require.Equal(t, c.ID, eff.Events[0].CaseID)
		require.Empty(t, eff.Webhooks)
		require.Empty(t, eff.Notifications)
	})

	t.Run("automatic", func(t *testing.T) {
		t.Parallel()
		p := valid
		p.Automatic = true
		c, eff, err := New(p, Actor{At: t0}, "CASE-2026-00008")
		require.NoError(t, err)
		require.Empty(t, c.CreatedBy)
		require.Len(t, eff.Events, 1)
		require.Equal(t, EventCaseCreated, eff.Events[0].EventType)
		require.Empty(t, eff.Events[0].ActorID)
		require.Len(t, eff.Webhooks, 1)
		require.Equal(t, WebhookCaseCreated, eff.Webhooks[0].Event)
		require.Equal(t, "CASE-2026-00008", eff.Webhooks[0].Data["caseNumber"])
		require.Equal(t, c.ID, eff.Webhooks[0].Data["caseId"])
		require.Equal(t, []Notification{{Kind: NotifyComplianceOfficers, Case: c}}, eff.Notifications)
	})

	t.Run("invalid", func(t *testing.T) {
		t.Parallel()
		_, _, err := New(NewParams{Type: "X", Priority: "URGENT", Title: " ", Tags: make([]string, 0)}, a, "")
		e, ok := apperr.As(err)
		require.True(t, ok)
		require.Equal(t, apperr.Validation, e.Code)
		var fields []string
		for _, d := range e.Details {
			fields = append(fields, d.Field)
		}
		require.Equal(t, []string{"type", "priority", "title", "description"}, fields)
	})

	t.Run("Validate agrees with New", func(t *testing.T) {
		t.Parallel()
		require.NoError(t, valid.Validate())
		bad := NewParams{Type: "X", Priority: "URGENT", Title: " ", Tags: make([]string, 0)}
		_, _, want := New(bad, a, "")
		require.Equal(t, want, bad.Validate())
	})
}

func TestAssign(t *testing.T) {
	t.Parallel()
	a := Actor{UserID: "u1", At: t0}
	for _, st := range Statuses() {
		t.Run(st, func(t *testing.T) {
			t.Parallel()
			c, eff, err := Assign(caseIn(st), a, "u2")
			require.NoError(t, err)
			require.Equal(t, "u2", *c.AssignedTo)
			require.Equal(t, st, c.Status)
			require.Len(t, eff.Events, 1)
			require.Equal(t, EventAssigned, eff.Events[0].EventType)
			require.Nil(t, eff.Events[0].PreviousValue)
			require.Equal(t, "u2", *eff.Events[0].NewValue)

			c2, eff, err := Assign(c, a, "u3")
			require.NoError(t, err)
			require.Equal(t, "u3", *c2.AssignedTo)
			require.Equal(t, "u2", *eff.Events[0].PreviousValue)

			_, eff, err = Assign(c2, a, "u3")
			require.NoError(t, err)
			require.Empty(t, eff.Events, "re-assigning the same user is a no-op")
		})
	}
	_, _, err := Assign(caseIn(StatusOpen), a, "")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
}

func TestAddNote(t *testing.T) {
	t.Parallel()
	ev, err := AddNote(caseIn(StatusClosed), Actor{UserID: "u1", At: t0}, "  called the bank  ")
	require.NoError(t, err)
	require.Equal(t, EventNoteAdded, ev.EventType)
	require.Equal(t, "called the bank", ev.Description)
	require.Equal(t, "case_x", ev.CaseID)
	require.Equal(t, t0, ev.CreatedAt)

	_, err = AddNote(caseIn(StatusOpen), Actor{UserID: "u1", At: t0}, "  ")
	e, _ := apperr.As(err)
	require.Equal(t, "content", e.Details[0].Field)
}

func TestEventTypes(t *testing.T) {
	t.Parallel()
	require.Len(t, EventTypes(), 12)
	require.Len(t, Types(), 8)
	require.Len(t, Priorities(), 4)
}

func TestListParamsNormalize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		in         ListParams
		want       ListParams
		wantFields []string
	}{
		{"defaults", ListParams{}, ListParams{Page: 1, Limit: 20}, nil},
		{"clamped", ListParams{Page: 3, Limit: 500}, ListParams{Page: 3, Limit: 100}, nil},
		{"filters", ListParams{Status: StatusOpen, Type: TypeFraudAlert, Priority: PriorityLow, AssigneeID: "u"},
			ListParams{Status: StatusOpen, Type: TypeFraudAlert, Priority: PriorityLow, AssigneeID: "u", Page: 1, Limit: 20}, nil},
		{"bad", ListParams{Status: "X", Type: "Y", Priority: "Z", Page: -1, Limit: -5}, ListParams{}, []string{"status", "type", "priority", "page", "limit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.in.Normalize()
			if tt.wantFields == nil {
				require.NoError(t, err)
				require.Equal(t, tt.want, got)
				return
			}
			e, ok := apperr.As(err)
			require.True(t, ok)
			var fields []string
			for _, d := range e.Details {
				fields = append(fields, d.Field)
			}
			require.Equal(t, tt.wantFields, fields)
		})
	}
}
