package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/smtp"
	"github.com/complyd/complyd/internal/smtp/smtptest"
)

// TestWelcomeEmailOverSMTP creates a user through /api/v1 and receives the welcome email at a
// real SMTP listener; the first delivery attempt fails and the queued job retries it. The server
// runs River workers, so it has a database of its own (serverOpts.OwnDB).
func TestWelcomeEmailOverSMTP(t *testing.T) {
	t.Parallel()
	sink := smtptest.Start(t)
	sink.FailNext(1)
	mailer, err := smtp.New("smtp://"+sink.Addr+"?tls=none", "complyd@test.local")
	require.NoError(t, err)
	s := newTestServer(t, &serverOpts{Mailer: mailer, Workers: true})
	_, admin := s.tenant()
	email := "welcome-" + strings.ToLower(t.Name()) + "@bank.ng"
	env := s.rest("POST", "/api/v1/auth/users", cred{Bearer: admin}, map[string]any{"email": email, "password": "longenough",
		"firstName": "Ngozi", "lastName": "Okafor", "role": "ANALYST"})
	require.Equal(t, 201, env.Status, "%s", env.Raw)

	msgs := sink.WaitFor(1, 20*time.Second)
	require.Len(t, msgs, 1)
	require.Equal(t, []string{email}, msgs[0].To)
	require.Contains(t, msgs[0].Data, "Subject: Welcome to complyd")
	require.Contains(t, msgs[0].Data, "Ngozi")

	var status string
	var attempts int
	db := s.admin()
	require.Eventually(t, func() bool {
		err := db.QueryRow(context.Background(), `select status, attempts from emails e
			where to_address = $1`, email).Scan(&status, &attempts)
		return err == nil && status == "SENT"
	}, 10*time.Second, 50*time.Millisecond)
	require.Equal(t, 2, attempts, "one failed attempt, one delivered")
}
