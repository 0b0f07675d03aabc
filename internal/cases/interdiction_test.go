package cases

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

func TestRequestInterdiction(t *testing.T) {
	t.Parallel()
	a := Actor{UserID: "officer", At: t0}
	p := InterdictionParams{Action: InterdictionFreeze, AccountNumber: "0123456789", Reason: "sanctions hit"}

	c, in, eff, err := RequestInterdiction(caseIn(StatusEscalated), a, p)
	require.NoError(t, err)
	require.Regexp(t, `^intd_`, in.ID)
	require.Equal(t, InterdictionRequested, in.Status)
	require.Equal(t, "officer", in.RequestedBy)
	require.Equal(t, StatusEscalated, c.Status)
	require.Equal(t, []string{EventInterdictionRequested}, eventTypes(eff))
	require.Len(t, eff.Webhooks, 1)
	require.Equal(t, WebhookInterdictionRequested, eff.Webhooks[0].Event)
	require.Equal(t, "0123456789", eff.Webhooks[0].Data["accountNumber"])
	require.Equal(t, in.ID, eff.Webhooks[0].Data["interdictionId"])

	_, _, _, err = RequestInterdiction(caseIn(StatusClosed), a, p)
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err))

	for _, acct := range []string{"", "012345678", "01234567890", "01234x6789"} {
		_, _, _, err = RequestInterdiction(caseIn(StatusOpen), a, InterdictionParams{Action: "SEIZE", AccountNumber: acct})
		e, _ := apperr.As(err)
		require.Equal(t, []apperr.FieldError{
			{Field: "action", Message: "must be FREEZE, BLOCK or POST_NO_DEBIT"},
			{Field: "accountNumber", Message: "must be exactly 10 digits"},
			{Field: "reason", Message: "is required"},
		}, e.Details, acct)
	}
}

func TestConfirmInterdiction(t *testing.T) {
	t.Parallel()
	a := Actor{UserID: "officer", At: t0}
	c, in, _, err := RequestInterdiction(caseIn(StatusOpen), a,
		InterdictionParams{Action: InterdictionPostNoDebit, AccountNumber: "0123456789", Reason: "r"})
	require.NoError(t, err)

	_, got, eff, err := ConfirmInterdiction(c, in, Actor{UserID: "ops", At: t0}, "CBS-991")
	require.NoError(t, err)
	require.Equal(t, InterdictionConfirmed, got.Status)
	require.Equal(t, "ops", *got.ConfirmedBy)
	require.Equal(t, t0, *got.ConfirmedAt)
	require.Equal(t, "CBS-991", got.Reference)
	require.Equal(t, []string{EventInterdictionConfirmed}, eventTypes(eff))
	require.Empty(t, eff.Webhooks)

	_, _, _, err = ConfirmInterdiction(c, got, a, "")
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err))

	other := c
	other.ID = "case_other"
	_, _, _, err = ConfirmInterdiction(other, in, a, "")
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
}
