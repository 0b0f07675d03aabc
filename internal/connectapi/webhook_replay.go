package connectapi

import (
	"context"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/complyd/complyd/internal/apperr"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/webhook"
)

// WithAttempts gives the handler the attempt log ListWebhookAttempts reads
// (webhookstore.WebhookStore); without it ListWebhookAttempts is INTERNAL.
func (h *WebhookHandler) WithAttempts(store webhook.AttemptStore) *WebhookHandler {
	h.attempts = store
	return h
}

// ReplayWebhookDelivery implements WebhookService.ReplayWebhookDelivery.
func (h *WebhookHandler) ReplayWebhookDelivery(ctx context.Context, req *connect.Request[complydv1.ReplayWebhookDeliveryRequest]) (*connect.Response[complydv1.WebhookDelivery], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	d, err := h.svc.Replay(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(deliveryToProto(&d)), nil
}

// ListWebhookAttempts implements WebhookService.ListWebhookAttempts. A delivery of another
// tenant, or none, has no attempts in the caller's scope: NOT_FOUND, like the delivery itself.
func (h *WebhookHandler) ListWebhookAttempts(ctx context.Context, req *connect.Request[complydv1.ListWebhookAttemptsRequest]) (*connect.Response[complydv1.ListWebhookAttemptsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if h.attempts == nil {
		return nil, apperr.New(apperr.Internal, "webhook attempts are not configured")
	}
	if _, err := h.svc.Delivery(ctx, p.TenantID, req.Msg.Id); err != nil {
		return nil, err
	}
	as, err := h.attempts.Attempts(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListWebhookAttemptsResponse{Items: make([]*complydv1.WebhookAttempt, 0, len(as))}
	for _, a := range as {
		w := &complydv1.WebhookAttempt{Attempt: int32(a.Number), Error: a.Error, DurationMs: int32(a.Duration.Milliseconds()), AttemptedAt: ts(a.At)}
		if a.StatusCode != 0 {
			w.StatusCode = wrapperspb.Int32(int32(a.StatusCode))
		}
		out.Items = append(out.Items, w)
	}
	return connect.NewResponse(out), nil
}
