package applicationstore

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// The storage that KYC and KYB applications share (internal/application): the common columns,
// the review-queue list, the change records (review case, override, documents, charge) and the
// document reads. kyc_store.go and kyb_store.go keep their own columns and evidence trails.

// applicationTable names one kind's table: name is the table, from the FROM clause, col the
// prefix of its columns there ("a." for KYC, whose columns add computed document facts; "" for
// KYB), lock the suffix that locks a row, what its name in errors, event its status webhook,
// owner the kind of its documents and evidence the kind of its overrides and evidence record
// (evidence_store.go).
type applicationTable struct {
	name, from, col, lock, what, event, evidence string
	owner                                        document.OwnerKind
}

var (
	kycTable = applicationTable{name: "kyc_applications", from: "kyc_applications a", col: "a.", lock: "FOR UPDATE OF a",
		what: "KYC application", event: webhook.EventKYCStatusChanged, evidence: evidenceKindKYC, owner: document.OwnerKYC}
	kybTable = applicationTable{name: "kyb_applications", from: "kyb_applications", lock: "FOR UPDATE",
		what: "KYB application", event: webhook.EventKYBStatusChanged, evidence: evidenceKindKYB, owner: document.OwnerKYB}
)

// insertApplication inserts a new application (vals, setBaseValues with insert) with its status
// webhook (data) and its audit event, in one transaction.
func insertApplication(ctx context.Context, db *postgres.DB, t applicationTable, tenantID tenancy.TenantID, vals, data map[string]any, ev audit.Event) error {
	return db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if err := postgres.Exec(ctx, tx, postgres.Psql.Insert(t.name).SetMap(vals)); err != nil {
			return postgres.MapErr(err, t.what)
		}
		if err := db.QueueWebhook(ctx, tx, tenantID, t.event, data); err != nil {
			return err
		}
		return postgres.InsertAudit(ctx, tx, ev, db.Now())
	})
}

// selectApplication reads application id of t in tx (locked FOR UPDATE with lock) and converts
// its row. Errors: NOT_FOUND.
func selectApplication[R, A any](ctx context.Context, tx pgx.Tx, t applicationTable, columns string, tenantID tenancy.TenantID, id string,
	lock bool, convert func(R) (A, error)) (A, error) {
	b := postgres.Psql.Select(columns).From(t.from).Where(sq.Eq{t.col + "tenant_id": string(tenantID), t.col + "id": id})
	if lock {
		b = b.Suffix(t.lock)
	}
	r, err := postgres.One[R](ctx, tx, b, t.what)
	if err != nil {
		var none A
		return none, err
	}
	return convert(r)
}

// updateApplication is an application update in one transaction of the tenant: lockRow reads the
// row FOR UPDATE, fn is the domain transition, write stores the row and the change (prev is
// the status before fn; write may replace *a with the row as stored).
func updateApplication[A any, P application.Record[A], C any](ctx context.Context, db *postgres.DB, tenantID tenancy.TenantID,
	lockRow func(pgx.Tx) (A, error), fn func(*A) (C, error), write func(tx pgx.Tx, prev string, a *A, ch C) error) (A, error) {
	var a A
	err := db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		if a, err = lockRow(tx); err != nil {
			return err
		}
		prev := P(&a).Common().Status
		ch, err := fn(&a)
		if err != nil {
			return err
		}
		return write(tx, prev, &a, ch)
	})
	return a, err
}

// finishChange ends an application change in tx: the status webhook when the status moved from
// prev (data is its payload), the customer link of a first approval (link: an approved
// applicant or company is a customer from the approval's transaction on, customer_link.go) and
// the audit event.
func finishChange(ctx context.Context, db *postgres.DB, tx pgx.Tx, t applicationTable, tenantID tenancy.TenantID, prev, status string,
	data func() map[string]any, link func() error, ev audit.Event) error {
	if status != prev {
		if err := db.QueueWebhook(ctx, tx, tenantID, t.event, data()); err != nil {
			return err
		}
	}
	if status == application.StatusApproved && prev != application.StatusApproved {
		if err := link(); err != nil {
			return err
		}
	}
	return postgres.InsertAudit(ctx, tx, ev, db.Now())
}

// readApplication runs get in a transaction of the tenant.
func readApplication[A any](ctx context.Context, db *postgres.DB, tenantID tenancy.TenantID, get func(pgx.Tx) (A, error)) (A, error) {
	var a A
	err := db.InTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		a, err = get(tx)
		return err
	})
	return a, err
}

// baseRow are the columns of application.Base; kycRow and kybRow embed it.
type baseRow struct {
	ID         string    `db:"id"`
	TenantID   string    `db:"tenant_id"`
	Status     string    `db:"status"`
	RiskLevel  *string   `db:"risk_level"`
	AssignedTo *string   `db:"assigned_to"`
	Notes      *string   `db:"notes"`
	CreatedBy  *string   `db:"created_by"`
	CreatedAt  time.Time `db:"created_at"`
	UpdatedAt  time.Time `db:"updated_at"`
	CustomerID *string   `db:"customer_id"`
}

func (r baseRow) base() application.Base {
	return application.Base{ID: r.ID, TenantID: r.TenantID, Status: r.Status, RiskLevel: postgres.Deref(r.RiskLevel),
		AssignedTo: postgres.Deref(r.AssignedTo), Notes: postgres.Deref(r.Notes), CreatedBy: postgres.Deref(r.CreatedBy), CreatedAt: r.CreatedAt,
		UpdatedAt: r.UpdatedAt, CustomerID: postgres.Deref(r.CustomerID)}
}

// setBaseValues adds b's updatable columns to vals (an UPDATE's SET); with insert also the
// columns written once (an INSERT's).
func setBaseValues(vals map[string]any, b application.Base, insert bool) map[string]any {
	vals["status"], vals["risk_level"], vals["assigned_to"] = b.Status, postgres.NullIfEmpty(b.RiskLevel), postgres.NullIfEmpty(b.AssignedTo)
	vals["notes"], vals["updated_at"] = postgres.NullIfEmpty(b.Notes), b.UpdatedAt
	if insert {
		vals["id"], vals["tenant_id"], vals["created_by"], vals["created_at"] = b.ID, b.TenantID, postgres.NullIfEmpty(b.CreatedBy), b.CreatedAt
	}
	return vals
}

// listApplications pages t's applications of the tenant, newest first, filtered by status and
// the review queue (docs/guide/application-assignment.md); columns are t's select list and
// convert turns a row into an application.
func listApplications[R, A any](ctx context.Context, tx pgx.Tx, t applicationTable, columns string, tenantID tenancy.TenantID,
	f application.ListParams, p paging.Params, convert func(R) (A, error)) (paging.Result[A], error) {
	res := paging.Result[A]{Page: p.Page, Limit: p.Limit, Items: []A{}}
	where := sq.Eq{t.col + "tenant_id": string(tenantID)}
	if f.Status != "" {
		where[t.col+"status"] = f.Status
	}
	// assigned_to is a uuid, compared as text so that an id of no user matches nothing rather
	// than failing.
	cond := sq.And{where}
	switch {
	case f.AssignedTo != "":
		cond = append(cond, sq.Expr(t.col+"assigned_to::text = ?", f.AssignedTo))
	case f.Unassigned:
		cond = append(cond, sq.Expr(t.col+"assigned_to IS NULL"))
	}
	n, err := postgres.Count(ctx, tx, postgres.Psql.Select("count(*)").From(t.from).Where(cond))
	if err != nil {
		return res, err
	}
	rows, err := postgres.Collect[R](ctx, tx, postgres.Psql.Select(columns).From(t.from).Where(cond).
		OrderBy(t.col+"created_at DESC", t.col+"id DESC").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
	if err != nil {
		return res, err
	}
	res.Total = n
	for _, r := range rows {
		a, err := convert(r)
		if err != nil {
			return res, err
		}
		res.Items = append(res.Items, a)
	}
	return res, nil
}

// detailRecords are what an application detail shows beside the application and its own
// evidence trail: its documents and its evidence record.
func detailRecords(ctx context.Context, tx pgx.Tx, t applicationTable, tenantID tenancy.TenantID, id string) ([]document.Document, evidence.Record, error) {
	docs, err := listDocuments(ctx, tx, tenantID, t.owner, id)
	if err != nil {
		return nil, evidence.Record{}, err
	}
	rec, err := applicationEvidence(ctx, tx, tenantID, t.evidence, id)
	return docs, rec, err
}

// settleChange books the change's charge, when it has one, in tx (before the row is written).
func settleChange(ctx context.Context, db *postgres.DB, tx pgx.Tx, ch application.Change) error {
	if ch.Hold == nil {
		return nil
	}
	_, err := db.SettleHold(ctx, tx, *ch.Hold, ch.ChargeDescription)
	return err
}

// writeChange writes the shared records of an application change in tx: the automatic review
// case, the approval override, the added or deleted document.
func writeChange(ctx context.Context, db *postgres.DB, tx pgx.Tx, t applicationTable, tenantID tenancy.TenantID, id string, ch application.Change) error {
	if ch.OpenCase != nil {
		if _, err := openReviewCase(ctx, db, tx, tenantID, *ch.OpenCase); err != nil {
			return err
		}
	}
	if ch.Override != nil {
		if err := insertOverride(ctx, tx, tenantID, t.evidence, id, *ch.Override); err != nil {
			return err
		}
	}
	if d := ch.AddDocument; d != nil {
		if err := insertDocument(ctx, tx, *d, ch.Audit.Actor.ID); err != nil {
			return err
		}
	}
	if ch.DeleteDocumentID != "" {
		tag, err := tx.Exec(ctx, `delete from documents where tenant_id = $1 and owner_kind = $2 and application_id = $3 and id = $4`,
			string(tenantID), string(t.owner), id, ch.DeleteDocumentID)
		if err != nil {
			return fmt.Errorf("delete document: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return postgres.MapErr(pgx.ErrNoRows, "document")
		}
	}
	return nil
}

// applicationDocument returns one document of t's application appID. Errors: NOT_FOUND.
func applicationDocument(ctx context.Context, db *postgres.DB, t applicationTable, tenantID tenancy.TenantID, appID, docID string) (document.Document, error) {
	var d document.Document
	err := db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		r, err := postgres.One[documentRow](ctx, tx, postgres.Psql.Select(documentColumns).From("documents").
			Where(sq.Eq{"tenant_id": string(tenantID), "owner_kind": string(t.owner), "application_id": appID, "id": docID}), "document")
		d = toDocument(r)
		return err
	})
	return d, err
}

// applicationDocuments lists the documents of t's application appID, oldest first; exists
// reads the application first, so that an unknown one is NOT_FOUND rather than an empty list.
func applicationDocuments(ctx context.Context, db *postgres.DB, t applicationTable, tenantID tenancy.TenantID, appID string,
	exists func(pgx.Tx) error) ([]document.Document, error) {
	var out []document.Document
	err := db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if err := exists(tx); err != nil {
			return err
		}
		var err error
		out, err = listDocuments(ctx, tx, tenantID, t.owner, appID)
		return err
	})
	return out, err
}
