package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/wrapperspb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// WebhookHandler serves complyd.v1.WebhookService.
type WebhookHandler struct {
	svc      *webhook.Service
	log      *slog.Logger
	attempts webhook.AttemptStore // webhook_replay.go
}

// NewWebhookHandler returns the handler.
func NewWebhookHandler(svc *webhook.Service, log *slog.Logger) *WebhookHandler {
	return &WebhookHandler{svc: svc, log: log}
}

func webhookConfigToProto(v webhook.EndpointView) *complydv1.WebhookConfig {
	return &complydv1.WebhookConfig{WebhookUrl: v.URL, SecretSet: v.SecretSet}
}

// GetWebhookConfig implements WebhookService.GetWebhookConfig.
func (h *WebhookHandler) GetWebhookConfig(ctx context.Context, _ *connect.Request[complydv1.GetWebhookConfigRequest]) (*connect.Response[complydv1.WebhookConfig], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	v, err := h.svc.Endpoint(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(webhookConfigToProto(v)), nil
}

// UpdateWebhookConfig implements WebhookService.UpdateWebhookConfig.
func (h *WebhookHandler) UpdateWebhookConfig(ctx context.Context, req *connect.Request[complydv1.UpdateWebhookConfigRequest]) (*connect.Response[complydv1.WebhookConfig], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	v, err := h.svc.SetEndpoint(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr),
		webhook.EndpointPatch{URL: req.Msg.WebhookUrl, Secret: req.Msg.WebhookSecret})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(webhookConfigToProto(v)), nil
}

func deliveryToProto(d *webhook.Delivery) *complydv1.WebhookDelivery {
	out := &complydv1.WebhookDelivery{Id: d.ID, EventId: d.EventID, Event: d.Event, Url: d.URL, Status: d.Status,
		Attempts: int32(d.Attempts), LastError: nullString(d.LastError), NextAttemptAt: tsPtr(d.NextAttemptAt),
		DeliveredAt: tsPtr(d.DeliveredAt), DeadAt: tsPtr(d.DeadAt), CreatedAt: ts(d.CreatedAt)}
	if d.LastStatusCode != nil {
		out.LastStatusCode = wrapperspb.Int32(int32(*d.LastStatusCode))
	}
	return out
}

// ListWebhookDeliveries implements WebhookService.ListWebhookDeliveries.
func (h *WebhookHandler) ListWebhookDeliveries(ctx context.Context, req *connect.Request[complydv1.ListWebhookDeliveriesRequest]) (*connect.Response[complydv1.ListWebhookDeliveriesResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, webhook.DeliveryPageDefault, webhook.DeliveryPageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.Deliveries(ctx, p.TenantID, req.Msg.GetStatus(), pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListWebhookDeliveriesResponse{Items: make([]*complydv1.WebhookDelivery, 0, len(res.Items)),
		Total: int32(res.Total), Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for i := range res.Items {
		out.Items = append(out.Items, deliveryToProto(&res.Items[i]))
	}
	return connect.NewResponse(out), nil
}

// RetryWebhookDelivery implements WebhookService.RetryWebhookDelivery.
func (h *WebhookHandler) RetryWebhookDelivery(ctx context.Context, req *connect.Request[complydv1.RetryWebhookDeliveryRequest]) (*connect.Response[complydv1.WebhookDelivery], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	d, err := h.svc.Retry(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(deliveryToProto(&d)), nil
}

// Notifications is the store of dashboard notifications (postgres.NotificationStore).
type Notifications interface {
	List(ctx context.Context, tenantID tenancy.TenantID, userID string, unreadOnly bool, p paging.Params) (paging.Result[notify.Notification], error)
	MarkRead(ctx context.Context, tenantID tenancy.TenantID, userID, id string) (notify.Notification, error)
}

// NotificationHandler serves complyd.v1.NotificationService: always the caller's own.
type NotificationHandler struct {
	store Notifications
	log   *slog.Logger
}

// NewNotificationHandler returns the handler.
func NewNotificationHandler(store Notifications, log *slog.Logger) *NotificationHandler {
	return &NotificationHandler{store: store, log: log}
}

func notificationToProto(n notify.Notification) *complydv1.Notification {
	return &complydv1.Notification{Id: n.ID, Kind: n.Kind, Title: n.Title, Message: n.Message, CaseId: nullStringPtr(n.CaseID),
		Read: n.ReadAt != nil, ReadAt: tsPtr(n.ReadAt), CreatedAt: ts(n.CreatedAt)}
}

// ListNotifications implements NotificationService.ListNotifications.
func (h *NotificationHandler) ListNotifications(ctx context.Context, req *connect.Request[complydv1.ListNotificationsRequest]) (*connect.Response[complydv1.ListNotificationsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, notify.NotificationPageDefault, notify.NotificationPageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.store.List(ctx, p.TenantID, p.UserID, req.Msg.GetUnread(), pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListNotificationsResponse{Items: make([]*complydv1.Notification, 0, len(res.Items)),
		Total: int32(res.Total), Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, n := range res.Items {
		out.Items = append(out.Items, notificationToProto(n))
	}
	return connect.NewResponse(out), nil
}

// MarkNotificationRead implements NotificationService.MarkNotificationRead.
func (h *NotificationHandler) MarkNotificationRead(ctx context.Context, req *connect.Request[complydv1.MarkNotificationReadRequest]) (*connect.Response[complydv1.Notification], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	n, err := h.store.MarkRead(ctx, p.TenantID, p.UserID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(notificationToProto(n)), nil
}
