package webhook

import (
	"fmt"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// Delivery states (docs/design/design-choices.md §9). PENDING: not tried yet, or re-queued by a manual retry;
// FAILED: an attempt failed and another is scheduled at NextAttemptAt; DELIVERED: a 2xx answer;
// DEAD: MaxAttempts attempts failed; kept DeadLetterRetention for inspection and manual retry.
const (
	StatusPending   = "PENDING"
	StatusDelivered = "DELIVERED"
	StatusFailed    = "FAILED"
	StatusDead      = "DEAD"
)

// Delivery is the record of one event sent to one tenant URL, across all its attempts.
type Delivery struct {
	ID             string // whd_<id>; sent as X-Svc-Delivery
	TenantID       tenancy.TenantID
	EventID        string // the payload id, evt_<id>
	Event          string
	URL            string
	Payload        []byte // the exact body, signed anew on every attempt
	Status         string
	Attempts       int
	LastStatusCode *int
	LastError      string
	NextAttemptAt  *time.Time
	DeliveredAt    *time.Time
	DeadAt         *time.Time
	CreatedAt      time.Time
}

// NewDelivery returns a PENDING delivery of p to url, due at now.
func NewDelivery(url string, p Payload, now time.Time) (Delivery, error) {
	body, err := p.Marshal()
	if err != nil {
		return Delivery{}, err
	}
	due := now
	return Delivery{
		ID:            NewID(PrefixDelivery),
		TenantID:      p.TenantID,
		EventID:       p.ID,
		Event:         p.Event,
		URL:           url,
		Payload:       body,
		Status:        StatusPending,
		NextAttemptAt: &due,
		CreatedAt:     now,
	}, nil
}

// Message returns the request of the next attempt.
func (d *Delivery) Message() Message {
	return Message{DeliveryID: d.ID, EventID: d.EventID, Event: d.Event, Body: d.Payload}
}

// RecordSuccess marks the delivery DELIVERED after an attempt answered with a 2xx status.
func (d *Delivery) RecordSuccess(statusCode int, now time.Time) {
	d.Attempts++
	d.Status = StatusDelivered
	d.LastStatusCode = &statusCode
	d.LastError = ""
	d.DeliveredAt = &now
	d.NextAttemptAt = nil
}

// RecordFailure records a failed attempt (statusCode 0 when no response arrived). It schedules
// the next attempt NextAttemptDelay later (FAILED), or moves the delivery to DEAD after
// MaxAttempts attempts. It reports whether another attempt is due.
func (d *Delivery) RecordFailure(statusCode int, cause error, now time.Time, rnd Jitter) bool {
	d.Attempts++
	if statusCode != 0 {
		d.LastStatusCode = &statusCode
	}
	d.LastError = ""
	if cause != nil {
		d.LastError = truncate(cause.Error(), 500)
	}
	if d.Attempts >= MaxAttempts {
		d.Status = StatusDead
		d.DeadAt = &now
		d.NextAttemptAt = nil
		return false
	}
	next := now.Add(NextAttemptDelay(d.Attempts, rnd))
	d.Status = StatusFailed
	d.NextAttemptAt = &next
	return true
}

// Retry re-queues a DEAD delivery for a fresh round of MaxAttempts attempts
// (POST /webhooks/deliveries/:id/retry). The payload, and so the event id, stay the same.
//
// Errors: INVALID_STATUS_TRANSITION {from, to: PENDING, allowed} unless the delivery is DEAD;
// NOT_FOUND when its dead letter has expired (it is about to be purged).
func (d *Delivery) Retry(now time.Time) error {
	if d.Status != StatusDead {
		return apperr.Transition(d.Status, StatusPending, nil)
	}
	if d.Expired(now) {
		return apperr.NotFoundf("webhook delivery not found")
	}
	d.Status = StatusPending
	d.Attempts = 0
	d.DeadAt = nil
	d.NextAttemptAt = &now
	return nil
}

// Expired reports whether a DEAD delivery has outlived DeadLetterRetention and may be purged.
func (d *Delivery) Expired(now time.Time) bool {
	return d.Status == StatusDead && d.DeadAt != nil && !now.Before(d.DeadAt.Add(DeadLetterRetention))
}

// DeliverArgs are the River job arguments of one delivery attempt; the worker loads the delivery
// by (TenantID, DeliveryID), so the job row carries no payload or secret.
//
// Attempt is the number of attempts the delivery had when this job was scheduled. The worker
// acts only while the delivery still has exactly that many and is PENDING or FAILED, so a job
// run twice (River rescues a job whose worker died after recording its attempt) never makes an
// extra attempt: the attempt count in the delivery row is the single source of truth.
//
// DeliveryIDs, instead of DeliveryID, names the first attempts (Attempt 0) of up to
// DeliveriesPerJob deliveries of one tenant, queued by one commit (a batch of automatic cases
// queues two per case): one River job, a row to insert, fetch and complete, instead of one each.
// Every later attempt is a job of its own.
type DeliverArgs struct {
	DeliveryID  string           `json:"deliveryId,omitempty"`
	DeliveryIDs []string         `json:"deliveryIds,omitempty"`
	TenantID    tenancy.TenantID `json:"tenantId"`
	Attempt     int              `json:"attempt"`
}

// DeliveriesPerJob bounds the first attempts one job makes, one after the other.
const DeliveriesPerJob = 8

// IDs returns the deliveries the job attempts.
func (a DeliverArgs) IDs() []string {
	if a.DeliveryID == "" {
		return a.DeliveryIDs
	}
	return append([]string{a.DeliveryID}, a.DeliveryIDs...)
}

// Kind implements River's JobArgs without importing River.
func (DeliverArgs) Kind() string { return "webhook_deliver" }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s…", s[:n])
}
