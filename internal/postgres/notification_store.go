package postgres

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// NotificationStore serves the dashboard notifications of one user.
type NotificationStore struct{ db *DB }

// NewNotificationStore returns the store.
func NewNotificationStore(db *DB) *NotificationStore { return &NotificationStore{db: db} }

const notificationColumns = "id, tenant_id, user_id, kind, title, message, case_id, read_at, created_at"

type notificationRow struct {
	ID        string     `db:"id"`
	TenantID  string     `db:"tenant_id"`
	UserID    string     `db:"user_id"`
	Kind      string     `db:"kind"`
	Title     string     `db:"title"`
	Message   string     `db:"message"`
	CaseID    *string    `db:"case_id"`
	ReadAt    *time.Time `db:"read_at"`
	CreatedAt time.Time  `db:"created_at"`
}

func toNotification(r notificationRow) notify.Notification {
	return notify.Notification{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), UserID: r.UserID, Kind: r.Kind,
		Title: r.Title, Message: r.Message, CaseID: r.CaseID, ReadAt: r.ReadAt, CreatedAt: r.CreatedAt}
}

func insertNotification(ctx context.Context, tx writer, n notify.Notification) error {
	_, err := tx.Exec(ctx, insertNotificationSQL, n.ID, string(n.TenantID), n.UserID, n.Kind, n.Title, n.Message, n.CaseID, n.CreatedAt)
	if err != nil {
		return fmt.Errorf("insert notification: %w", err)
	}
	return nil
}

// List pages the user's notifications, newest first; unreadOnly keeps the unread ones.
// Errors: INTERNAL.
func (s *NotificationStore) List(ctx context.Context, tenantID tenancy.TenantID, userID string, unreadOnly bool, p paging.Params) (paging.Result[notify.Notification], error) {
	res := paging.Result[notify.Notification]{Page: p.Page, Limit: p.Limit, Items: []notify.Notification{}}
	where := sq.And{sq.Eq{"tenant_id": string(tenantID), "user_id": userID}}
	if unreadOnly {
		where = append(where, sq.Eq{"read_at": nil})
	}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := count(ctx, tx, psql.Select("count(*)").From("notifications").Where(where))
		if err != nil {
			return err
		}
		rows, err := collect[notificationRow](ctx, tx, psql.Select(notificationColumns).From("notifications").Where(where).
			OrderBy("created_at DESC", "id DESC").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, toNotification(r))
		}
		return nil
	})
	return res, err
}

// MarkRead marks one of the user's notifications read (idempotent: the first readAt stays).
// Errors: NOT_FOUND, also for another user's notification.
func (s *NotificationStore) MarkRead(ctx context.Context, tenantID tenancy.TenantID, userID, id string) (notify.Notification, error) {
	var n notify.Notification
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		r, err := one[notificationRow](ctx, tx, psql.Update("notifications").
			Set("read_at", sq.Expr("coalesce(read_at, ?)", s.db.now())).
			Where(sq.Eq{"tenant_id": string(tenantID), "user_id": userID, "id": id}).
			Suffix("RETURNING "+notificationColumns), "notification")
		n = toNotification(r)
		return err
	})
	return n, err
}
