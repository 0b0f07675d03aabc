package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/tenancy"
)

// KindReportDeadline is the dashboard notification of a report near or past its deadline.
const KindReportDeadline = "REPORT_DEADLINE"

// NotifyDeadlines puts a dashboard notification in the inbox of every active compliance officer
// of each tenant for each unfiled report that is past its deadline or within the tenant's
// near-deadline window, once per report (deadline_notified_at), and returns how many reports it
// notified. Each tenant is one transaction; reports locked by another sweeper are skipped.
func (s *ReportStore) NotifyDeadlines(ctx context.Context, now time.Time) (int, error) {
	tenants, err := s.db.tenantIDs(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, t := range tenants {
		n, err := s.notifyTenantDeadlines(ctx, t, now)
		if err != nil {
			return total, fmt.Errorf("tenant %s: %w", t, err)
		}
		total += n
	}
	return total, nil
}

func (s *ReportStore) notifyTenantDeadlines(ctx context.Context, tenant tenancy.TenantID, now time.Time) (int, error) {
	n := 0
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		set, err := s.db.readReportSettings(ctx, tx, tenant)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `select id, type, customer_account, deadline_at from reports
			where tenant_id = $1 and status <> 'FILED' and deadline_notified_at is null and deadline_at < $2
			order by deadline_at, id for update skip locked`, string(tenant), now.Add(set.Near()))
		if err != nil {
			return err
		}
		type due struct {
			id, typ, account string
			deadline         time.Time
		}
		var ds []due
		for rows.Next() {
			var d due
			if err := rows.Scan(&d.id, &d.typ, &d.account, &d.deadline); err != nil {
				rows.Close()
				return err
			}
			ds = append(ds, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil || len(ds) == 0 {
			return err
		}
		officers, err := complianceOfficers(ctx, tx, tenant)
		if err != nil {
			return err
		}
		for _, d := range ds {
			state := "is due"
			if !d.deadline.After(now) {
				state = "is past its deadline"
			}
			title := fmt.Sprintf("%s %s %s", d.typ, d.id, state)
			msg := fmt.Sprintf("The %s of account %s %s (%s Lagos time); it is not filed.", d.typ, d.account, state,
				d.deadline.In(reports.Lagos).Format("2 Jan 2006 15:04"))
			for _, u := range officers {
				if err := insertNotification(ctx, tx, notify.Notification{ID: notify.NewNotificationID(), TenantID: tenant, UserID: u.ID,
					Kind: KindReportDeadline, Title: title, Message: msg, CreatedAt: now}); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, `update reports set deadline_notified_at = $3 where tenant_id = $1 and id = $2`,
				string(tenant), d.id, now); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
