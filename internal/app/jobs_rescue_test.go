package app

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestJobOfDeadClientRescued: a job left `running` by a process that died (its attempt began
// 40 s ago under a client that no longer exists) is rescued and worked by a live client within
// about a minute, not River's default hour (issue 12 finding 2: webhooks in flight at a crash
// waited an hour).
func TestJobOfDeadClientRescued(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Workers: true})
	ctx := context.Background()
	var id int64
	require.NoError(t, s.admin().QueryRow(ctx, `insert into river_job
		(args, attempt, attempted_at, attempted_by, kind, max_attempts, priority, queue, state, scheduled_at)
		values ('{}', 1, now() - interval '40 seconds', '{dead-client}', 'webhook_purge_dead', 25, 1, 'default', 'running',
			now() - interval '40 seconds') returning id`).Scan(&id))
	deadline := time.Now().Add(90 * time.Second)
	var state string
	for time.Now().Before(deadline) {
		require.NoError(t, s.admin().QueryRow(ctx, "select state::text from river_job where id = $1", id).Scan(&state))
		if state == "completed" {
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("the dead client's job is still %s after 90 s", state)
}
