package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// CaseStore implements cases.Store and cases.Views.
type CaseStore struct{ db *DB }

// NewCaseStore returns the case store over db.
func NewCaseStore(db *DB) *CaseStore { return &CaseStore{db: db} }

var (
	_ cases.Store = (*CaseStore)(nil)
	_ cases.Views = (*CaseStore)(nil)
)

const caseColumns = "id, tenant_id, case_number, type, priority, title, description, status, assigned_to, " +
	"related_transaction_id, related_kyc_application_id, tags, resolved_at, resolution_note, created_by, created_at, updated_at, " +
	"inbox_id, due_at"

type caseRow struct {
	ID                      string     `db:"id"`
	TenantID                string     `db:"tenant_id"`
	CaseNumber              string     `db:"case_number"`
	Type                    string     `db:"type"`
	Priority                string     `db:"priority"`
	Title                   string     `db:"title"`
	Description             string     `db:"description"`
	Status                  string     `db:"status"`
	AssignedTo              *string    `db:"assigned_to"`
	RelatedTransactionID    *string    `db:"related_transaction_id"`
	RelatedKYCApplicationID *string    `db:"related_kyc_application_id"`
	Tags                    []string   `db:"tags"`
	ResolvedAt              *time.Time `db:"resolved_at"`
	ResolutionNote          string     `db:"resolution_note"`
	CreatedBy               *string    `db:"created_by"`
	CreatedAt               time.Time  `db:"created_at"`
	UpdatedAt               time.Time  `db:"updated_at"`
	InboxID                 *string    `db:"inbox_id"`
	DueAt                   *time.Time `db:"due_at"`
}

func toCase(r caseRow) cases.Case {
	if r.Tags == nil {
		r.Tags = []string{}
	}
	return cases.Case{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), CaseNumber: r.CaseNumber, Type: r.Type,
		Priority: r.Priority, Title: r.Title, Description: r.Description, Status: r.Status, AssignedTo: r.AssignedTo,
		RelatedTransactionID: r.RelatedTransactionID, RelatedKYCApplicationID: r.RelatedKYCApplicationID, Tags: r.Tags,
		ResolvedAt: r.ResolvedAt, ResolutionNote: r.ResolutionNote, CreatedBy: deref(r.CreatedBy),
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, InboxID: r.InboxID, DueAt: r.DueAt}
}

func getCase(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string, lock bool) (cases.Case, error) {
	b := psql.Select(caseColumns).From("cases").Where(sq.Eq{"tenant_id": string(tenantID), "id": id})
	if lock {
		b = b.Suffix("FOR UPDATE")
	}
	r, err := one[caseRow](ctx, tx, b, "case")
	return toCase(r), err
}

// nextCaseNumber takes the next sequence of (tenant, year) from the counter row. The row stays
// locked until the transaction ends, which serialises concurrent creations of the tenant and
// year; a rollback gives the number back, so numbers have no gaps and no duplicates.
func nextCaseNumber(ctx context.Context, tx writer, tenantID tenancy.TenantID, year int) (string, error) {
	n, err := takeCaseNumbers(ctx, tx, tenantID, year, 1)
	if err != nil {
		return "", err
	}
	return cases.FormatNumber(year, n), nil
}

// takeCaseNumbersSQL adds $3 to the (tenant, year) counter and returns its new value.
const takeCaseNumbersSQL = `insert into case_counters (tenant_id, year, last_value) values ($1, $2, $3)
	on conflict (tenant_id, year) do update set last_value = case_counters.last_value + $3
	returning last_value`

// takeCaseNumbers takes k > 0 consecutive sequence numbers of (tenant, year) and returns the
// last; the counter row stays locked until the transaction ends (see nextCaseNumber).
func takeCaseNumbers(ctx context.Context, tx writer, tenantID tenancy.TenantID, year, k int) (int, error) {
	var n int
	err := tx.QueryRow(ctx, takeCaseNumbersSQL, string(tenantID), year, k).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("next case number: %w", err)
	}
	return n, nil
}

func insertCase(ctx context.Context, tx writer, c cases.Case) error {
	tags := c.Tags
	if tags == nil {
		tags = []string{}
	}
	_, err := tx.Exec(ctx, insertCaseSQL, c.ID, string(c.TenantID), c.CaseNumber, c.Type, c.Priority, c.Title, c.Description,
		c.Status, c.AssignedTo, c.RelatedTransactionID, c.RelatedKYCApplicationID, tags, c.ResolvedAt, c.ResolutionNote,
		nullIfEmpty(c.CreatedBy), c.CreatedAt, c.UpdatedAt)
	if err != nil {
		return fmt.Errorf("insert case: %w", mapErr(err, "case"))
	}
	return nil
}

func updateCase(ctx context.Context, tx pgx.Tx, c cases.Case) error {
	tags := c.Tags
	if tags == nil {
		tags = []string{}
	}
	return exec(ctx, tx, psql.Update("cases").SetMap(map[string]any{
		"status": c.Status, "assigned_to": c.AssignedTo, "priority": c.Priority, "title": c.Title,
		"description": c.Description, "tags": tags, "resolved_at": c.ResolvedAt, "resolution_note": c.ResolutionNote,
		"updated_at": c.UpdatedAt,
	}).Where(sq.Eq{"tenant_id": string(c.TenantID), "id": c.ID}))
}

// createCase numbers, builds and inserts a case with its effects in tx.
func (db *DB) createCase(ctx context.Context, tx writer, tenantID tenancy.TenantID, year int, build func(string) (cases.Case, cases.Effects, error)) (cases.Case, error) {
	number, err := nextCaseNumber(ctx, tx, tenantID, year)
	if err != nil {
		return cases.Case{}, err
	}
	c, eff, err := build(number)
	if err != nil {
		return cases.Case{}, err
	}
	c.TenantID = tenantID
	if err := insertCase(ctx, tx, c); err != nil {
		return cases.Case{}, err
	}
	if err := db.applyCaseEffects(ctx, tx, tenantID, eff); err != nil {
		return cases.Case{}, err
	}
	return c, nil
}

// createCaseTx is the entry point for automatic case creation by the screening pipeline, to be
// called inside the pipeline's own transaction so that the case commits (or not) with the
// transaction and verdict rows.
//
// Contract:
//   - tx must belong to tenantID (opened with db.inTenant(ctx, tenantID, …)); the tenant setting
//     is re-applied here so a mistake cannot write under another tenant.
//   - p is validated exactly as a manual creation (VALIDATION_ERROR naming the fields); p.TenantID
//     is overwritten with tenantID and p.Automatic is forced to true. The actor is the system
//     (CASE_CREATED has a null actorId).
//   - The case is numbered from the (tenant, year) counter row, which stays locked until tx
//     ends: call createCaseTx late in the transaction and commit promptly, since concurrent
//     creations of the tenant wait on that row. A rollback of tx gives the number back.
//   - In tx it writes the case, its CASE_CREATED event, the audit record, the case.created
//     webhook (through queueWebhook: nothing when no URL is configured), and for every active
//     COMPLIANCE_OFFICER of the tenant a queued email (queueEmail) and a dashboard
//     notification. Nothing is sent before commit.
//   - It does not enforce "one case per transaction" (docs/design/design-choices.md §8): the caller decides.
//
// Errors: VALIDATION_ERROR; INTERNAL (database errors, returned wrapped).
func (db *DB) createCaseTx(ctx context.Context, tx writer, tenantID tenancy.TenantID, p cases.NewParams) (cases.Case, error) {
	if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenantID)); err != nil {
		return cases.Case{}, fmt.Errorf("set tenant: %w", err)
	}
	ps := []cases.NewParams{p}
	a, err := db.validateAutomaticCases(tenantID, ps)
	if err != nil {
		return cases.Case{}, err
	}
	last, err := takeCaseNumbers(ctx, tx, tenantID, a.At.Year(), 1)
	if err != nil {
		return cases.Case{}, err
	}
	cs, err := db.writeCases(ctx, tx, tenantID, ps, a, last)
	if err != nil {
		return cases.Case{}, err
	}
	return cs[0], nil
}

// validateAutomaticCases prepares ps as automatic cases of tenantID and validates them, before
// any number is taken; it returns the system actor and time the cases are created with.
func (db *DB) validateAutomaticCases(tenantID tenancy.TenantID, ps []cases.NewParams) (cases.Actor, error) {
	return cases.Actor{At: db.now().UTC()}, prepareAutomaticCases(tenantID, ps)
}

// prepareAutomaticCases marks ps as automatic cases of tenantID and validates them.
func prepareAutomaticCases(tenantID tenancy.TenantID, ps []cases.NewParams) error {
	for i := range ps {
		ps[i].TenantID = tenantID
		ps[i].Automatic = true
		if err := ps[i].Validate(); err != nil {
			return err
		}
	}
	return nil
}

// writeCases writes the validated cases ps, numbered up to last (taken with takeCaseNumbers
// for len(ps) cases in a.At's year), with their effects, through tx.
func (db *DB) writeCases(ctx context.Context, tx writer, tenantID tenancy.TenantID, ps []cases.NewParams, a cases.Actor, last int) ([]cases.Case, error) {
	year := a.At.Year()
	out := make([]cases.Case, len(ps))
	for i, p := range ps {
		c, eff, err := cases.New(p, a, cases.FormatNumber(year, last-len(ps)+1+i))
		if err != nil {
			return nil, err
		}
		if err := insertCase(ctx, tx, c); err != nil {
			return nil, err
		}
		if err := db.applyCaseEffects(ctx, tx, tenantID, eff); err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// Create implements cases.Store.
func (s *CaseStore) Create(ctx context.Context, tenantID tenancy.TenantID, year int, build func(string) (cases.Case, cases.Effects, error)) (*cases.Case, error) {
	var c cases.Case
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		if c, err = s.db.createCase(ctx, tx, tenantID, year, build); err != nil {
			return err
		}
		// The insert's trigger filed the case (inbox, due time, automatic assignee; migration
		// 0042): read back what it stored.
		c, err = getCase(ctx, tx, tenantID, c.ID, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// Get implements cases.Store.
func (s *CaseStore) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (*cases.Case, error) {
	var c cases.Case
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		c, err = getCase(ctx, tx, tenantID, id, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// List implements cases.Store: newest first.
func (s *CaseStore) List(ctx context.Context, tenantID tenancy.TenantID, p cases.ListParams) (paging.Result[cases.Case], error) {
	where := sq.Eq{"tenant_id": string(tenantID)}
	if p.Status != "" {
		where["status"] = p.Status
	}
	if p.Type != "" {
		where["type"] = p.Type
	}
	if p.Priority != "" {
		where["priority"] = p.Priority
	}
	if p.InboxID != "" {
		where["inbox_id"] = p.InboxID
	}
	filters := sq.And{where}
	switch {
	case p.AssigneeID != "" && p.IncludeUnassigned:
		filters = append(filters, sq.Or{sq.Expr("assigned_to::text = ?", p.AssigneeID), sq.Expr("assigned_to IS NULL")})
	case p.AssigneeID != "":
		// assigned_to is a uuid: compare as text so a malformed filter matches nothing rather
		// than failing the cast.
		filters = append(filters, sq.Expr("assigned_to::text = ?", p.AssigneeID))
	case p.IncludeUnassigned:
		filters = append(filters, sq.Expr("assigned_to IS NULL"))
	}
	if p.AwaitingConfirmationBy != "" {
		filters = append(filters, sq.Expr("status = 'PENDING_REVIEW'"), sq.Expr(`EXISTS (SELECT 1 FROM case_proposals rp
			WHERE rp.tenant_id = cases.tenant_id AND rp.case_id = cases.id AND rp.status = 'PENDING' AND rp.proposed_by::text <> ?)`,
			p.AwaitingConfirmationBy))
	}
	order := []string{"created_at DESC", "id DESC"}
	switch p.Sort {
	case "OLDEST":
		order = []string{"created_at ASC", "id ASC"}
	case "PRIORITY":
		order = []string{"CASE priority WHEN 'CRITICAL' THEN 0 WHEN 'HIGH' THEN 1 WHEN 'MEDIUM' THEN 2 ELSE 3 END", "created_at ASC", "id ASC"}
	case "DUE":
		// Soonest due first puts the breached (due in the past) ahead of the rest.
		order = []string{"due_at ASC NULLS LAST", "id ASC"}
	}
	res := paging.Result[cases.Case]{Items: []cases.Case{}, Page: p.Page, Limit: p.Limit}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := count(ctx, tx, psql.Select("count(*)").From("cases").Where(filters))
		if err != nil {
			return err
		}
		rows, err := collect[caseRow](ctx, tx, psql.Select(caseColumns).From("cases").Where(filters).
			OrderBy(order...).Limit(uint64(p.Limit)).Offset(uint64((p.Page-1)*p.Limit)))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, toCase(r))
		}
		return queueFacts(ctx, tx, tenantID, res.Items)
	})
	return res, err
}

// Update implements cases.Store.
func (s *CaseStore) Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*cases.Case) (cases.Effects, error)) (*cases.Case, error) {
	return s.update(ctx, tenantID, id, false, func(c *cases.Case, _ cases.Guard) (cases.Effects, error) { return fn(c) })
}

// UpdateStatus implements cases.Store: Update with the four-eyes guard read after the case's
// lock, so a proposal created concurrently (CreateProposal takes the same lock) is seen.
func (s *CaseStore) UpdateStatus(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*cases.Case, cases.Guard) (cases.Effects, error)) (*cases.Case, error) {
	return s.update(ctx, tenantID, id, true, fn)
}

// Guard implements cases.Store.
func (s *CaseStore) Guard(ctx context.Context, tenantID tenancy.TenantID, caseID string) (cases.Guard, error) {
	var g cases.Guard
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		g, err = readGuard(ctx, tx, tenantID, caseID)
		return err
	})
	return g, err
}

// readGuard reads the case's PENDING proposal (at most one: the partial unique index) and the
// tenant's fourEyesResolution setting.
func readGuard(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, caseID string) (cases.Guard, error) {
	var g cases.Guard
	rows, err := collect[proposalRow](ctx, tx, psql.Select(proposalColumns).From("case_proposals").
		Where(sq.Eq{"tenant_id": string(tenantID), "case_id": caseID, "status": cases.ProposalPending}))
	if err != nil {
		return g, fmt.Errorf("read pending proposal: %w", err)
	}
	if len(rows) > 0 {
		p := toProposal(rows[0])
		g.Pending = &p
	}
	if err := tx.QueryRow(ctx, "select four_eyes_resolution from tenant_settings where tenant_id = $1",
		string(tenantID)).Scan(&g.FourEyesRequired); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return g, fmt.Errorf("read case settings: %w", err)
	}
	return g, nil
}

// Settings implements cases.Store.
func (s *CaseStore) Settings(ctx context.Context, tenantID tenancy.TenantID) (cases.Settings, error) {
	var set cases.Settings
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		return mapErr(tx.QueryRow(ctx, "select four_eyes_resolution from tenant_settings where tenant_id = $1",
			string(tenantID)).Scan(&set.FourEyesResolution), "tenant")
	})
	return set, err
}

// SaveSettings implements cases.Store.
func (s *CaseStore) SaveSettings(ctx context.Context, tenantID tenancy.TenantID, set cases.Settings, ev audit.Event) error {
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "update tenant_settings set four_eyes_resolution = $2, updated_at = $3 where tenant_id = $1",
			string(tenantID), set.FourEyesResolution, s.db.now())
		if err != nil {
			return fmt.Errorf("update case settings: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.NotFoundf("tenant not found")
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

func (s *CaseStore) update(ctx context.Context, tenantID tenancy.TenantID, id string, guarded bool, fn func(*cases.Case, cases.Guard) (cases.Effects, error)) (*cases.Case, error) {
	var c cases.Case
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		c, err = getCase(ctx, tx, tenantID, id, true)
		if err != nil {
			return err
		}
		var g cases.Guard
		if guarded {
			if g, err = readGuard(ctx, tx, tenantID, id); err != nil {
				return err
			}
		}
		was := c.Status
		eff, err := fn(&c, g)
		if err != nil {
			return err
		}
		if err := updateCase(ctx, tx, c); err != nil {
			return fmt.Errorf("update case: %w", err)
		}
		if err := s.db.applyCaseEffects(ctx, tx, tenantID, eff); err != nil {
			return err
		}
		if c.Status == cases.StatusResolvedTruePositive && was != c.Status { // report_drafts.go
			return s.db.draftCaseReport(ctx, tx, tenantID, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// AddEvent implements cases.Store.
func (s *CaseStore) AddEvent(ctx context.Context, tenantID tenancy.TenantID, ev cases.Event) error {
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := getCase(ctx, tx, tenantID, ev.CaseID, false); err != nil {
			return err
		}
		return s.db.applyCaseEffects(ctx, tx, tenantID, cases.Effects{Events: []cases.Event{ev}})
	})
}

// CaseUsers implements cases.Users over the users table.
type CaseUsers struct{ db *DB }

// NewCaseUsers returns the directory port of cases.
func NewCaseUsers(db *DB) *CaseUsers { return &CaseUsers{db: db} }

var _ cases.Users = (*CaseUsers)(nil)

// Get implements cases.Users: NOT_FOUND for an unknown id and for a user of another tenant.
func (u *CaseUsers) Get(ctx context.Context, tenantID tenancy.TenantID, userID string) (cases.User, error) {
	var out cases.User
	if !isUUID(userID) {
		return out, mapErr(pgx.ErrNoRows, "user")
	}
	err := u.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, "select id::text, is_active from users where tenant_id = $1 and id = $2::uuid",
			string(tenantID), userID).Scan(&out.ID, &out.Active)
		return mapErr(err, "user")
	})
	return out, err
}

// Events implements cases.Store: the timeline, oldest first.
func (s *CaseStore) Events(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]cases.Event, error) {
	out := []cases.Event{}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := getCase(ctx, tx, tenantID, caseID, false); err != nil {
			return err
		}
		rows, err := collect[caseEventRow](ctx, tx, psql.Select("id, case_id, event_type, actor_id, description, previous_value, new_value, metadata, created_at").
			From("case_events").Where(sq.Eq{"tenant_id": string(tenantID), "case_id": caseID}).OrderBy("seq"))
		if err != nil {
			return err
		}
		for _, r := range rows {
			out = append(out, cases.Event{ID: r.ID, CaseID: r.CaseID, EventType: r.EventType, ActorID: deref(r.ActorID),
				Description: r.Description, PreviousValue: r.PreviousValue, NewValue: r.NewValue, Metadata: r.Metadata,
				CreatedAt: r.CreatedAt})
		}
		return nil
	})
	return out, err
}
