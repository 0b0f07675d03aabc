package postgres

import (
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// TestMergeEmailJobs: a batch's single-email jobs become one job per tenant for up to
// EmailsPerJob emails, in their order, at the place of the tenant's first; other jobs, and
// email jobs that already name several, stay as they were; every email is in exactly one job.
func TestMergeEmailJobs(t *testing.T) {
	t.Parallel()
	opts := &river.InsertOpts{MaxAttempts: 10}
	email := func(tenant, id string) river.InsertManyParams {
		return river.InsertManyParams{Args: notify.SendEmailArgs{TenantID: tenant, EmailID: id}, InsertOpts: opts}
	}
	hook := river.InsertManyParams{Args: webhook.DeliverArgs{DeliveryID: "whd_1", TenantID: "a", Attempt: 2}}
	many := river.InsertManyParams{Args: notify.SendEmailArgs{TenantID: "a", EmailIDs: []string{"x1", "x2"}}}
	var in []river.InsertManyParams
	in = append(in, hook)
	for i := range 10 {
		in = append(in, email("a", "a"+string(rune('0'+i))))
		if i == 2 {
			in = append(in, email("b", "b0"), many, email("b", "b1"))
		}
	}
	out := mergeJobs(in)
	require.Len(t, out, 5)
	require.Equal(t, hook, out[0])
	require.Equal(t, notify.SendEmailArgs{TenantID: "a", EmailIDs: []string{"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"}}, out[1].Args)
	require.Equal(t, opts, out[1].InsertOpts)
	require.Equal(t, notify.SendEmailArgs{TenantID: "b", EmailIDs: []string{"b0", "b1"}}, out[2].Args)
	require.Equal(t, many, out[3])
	require.Equal(t, notify.SendEmailArgs{TenantID: "a", EmailIDs: []string{"a8", "a9"}}, out[4].Args)
	require.Equal(t, []string{"e1"}, notify.SendEmailArgs{EmailID: "e1"}.IDs())
}

// TestMergeDeliveryJobs: a batch's first-attempt delivery jobs become one job per tenant for up
// to DeliveriesPerJob deliveries, in their order, at the place of the tenant's first; a later
// attempt, a scheduled one and a job that already names several stay as they were; the email
// jobs between them are merged on their own.
func TestMergeDeliveryJobs(t *testing.T) {
	t.Parallel()
	opts := &river.InsertOpts{MaxAttempts: 10}
	first := func(tenant, id string) river.InsertManyParams {
		return river.InsertManyParams{Args: webhook.DeliverArgs{TenantID: tenancy.TenantID(tenant), DeliveryID: id}, InsertOpts: opts}
	}
	retry := river.InsertManyParams{Args: webhook.DeliverArgs{TenantID: "a", DeliveryID: "r1", Attempt: 1}, InsertOpts: opts}
	later := river.InsertManyParams{Args: webhook.DeliverArgs{TenantID: "a", DeliveryID: "s1"},
		InsertOpts: &river.InsertOpts{MaxAttempts: 10, ScheduledAt: time.Now().Add(time.Minute)}}
	many := river.InsertManyParams{Args: webhook.DeliverArgs{TenantID: "a", DeliveryIDs: []string{"m1", "m2"}}}
	mail := river.InsertManyParams{Args: notify.SendEmailArgs{TenantID: "a", EmailID: "e1"}, InsertOpts: opts}
	var in []river.InsertManyParams
	for i := range 10 {
		in = append(in, first("a", "a"+string(rune('0'+i))))
		if i == 1 {
			in = append(in, first("b", "b0"), retry, later, many, mail, first("b", "b1"))
		}
	}
	out := mergeJobs(in)
	require.Len(t, out, 7)
	require.Equal(t, webhook.DeliverArgs{TenantID: "a", DeliveryIDs: []string{"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"}}, out[0].Args)
	require.Equal(t, opts, out[0].InsertOpts)
	require.Equal(t, webhook.DeliverArgs{TenantID: "b", DeliveryIDs: []string{"b0", "b1"}}, out[1].Args)
	require.Equal(t, []river.InsertManyParams{retry, later, many}, out[2:5])
	require.Equal(t, notify.SendEmailArgs{TenantID: "a", EmailIDs: []string{"e1"}}, out[5].Args)
	require.Equal(t, webhook.DeliverArgs{TenantID: "a", DeliveryIDs: []string{"a8", "a9"}}, out[6].Args)
	require.Equal(t, []string{"d1"}, webhook.DeliverArgs{DeliveryID: "d1"}.IDs())
}
