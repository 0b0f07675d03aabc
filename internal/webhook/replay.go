package webhook

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// Replay re-opens a finished delivery (DELIVERED or DEAD) for a new round of MaxAttempts
// attempts: the same event id and body, signed with the tenant's current secret when it is
// sent. A receiver deduplicating on the event id sees a repeat, which is what an operator asks
// for when the receiver lost what it was sent. A delivery still in its round (PENDING, FAILED)
// is not replayed: its own attempts are on the way. Codes: INVALID_STATUS_TRANSITION, NOT_FOUND.
func (d *Delivery) Replay(now time.Time) error {
	if d.Status != StatusDelivered && d.Status != StatusDead {
		return apperr.Transition(d.Status, StatusPending, nil)
	}
	if d.Expired(now) {
		return apperr.NotFoundf("webhook delivery not found")
	}
	d.Status = StatusPending
	d.Attempts = 0
	d.DeadAt = nil
	d.DeliveredAt = nil
	d.NextAttemptAt = &now
	return nil
}

// AttemptStore is the port of the attempt log (webhookstore.WebhookStore).
type AttemptStore interface {
	// Attempts returns the recorded attempts of a delivery, oldest first. Errors: INTERNAL.
	Attempts(ctx context.Context, tenantID tenancy.TenantID, deliveryID string) ([]Attempt, error)
}

// Replay re-sends a DELIVERED or DEAD delivery (POST /webhooks/deliveries/:id/replay), audited
// as webhook.delivery_replayed. Codes: NOT_FOUND, INVALID_STATUS_TRANSITION.
func (s *Service) Replay(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (Delivery, error) {
	return s.store.RetryDelivery(ctx, tenantID, id, func(d *Delivery) (audit.Event, error) {
		before := d.Status
		if err := d.Replay(s.now()); err != nil {
			return audit.Event{}, err
		}
		return audit.Event{TenantID: tenantID, Actor: actor, Action: "webhook.delivery_replayed", ResourceType: "webhook_delivery",
			ResourceID: d.ID, Before: map[string]any{"status": before}, After: map[string]any{"event": d.Event, "eventId": d.EventID}}, nil
	})
}

// DeliveryStore is the port of one delivery's lookup (webhookstore.WebhookStore).
type DeliveryStore interface {
	// Delivery returns one delivery of the tenant. Errors: NOT_FOUND.
	Delivery(ctx context.Context, tenantID tenancy.TenantID, id string) (Delivery, error)
}

// Delivery returns one delivery. Codes: NOT_FOUND.
func (s *Service) Delivery(ctx context.Context, tenantID tenancy.TenantID, id string) (Delivery, error) {
	ds, ok := s.store.(DeliveryStore)
	if !ok {
		return Delivery{}, apperr.New(apperr.Internal, "webhook store cannot look up a delivery")
	}
	return ds.Delivery(ctx, tenantID, id)
}
