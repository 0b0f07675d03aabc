package webhook

import (
	"github.com/complyd/complyd/internal/outbound"

	"context"
	"slices"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Endpoint is a tenant's webhook configuration (PATCH /tenants/me/webhooks). URL "" means
// webhooks are off; Secret "" means deliveries are unsigned.
type Endpoint struct {
	URL       string
	Secret    string
	UpdatedAt time.Time
}

// EndpointView is what GET /tenants/me/webhooks shows: never the secret (docs/design/design-choices.md §11).
type EndpointView struct {
	URL       string
	SecretSet bool
}

// View returns the public view of e.
func (e Endpoint) View() EndpointView { return EndpointView{URL: e.URL, SecretSet: e.Secret != ""} }

// EndpointPatch is the body of PATCH /tenants/me/webhooks; nil fields stay unchanged.
type EndpointPatch struct {
	URL    *string
	Secret *string
}

// MaxSecretLen bounds webhookSecret.
const MaxSecretLen = 256

// Attempt is the record of one delivery attempt.
type Attempt struct {
	Number     int // 1-based
	StatusCode int // 0 when no response arrived
	Error      string
	Duration   time.Duration
	At         time.Time
}

// DeliveryPageDefault and DeliveryPageMax are the paging of GET /webhooks/deliveries.
const (
	DeliveryPageDefault = 20
	DeliveryPageMax     = 100
)

// Store is the persistence port of webhook configuration and deliveries (internal/postgres).
// Every method is one transaction scoped to tenantID.
type Store interface {
	// Endpoint returns the tenant's configuration; the zero Endpoint when none was set.
	// Errors: INTERNAL.
	Endpoint(ctx context.Context, tenantID tenancy.TenantID) (Endpoint, error)
	// UpdateEndpoint locks (or creates) the configuration row, calls fn, and writes the row and
	// fn's audit event. Errors: whatever fn returns; INTERNAL.
	UpdateEndpoint(ctx context.Context, tenantID tenancy.TenantID, fn func(*Endpoint) (audit.Event, error)) (Endpoint, error)
	// Deliveries pages the tenant's deliveries, newest first, optionally of one status.
	// Errors: INTERNAL.
	Deliveries(ctx context.Context, tenantID tenancy.TenantID, status string, p paging.Params) (paging.Result[Delivery], error)
	// RetryDelivery locks the delivery, calls fn, writes it and the audit event, and enqueues its
	// first attempt (DeliverArgs{Attempt: 0}) in the same transaction.
	// Errors: NOT_FOUND; whatever fn returns.
	RetryDelivery(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Delivery) (audit.Event, error)) (Delivery, error)
}

// Service is the tenant-facing side of webhooks: configuration and the delivery log.
type Service struct {
	store        Store
	allowPrivate bool
	now          func() time.Time
}

// NewService returns a Service; allowPrivate is COMPLYD_WEBHOOK_ALLOW_PRIVATE. It panics on a
// nil dependency.
func NewService(store Store, allowPrivate bool, now func() time.Time) *Service {
	if store == nil || now == nil {
		panic("webhook.NewService: nil dependency")
	}
	return &Service{store: store, allowPrivate: allowPrivate, now: now}
}

// Endpoint returns the configuration without the secret. Errors: INTERNAL.
func (s *Service) Endpoint(ctx context.Context, tenantID tenancy.TenantID) (EndpointView, error) {
	e, err := s.store.Endpoint(ctx, tenantID)
	return e.View(), err
}

// SetEndpoint applies a PATCH. The URL is validated by outbound.ValidateURL (https unless private
// addresses are allowed); an empty URL turns webhooks off; an empty secret removes it. The audit
// event records whether a secret is set, never the secret.
//
// Errors: VALIDATION_ERROR on webhookUrl or webhookSecret.
func (s *Service) SetEndpoint(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, p EndpointPatch) (EndpointView, error) {
	if p.URL != nil {
		u := strings.TrimSpace(*p.URL)
		if err := outbound.ValidateURL("webhookUrl", u, s.allowPrivate); err != nil {
			return EndpointView{}, err
		}
		p.URL = &u
	}
	if p.Secret != nil && len(*p.Secret) > MaxSecretLen {
		return EndpointView{}, apperr.Invalid("webhookSecret", "is too long")
	}
	e, err := s.store.UpdateEndpoint(ctx, tenantID, func(e *Endpoint) (audit.Event, error) {
		before := map[string]any{"webhookUrl": e.URL, "secretSet": e.Secret != ""}
		if p.URL != nil {
			e.URL = *p.URL
		}
		if p.Secret != nil {
			e.Secret = *p.Secret
		}
		e.UpdatedAt = s.now()
		return audit.Event{TenantID: tenantID, Actor: actor, Action: "tenant.webhooks_updated", ResourceType: "tenant",
			ResourceID: string(tenantID), Before: before, After: map[string]any{"webhookUrl": e.URL, "secretSet": e.Secret != ""}}, nil
	})
	return e.View(), err
}

// Statuses lists the delivery states.
func Statuses() []string { return []string{StatusPending, StatusDelivered, StatusFailed, StatusDead} }

// Deliveries pages the delivery log. Errors: VALIDATION_ERROR on status.
func (s *Service) Deliveries(ctx context.Context, tenantID tenancy.TenantID, status string, p paging.Params) (paging.Result[Delivery], error) {
	if status != "" && !slices.Contains(Statuses(), status) {
		return paging.Result[Delivery]{}, apperr.Invalid("status", "must be PENDING, DELIVERED, FAILED or DEAD")
	}
	return s.store.Deliveries(ctx, tenantID, status, p)
}

// Retry re-queues a DEAD delivery (POST /webhooks/deliveries/:id/retry) for a fresh round of
// MaxAttempts attempts with the same payload and event id.
// Errors: NOT_FOUND; INVALID_STATUS_TRANSITION unless DEAD.
func (s *Service) Retry(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (Delivery, error) {
	return s.store.RetryDelivery(ctx, tenantID, id, func(d *Delivery) (audit.Event, error) {
		if err := d.Retry(s.now()); err != nil {
			return audit.Event{}, err
		}
		return audit.Event{TenantID: tenantID, Actor: actor, Action: "webhook.delivery_retried", ResourceType: "webhook_delivery",
			ResourceID: d.ID, After: map[string]any{"event": d.Event, "eventId": d.EventID}}, nil
	})
}
