package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/requestid"
	"github.com/complyd/complyd/internal/tenancy"
)

// applyCaseEffects writes what a case operation asked for, in the operation's transaction:
// timeline events (each also audited), webhooks (queueWebhook) and notifications.
func (db *DB) applyCaseEffects(ctx context.Context, tx writer, tenantID tenancy.TenantID, eff cases.Effects) error {
	for _, ev := range eff.Events {
		if err := insertCaseEvent(ctx, tx, tenantID, ev); err != nil {
			return err
		}
		if err := insertAudit(ctx, tx, caseAudit(ctx, tenantID, ev), db.now()); err != nil {
			return fmt.Errorf("audit case event: %w", err)
		}
	}
	for _, w := range eff.Webhooks {
		if err := db.queueWebhook(ctx, tx, tenantID, w.Event, w.Data); err != nil {
			return err
		}
	}
	for _, n := range eff.Notifications {
		switch n.Kind {
		case cases.NotifyComplianceOfficers:
			if err := db.notifyComplianceOfficers(ctx, tx, tenantID, n.Case); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unknown case notification %q", n.Kind)
		}
	}
	return nil
}

// caseAudit is the audit record of a timeline event: action case.<event type in lower case>.
func caseAudit(ctx context.Context, tenantID tenancy.TenantID, ev cases.Event) audit.Event {
	actor := audit.Actor{ID: ev.ActorID, Type: audit.ActorUser, RequestID: requestid.From(ctx)}
	if ev.ActorID == "" {
		actor.Type = audit.ActorSystem
	}
	after := map[string]any{"eventId": ev.ID, "eventType": ev.EventType}
	if ev.NewValue != nil {
		after["newValue"] = *ev.NewValue
	}
	var before any
	if ev.PreviousValue != nil {
		before = map[string]any{"value": *ev.PreviousValue}
	}
	for k, v := range ev.Metadata {
		after[k] = v
	}
	return audit.Event{TenantID: tenantID, Actor: actor, Action: "case." + strings.ToLower(ev.EventType),
		ResourceType: "case", ResourceID: ev.CaseID, Before: before, After: after}
}

func insertCaseEvent(ctx context.Context, tx writer, tenantID tenancy.TenantID, ev cases.Event) error {
	var meta []byte
	if ev.Metadata != nil {
		var err error
		if meta, err = json.Marshal(ev.Metadata); err != nil {
			return fmt.Errorf("marshal event metadata: %w", err)
		}
	}
	_, err := tx.Exec(ctx, insertCaseEventSQL, ev.ID, string(tenantID), ev.CaseID, ev.EventType, nullIfEmpty(ev.ActorID),
		ev.Description, ev.PreviousValue, ev.NewValue, meta, ev.CreatedAt)
	if err != nil {
		return fmt.Errorf("insert case event: %w", err)
	}
	return nil
}

type caseEventRow struct {
	ID            string         `db:"id"`
	CaseID        string         `db:"case_id"`
	EventType     string         `db:"event_type"`
	ActorID       *string        `db:"actor_id"`
	Description   string         `db:"description"`
	PreviousValue *string        `db:"previous_value"`
	NewValue      *string        `db:"new_value"`
	Metadata      map[string]any `db:"metadata"`
	CreatedAt     time.Time      `db:"created_at"`
}

// notifyComplianceOfficers emails every active COMPLIANCE_OFFICER of the tenant about an
// automatically created case and puts it in their dashboard notifications, in tx
// (docs/reference/specification.md part 1). The mail goes through the outbox and the retried send_email job.
func (db *DB) notifyComplianceOfficers(ctx context.Context, tx writer, tenantID tenancy.TenantID, c cases.Case) error {
	rows, err := complianceOfficers(ctx, tx, tenantID)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("New case %s", c.CaseNumber)
	message := fmt.Sprintf("Screening opened %s (%s): %s", c.CaseNumber, notify.CaseKind(c.Type, c.Priority), c.Title)
	for _, u := range rows {
		m := notify.CaseCreated(u.FirstName, u.Email, c.CaseNumber, c.Title, c.Priority, c.Type)
		m.TenantID = tenantID
		if err := db.queueEmail(ctx, tx, m); err != nil {
			return err
		}
		if err := insertNotification(ctx, tx, notify.Notification{ID: notify.NewNotificationID(), TenantID: tenantID, UserID: u.ID,
			Kind: notify.KindCaseCreated, Title: title, Message: message, CaseID: &c.ID, CreatedAt: db.now()}); err != nil {
			return err
		}
	}
	return nil
}

// complianceOfficers lists the tenant's active compliance officers (for a *pipelined writer, the
// list its caller read ahead with the batch's other reads).
func complianceOfficers(ctx context.Context, tx writer, tenantID tenancy.TenantID) ([]userRow, error) {
	if p, ok := tx.(*pipelined); ok {
		if rows, ok := p.officers[tenantID]; ok {
			return rows, nil
		}
	}
	rows, err := collect[userRow](ctx, tx, complianceOfficersQuery(tenantID))
	if err != nil {
		return nil, fmt.Errorf("list compliance officers: %w", err)
	}
	return rows, nil
}

func complianceOfficersQuery(tenantID tenancy.TenantID) sq.SelectBuilder {
	return psql.Select(userColumns).From("users").
		Where(sq.Eq{"tenant_id": string(tenantID), "role": "COMPLIANCE_OFFICER", "is_active": true}).OrderBy("created_at", "id")
}
