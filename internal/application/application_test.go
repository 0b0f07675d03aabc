package application_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application"
)

// TestLifecycle covers the milestone rule of docs/design/design-choices.md §5 on every from × to
// pair: a step moves up, never down, and never out of a terminal status.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	lc := application.NewLifecycle([]string{"PENDING", "DOCUMENT_UPLOADED", "CHECKED"}, "APPROVED", "REJECTED")
	require.Equal(t, []string{"PENDING", "DOCUMENT_UPLOADED", "CHECKED", "APPROVED", "REJECTED"}, lc.Statuses())
	for _, from := range lc.Statuses() {
		for _, to := range lc.Statuses() {
			b := application.Base{Status: from}
			lc.Advance(&b, to)
			switch {
			case lc.IsTerminal(from):
				require.Equal(t, from, b.Status, "%s stays terminal", from)
			case lc.Rank(to) > lc.Rank(from):
				require.Equal(t, to, b.Status, "%s → %s", from, to)
			default:
				require.Equal(t, from, b.Status, "%s is never lowered or decided by %s", from, to)
			}
		}
	}
	require.Equal(t, -1, lc.Rank("APPROVED"))
	require.True(t, lc.Known("REJECTED"))
	require.False(t, lc.Known("EXPIRED"))
}

// TestLifecycleRefusals covers the 409 of a step on a decided application and the 400 of an
// unknown list filter.
func TestLifecycleRefusals(t *testing.T) {
	t.Parallel()
	lc := application.NewLifecycle([]string{"PENDING"}, "APPROVED")
	require.NoError(t, lc.CheckOpen(application.Base{Status: "PENDING"}, "APPROVED"))
	err := lc.CheckOpen(application.Base{Status: "APPROVED"}, "PENDING")
	e, ok := apperr.As(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, apperr.InvalidStatusTransition, e.Code)
	require.Equal(t, map[string]any{"from": "APPROVED", "to": "PENDING", "allowed": []string{}}, e.Data)

	require.NoError(t, lc.CheckListStatus(application.ListParams{}))
	require.NoError(t, lc.CheckListStatus(application.ListParams{Status: "APPROVED"}))
	require.Equal(t, apperr.Validation, apperr.CodeOf(lc.CheckListStatus(application.ListParams{Status: "NOPE"})))
}

// TestQueue covers the assignedTo query values of the review queue
// (docs/guide/application-assignment.md).
func TestQueue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		value string
		want  application.ListParams
	}{
		{"", application.ListParams{Status: "PENDING"}},
		{"me", application.ListParams{Status: "PENDING", AssignedTo: "u-caller"}},
		{"unassigned", application.ListParams{Status: "PENDING", Unassigned: true}},
		{"u-other", application.ListParams{Status: "PENDING", AssignedTo: "u-other"}},
	} {
		require.Equal(t, c.want, application.Queue("PENDING", c.value, "u-caller"), c.value)
	}
}

func TestNewIDAndKind(t *testing.T) {
	t.Parallel()
	a, b := application.NewID("kyb_"), application.NewID("kyb_")
	require.Len(t, a, len("kyb_")+32)
	require.NotEqual(t, a, b)
	k := application.Kind{Name: "kyb"}
	require.Equal(t, "kyb.approved", k.Action("approved"))
	require.Equal(t, "kyb_application", k.ResourceType())
}

func TestNewPanicsOnMissingDependency(t *testing.T) {
	t.Parallel()
	require.Panics(t, func() {
		application.New[application.Base, *application.Base, application.Change](application.Kind{Name: "x"}, nil, nil, nil, nil,
			application.Hooks[application.Base, *application.Base, application.Change]{})
	})
}
