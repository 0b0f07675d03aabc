package notify_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/notify"
)

// TestTemplatesEscapeHTML: names and titles come from users and transactions; in the HTML part
// they are escaped, in the text part kept as written.
func TestTemplatesEscapeHTML(t *testing.T) {
	t.Parallel()
	evil := `<script>alert("x")</script> & 'co'`
	for _, tc := range []struct {
		name string
		m    notify.Message
		kind string
	}{
		{"welcome", notify.Welcome(evil, evil, "a@example.com"), "welcome"},
		{"case created", notify.CaseCreated(evil, "a@example.com", "CASE-2026-000001", evil, "HIGH", "SANCTIONS_HIT"), "case_created"},
		{"low balance", notify.LowBalance(evil, "a@example.com", "900.00", "1000.00"), "low_balance"},
		{"customer review due", notify.CustomerReviewDue(evil, "a@example.com", []string{evil, "Bola"}), "customer_review_due"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tc.kind, tc.m.Kind)
			require.Equal(t, "a@example.com", tc.m.To)
			require.NotContains(t, tc.m.HTML, "<script>")
			require.NotContains(t, tc.m.HTML, `"x"`)
			require.Contains(t, tc.m.HTML, "&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;co&#39;")
			require.Contains(t, tc.m.Text, evil, "the text part is plain text")
		})
	}
}

func TestTemplateContents(t *testing.T) {
	t.Parallel()
	m := notify.CaseCreated("Ada", "ada@example.com", "CASE-2026-000042", "Sanctions hit on TXN-1", "CRITICAL", "SANCTIONS_HIT")
	require.Equal(t, "New case CASE-2026-000042: Sanctions hit on TXN-1", m.Subject)
	require.Contains(t, m.Text, "Hello Ada,")
	require.Contains(t, m.Text, "CASE-2026-000042 (sanctions hit, critical priority)")
	require.Equal(t, "suspicious transaction, high priority", notify.CaseKind("SUSPICIOUS_TRANSACTION", "HIGH"))

	lb := notify.LowBalance("Ada", "ada@example.com", "950.00", "1000.00")
	require.Equal(t, "complyd wallet balance is low: 950.00 NGN", lb.Subject)
	require.Contains(t, lb.Text, "950.00 NGN, below your warning threshold of 1000.00 NGN")

	r := notify.CustomerReviewDue("Ada", "ada@example.com", []string{"Bola Ade", "Chidi Eze", "Lagos Foods Ltd"})
	require.Equal(t, "3 customer reviews due", r.Subject)
	require.Equal(t, 3, strings.Count(r.HTML, "<li>"))
	require.Contains(t, r.Text, "  Bola Ade\n  Chidi Eze\n  Lagos Foods Ltd")

	w := notify.Welcome("Acme Bank", "Ada", "ada@example.com")
	require.Equal(t, "Welcome to complyd", w.Subject)
	require.Contains(t, w.Text, "for Acme Bank")
	require.Contains(t, w.Text, "(ada@example.com)")
}

func TestSendEmailArgs(t *testing.T) {
	t.Parallel()
	require.Equal(t, "send_email", notify.SendEmailArgs{}.Kind())
	require.Equal(t, []string{"e1"}, notify.SendEmailArgs{EmailID: "e1"}.IDs())
	require.Equal(t, []string{"e1", "e2", "e3"}, notify.SendEmailArgs{EmailID: "e1", EmailIDs: []string{"e2", "e3"}}.IDs())
	require.Equal(t, []string{"e2"}, notify.SendEmailArgs{EmailIDs: []string{"e2"}}.IDs())
	require.Empty(t, notify.SendEmailArgs{}.IDs())
}

func TestNotificationID(t *testing.T) {
	t.Parallel()
	a, b := notify.NewNotificationID(), notify.NewNotificationID()
	require.True(t, strings.HasPrefix(a, "ntf_"), a)
	require.Len(t, a, len("ntf_")+26)
	require.NotEqual(t, a, b)
}

// TestCustomerReviewDuePlurals: one customer reads "review of 1 customer is", more "reviews of N customers are".
func TestCustomerReviewDuePlurals(t *testing.T) {
	t.Parallel()
	one := notify.CustomerReviewDue("Ada", "ada@example.com", []string{"Musa Bello"})
	require.Equal(t, "1 customer review due", one.Subject)
	require.Contains(t, one.Text, "The periodic review of 1 customer is due:")
	require.Contains(t, one.HTML, "The periodic review of 1 customer is due:")
	two := notify.CustomerReviewDue("Ada", "ada@example.com", []string{"Musa Bello", "Ngozi Eze"})
	require.Equal(t, "2 customer reviews due", two.Subject)
	require.Contains(t, two.Text, "The periodic reviews of 2 customers are due:")
}
