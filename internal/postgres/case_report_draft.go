package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/tenancy"
)

// draftCaseReport drafts the STR (the case has a transaction) or SAR of a case resolved as a
// true positive, unless the case already has one, in the resolution's transaction.
func (db *DB) draftCaseReport(ctx context.Context, tx pgx.Tx, tenant tenancy.TenantID, c cases.Case) error {
	typ := reports.TypeSAR
	var txIDs []string
	if c.RelatedTransactionID != nil && isUUID(*c.RelatedTransactionID) {
		typ, txIDs = reports.TypeSTR, []string{*c.RelatedTransactionID}
	}
	now := db.now().UTC()
	var account, name string
	day := reports.DayOf(now)
	if len(txIDs) > 0 {
		var ts time.Time
		err := tx.QueryRow(ctx, `select sender_account_number, sender_name, transaction_timestamp from transactions
			where tenant_id = $1 and id = $2`, string(tenant), txIDs[0]).Scan(&account, &name, &ts)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			// A case may name a transaction that was never screened here: report the activity.
			typ, txIDs = reports.TypeSAR, nil
		case err != nil:
			return fmt.Errorf("read case transaction: %w", err)
		default:
			day = reports.DayOf(ts)
		}
	}
	set, err := db.readReportSettings(ctx, tx, tenant)
	if err != nil {
		return err
	}
	r := &reports.Report{ID: reports.NewID("rpt_"), TenantID: tenant, Type: typ, Status: reports.StatusDraft,
		Origin: reports.OriginCase, CustomerAccount: account, CustomerName: name, Day: day, CaseID: c.ID,
		Reason:     fmt.Sprintf("Case %s (%s) was resolved as suspicious: %s", c.CaseNumber, c.Title, c.ResolutionNote),
		DeadlineAt: set.DeadlineFor(typ, reports.DayOf(now)), TransactionIDs: txIDs, CreatedAt: now, UpdatedAt: now}
	var id string
	err = tx.QueryRow(ctx, `insert into reports (id, tenant_id, type, status, origin, customer_account, customer_name, report_day,
		case_id, reason, deadline_at, created_at, updated_at)
		select $1, $2, $3, 'DRAFT', 'CASE', $4, $5, $6, $7, $8, $9, $10, $10
		where not exists (select 1 from reports where tenant_id = $2 and case_id = $7 and type in ('STR', 'SAR'))
		returning id`, r.ID, string(tenant), typ, account, name, day, c.ID, r.Reason, r.DeadlineAt, now).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // the case has its report already (drafted by its screening)
	}
	if err != nil {
		return fmt.Errorf("draft case report: %w", err)
	}
	if len(txIDs) > 0 {
		if _, err := tx.Exec(ctx, `insert into report_transactions (tenant_id, report_id, transaction_id, added_at)
			values ($1, $2, $3, $4)`, string(tenant), id, txIDs[0], now); err != nil {
			return fmt.Errorf("link transaction: %w", err)
		}
	}
	return db.applyReportEffects(ctx, tx, tenant, reports.Effects{
		Events:   []reports.Event{{ID: reports.NewID("revt_"), ReportID: id, Action: "CREATED", Note: "drafted from case " + c.CaseNumber, CreatedAt: now}},
		Audit:    []audit.Event{{TenantID: tenant, Actor: audit.System, Action: "report.created", ResourceType: "report", ResourceID: id, After: reports.Summary(r)}},
		Webhooks: []reports.Webhook{{Event: reports.EventReportCreated, Data: reports.Summary(r)}}})
}
