package connectapi

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
)

var errNoSessions = errors.New("cookie sessions are not configured")

// UserHandler serves complyd.v1.UserService, AuditService and TenantService's security policy.
type UserHandler struct {
	svc *auth.Service
	log *slog.Logger
}

// NewUserHandler returns the handler.
func NewUserHandler(svc *auth.Service, log *slog.Logger) *UserHandler {
	return &UserHandler{svc: svc, log: log}
}

func userToProto(u auth.User) *complydv1.User {
	return &complydv1.User{Id: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName, Role: string(u.Role),
		IsActive: u.IsActive, LastLoginAt: tsPtr(u.LastLoginAt), CreatedAt: ts(u.CreatedAt), MfaEnabled: u.MFAEnabled}
}

// ListUsers implements UserService.ListUsers.
func (h *UserHandler) ListUsers(ctx context.Context, req *connect.Request[complydv1.ListUsersRequest]) (*connect.Response[complydv1.ListUsersResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, auth.UserPageDefault, auth.UserPageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.ListUsers(ctx, p, auth.Role(req.Msg.GetRole()), pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListUsersResponse{Items: make([]*complydv1.User, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, u := range res.Items {
		out.Items = append(out.Items, userToProto(u))
	}
	return connect.NewResponse(out), nil
}

// CreateUser implements UserService.CreateUser.
func (h *UserHandler) CreateUser(ctx context.Context, req *connect.Request[complydv1.CreateUserRequest]) (*connect.Response[complydv1.User], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	u, err := h.svc.CreateUser(ctx, p, callActor(ctx, p, req.Peer().Addr), auth.NewUser{Email: m.Email, Password: m.Password,
		FirstName: m.FirstName, LastName: m.LastName, Role: auth.Role(m.Role)})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(userToProto(u)), nil
}

// UpdateUser implements UserService.UpdateUser.
func (h *UserHandler) UpdateUser(ctx context.Context, req *connect.Request[complydv1.UpdateUserRequest]) (*connect.Response[complydv1.User], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	patch := auth.UserPatch{FirstName: m.FirstName, LastName: m.LastName, IsActive: m.IsActive}
	if m.Role != nil {
		r := auth.Role(*m.Role)
		patch.Role = &r
	}
	u, err := h.svc.UpdateUser(ctx, p, callActor(ctx, p, req.Peer().Addr), m.Id, patch)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(userToProto(u)), nil
}

// DeactivateUser implements UserService.DeactivateUser.
func (h *UserHandler) DeactivateUser(ctx context.Context, req *connect.Request[complydv1.DeactivateUserRequest]) (*connect.Response[complydv1.User], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	u, err := h.svc.DeactivateUser(ctx, p, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(userToProto(u)), nil
}

// ListAuditEvents implements AuditService.ListAuditEvents.
func (h *UserHandler) ListAuditEvents(ctx context.Context, req *connect.Request[complydv1.ListAuditEventsRequest]) (*connect.Response[complydv1.ListAuditEventsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, 20, 100)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.ListAudit(ctx, p, audit.ListParams{ActorID: req.Msg.GetActorId(), Action: req.Msg.GetAction(), ResourceType: req.Msg.GetResourceType(),
		From: timePtr(req.Msg.From), To: timePtr(req.Msg.To)}, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListAuditEventsResponse{Items: make([]*complydv1.AuditEvent, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	names, err := h.userNames(ctx, p)
	if err != nil {
		return nil, err
	}
	for _, u := range names {
		out.Actors = append(out.Actors, &complydv1.AuditActor{Id: u.id, Name: u.name})
	}
	byID := make(map[string]string, len(names))
	for _, u := range names {
		byID[u.id] = u.name
	}
	for _, e := range res.Items {
		ae := &complydv1.AuditEvent{Id: e.ID, ActorId: nullString(e.Actor.ID), ActorType: e.Actor.Type, Action: e.Action,
			ResourceType: e.ResourceType, ResourceId: nullString(e.ResourceID), IpAddress: nullString(e.Actor.IP),
			RequestId: nullString(e.Actor.RequestID), CreatedAt: ts(e.CreatedAt), ActorName: byID[e.Actor.ID]}
		ae.Before, _ = toStruct(e.Before)
		ae.After, _ = toStruct(e.After)
		out.Items = append(out.Items, ae)
	}
	return connect.NewResponse(out), nil
}

type userName struct{ id, name string }

// userNames lists the tenant's users by name (first and last, or the email), sorted by name,
// reading every page of ListUsers.
func (h *UserHandler) userNames(ctx context.Context, p auth.Principal) ([]userName, error) {
	out := []userName{}
	for page := 1; ; page++ {
		n := int32(page)
		pg, err := paging.New(&n, nil, 100, 100)
		if err != nil {
			return nil, err
		}
		res, err := h.svc.ListUsers(ctx, p, "", pg)
		if err != nil {
			return nil, err
		}
		for _, u := range res.Items {
			name := strings.TrimSpace(u.FirstName + " " + u.LastName)
			if name == "" {
				name = u.Email
			}
			out = append(out, userName{id: u.ID, name: name})
		}
		if page >= res.TotalPages() {
			break
		}
	}
	slices.SortFunc(out, func(a, b userName) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

// GetSecurity implements TenantService.GetSecurity.
func (h *UserHandler) GetSecurity(ctx context.Context, _ *connect.Request[complydv1.GetSecurityRequest]) (*connect.Response[complydv1.SecurityConfig], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	req, err := h.svc.MFARequired(ctx, p)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.SecurityConfig{MfaRequired: req}), nil
}

// UpdateSecurity implements TenantService.UpdateSecurity.
func (h *UserHandler) UpdateSecurity(ctx context.Context, req *connect.Request[complydv1.UpdateSecurityRequest]) (*connect.Response[complydv1.SecurityConfig], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if req.Msg.MfaRequired != nil {
		if err := h.svc.SetMFARequired(ctx, p, callActor(ctx, p, req.Peer().Addr), *req.Msg.MfaRequired); err != nil {
			return nil, err
		}
	}
	return h.GetSecurity(ctx, connect.NewRequest(&complydv1.GetSecurityRequest{}))
}
