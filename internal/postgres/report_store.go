package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/tenancy"
)

// ReportStore implements reports.Store (issue 14, docs/guide/reports.md).
type ReportStore struct{ db *DB }

// NewReportStore returns the store.
func NewReportStore(db *DB) *ReportStore { return &ReportStore{db: db} }

var _ reports.Store = (*ReportStore)(nil)

type reportRow struct {
	ID               string     `db:"id"`
	TenantID         string     `db:"tenant_id"`
	Type             string     `db:"type"`
	Status           string     `db:"status"`
	Origin           string     `db:"origin"`
	CustomerAccount  string     `db:"customer_account"`
	CustomerName     string     `db:"customer_name"`
	ReportDay        time.Time  `db:"report_day"`
	CaseID           *string    `db:"case_id"`
	CorrectsReportID *string    `db:"corrects_report_id"`
	Reason           string     `db:"reason"`
	Action           string     `db:"action"`
	Narrative        string     `db:"narrative"`
	Indicators       []string   `db:"indicators"`
	Rules            []string   `db:"rules"`
	DeadlineAt       time.Time  `db:"deadline_at"`
	PreparedBy       *string    `db:"prepared_by"`
	Contributors     []string   `db:"contributors"`
	SubmittedBy      *string    `db:"submitted_by"`
	SubmittedAt      *time.Time `db:"submitted_at"`
	ApprovedBy       *string    `db:"approved_by"`
	ApprovedAt       *time.Time `db:"approved_at"`
	RejectionReason  string     `db:"rejection_reason"`
	FiledBy          *string    `db:"filed_by"`
	FiledAt          *time.Time `db:"filed_at"`
	FilingReference  string     `db:"filing_reference"`
	FilingMethod     string     `db:"filing_method"`
	FilingAttempt    int        `db:"filing_attempt"`
	FilingClaimedAt  *time.Time `db:"filing_claimed_at"`
	FilingAnswer     []byte     `db:"filing_answer"`
	CreatedAt        time.Time  `db:"created_at"`
	UpdatedAt        time.Time  `db:"updated_at"`
	TransactionIDs   []string   `db:"transaction_ids"`
}

const reportColumns = `r.id, r.tenant_id::text, r.type, r.status, r.origin, r.customer_account, r.customer_name, r.report_day,
	r.case_id, r.corrects_report_id, r.reason, r.action, r.narrative, r.indicators, r.rules, r.deadline_at,
	r.prepared_by::text, r.contributors::text[] as contributors, r.submitted_by::text, r.submitted_at, r.approved_by::text, r.approved_at, r.rejection_reason,
	r.filed_by::text, r.filed_at, r.filing_reference, r.filing_method, r.filing_attempt, r.filing_claimed_at,
	r.filing_answer, r.created_at, r.updated_at,
	array(select rt.transaction_id::text from report_transactions rt where rt.report_id = r.id order by rt.added_at, rt.transaction_id) as transaction_ids`

func toReport(r reportRow) reports.Report {
	return reports.Report{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), Type: r.Type, Status: r.Status, Origin: r.Origin,
		CustomerAccount: r.CustomerAccount, CustomerName: r.CustomerName, Day: r.ReportDay, CaseID: deref(r.CaseID),
		CorrectsReportID: deref(r.CorrectsReportID), Reason: r.Reason, Action: r.Action, Narrative: r.Narrative,
		Indicators: r.Indicators, Rules: r.Rules, DeadlineAt: r.DeadlineAt, PreparedBy: deref(r.PreparedBy),
		Contributors: nonNil(r.Contributors),
		SubmittedBy:  deref(r.SubmittedBy), SubmittedAt: r.SubmittedAt, ApprovedBy: deref(r.ApprovedBy), ApprovedAt: r.ApprovedAt,
		RejectionReason: r.RejectionReason, FiledBy: deref(r.FiledBy), FiledAt: r.FiledAt, FilingReference: r.FilingReference,
		FilingMethod: r.FilingMethod, FilingAttempt: r.FilingAttempt, FilingClaimedAt: r.FilingClaimedAt,
		FilingAnswer: toFilingAnswer(r.FilingAnswer), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, TransactionIDs: r.TransactionIDs}
}

// filingAnswerJSON is the stored form of reports.FilingAnswer (reports.filing_answer).
type filingAnswerJSON struct {
	IdempotencyKey string    `json:"idempotencyKey"`
	StatusCode     int       `json:"statusCode"`
	BodyExcerpt    string    `json:"bodyExcerpt"`
	Error          string    `json:"error"`
	At             time.Time `json:"at"`
}

func toFilingAnswer(b []byte) *reports.FilingAnswer {
	var a filingAnswerJSON
	if len(b) == 0 || json.Unmarshal(b, &a) != nil {
		return nil
	}
	return &reports.FilingAnswer{IdempotencyKey: a.IdempotencyKey, StatusCode: a.StatusCode, BodyExcerpt: a.BodyExcerpt, Error: a.Error, At: a.At}
}

func fromFilingAnswer(a *reports.FilingAnswer) any {
	if a == nil {
		return nil
	}
	b, _ := json.Marshal(filingAnswerJSON{IdempotencyKey: a.IdempotencyKey, StatusCode: a.StatusCode, BodyExcerpt: a.BodyExcerpt, Error: a.Error, At: a.At})
	return string(b)
}

func getReport(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string, lock bool) (reports.Report, error) {
	q := "select " + reportColumns + " from reports r where r.tenant_id = $1 and r.id = $2"
	if lock {
		q += " for update of r"
	}
	rows, err := tx.Query(ctx, q, string(tenantID), id)
	if err != nil {
		return reports.Report{}, err
	}
	row, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[reportRow])
	if err != nil {
		return reports.Report{}, mapErr(err, "report")
	}
	return toReport(row), nil
}

// applyReportEffects writes a change's timeline, audit and webhooks.
func (db *DB) applyReportEffects(ctx context.Context, tx writer, tenantID tenancy.TenantID, eff reports.Effects) error {
	for _, ev := range eff.Events {
		if _, err := tx.Exec(ctx, `insert into report_events (id, tenant_id, report_id, action, actor_id, note, created_at)
			values ($1, $2, $3, $4, $5, $6, $7)`, ev.ID, string(tenantID), ev.ReportID, ev.Action, nullIfEmpty(ev.ActorID), ev.Note, ev.CreatedAt); err != nil {
			return fmt.Errorf("insert report event: %w", err)
		}
	}
	for _, a := range eff.Audit {
		if err := insertAudit(ctx, tx, a, db.now()); err != nil {
			return fmt.Errorf("insert audit: %w", err)
		}
	}
	for _, w := range eff.Webhooks {
		if err := db.queueWebhook(ctx, tx, tenantID, w.Event, w.Data); err != nil {
			return err
		}
	}
	return nil
}

// Create implements reports.Store.
func (s *ReportStore) Create(ctx context.Context, r *reports.Report, eff reports.Effects) error {
	return s.db.inTenant(ctx, r.TenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `insert into reports (id, tenant_id, type, status, origin, customer_account, customer_name,
			report_day, case_id, corrects_report_id, reason, action, narrative, indicators, rules, deadline_at, prepared_by,
			created_at, updated_at, contributors) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18, $19::uuid[])`,
			r.ID, string(r.TenantID), r.Type, r.Status, r.Origin, r.CustomerAccount, r.CustomerName, r.Day, nullIfEmpty(r.CaseID),
			nullIfEmpty(r.CorrectsReportID), r.Reason, r.Action, r.Narrative, nonNil(r.Indicators), nonNil(r.Rules), r.DeadlineAt,
			nullIfEmpty(r.PreparedBy), r.CreatedAt, nonNil(r.Contributors)); err != nil {
			return fmt.Errorf("insert report: %w", err)
		}
		if len(r.TransactionIDs) > 0 {
			if _, err := tx.Exec(ctx, `insert into report_transactions (tenant_id, report_id, transaction_id, added_at)
				select $1, $2, t, $4 from unnest($3::uuid[]) t on conflict do nothing`, string(r.TenantID), r.ID, r.TransactionIDs, r.CreatedAt); err != nil {
				return fmt.Errorf("link transactions: %w", err)
			}
		}
		return s.db.applyReportEffects(ctx, tx, r.TenantID, eff)
	})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Get implements reports.Store.
func (s *ReportStore) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (*reports.Report, error) {
	var r reports.Report
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		r, err = getReport(ctx, tx, tenantID, id, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// List implements reports.Store.
func (s *ReportStore) List(ctx context.Context, tenantID tenancy.TenantID, p reports.ListParams) (paging.Result[reports.Report], error) {
	where := sq.And{sq.Eq{"r.tenant_id": string(tenantID)}}
	if p.Type != "" {
		where = append(where, sq.Eq{"r.type": p.Type})
	}
	if p.Status != "" {
		where = append(where, sq.Eq{"r.status": p.Status})
	}
	if p.CaseID != "" {
		where = append(where, sq.Eq{"r.case_id": p.CaseID})
	}
	if p.Customer != "" {
		where = append(where, sq.Eq{"r.customer_account": p.Customer})
	}
	if p.From != nil {
		where = append(where, sq.GtOrEq{"r.report_day": *p.From})
	}
	if p.To != nil {
		where = append(where, sq.LtOrEq{"r.report_day": *p.To})
	}
	order := "r.created_at desc, r.id desc"
	if p.DeadlineBefore != nil {
		where = append(where, sq.NotEq{"r.status": reports.StatusFiled}, sq.Lt{"r.deadline_at": *p.DeadlineBefore})
		order = "r.deadline_at, r.id"
	}
	if p.Limit <= 0 {
		p.Limit = 20
	}
	if p.Page <= 0 {
		p.Page = 1
	}
	res := paging.Result[reports.Report]{Items: []reports.Report{}, Page: p.Page, Limit: p.Limit}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		if res.Total, err = count(ctx, tx, psql.Select("count(*)").From("reports r").Where(where)); err != nil {
			return err
		}
		rows, err := collect[reportRow](ctx, tx, psql.Select(reportColumns).From("reports r").Where(where).OrderBy(order).
			Limit(uint64(p.Limit)).Offset(uint64((p.Page-1)*p.Limit)))
		if err != nil {
			return err
		}
		for _, r := range rows {
			res.Items = append(res.Items, toReport(r))
		}
		return nil
	})
	return res, err
}

// Update implements reports.Store. A report that leaves DRAFT leaves the screening's
// aggregation key: later qualifying transactions of its day start a new draft.
func (s *ReportStore) Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*reports.Report) (reports.Effects, error)) (*reports.Report, error) {
	var r reports.Report
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		if r, err = getReport(ctx, tx, tenantID, id, true); err != nil {
			return err
		}
		wasFiled := r.Status == reports.StatusFiled
		eff, err := fn(&r)
		if err != nil {
			return err
		}
		if wasFiled { // immutable whatever fn did (the service refuses first; this is the backstop)
			return apperr.New(apperr.Conflict, "a filed report cannot change")
		}
		if _, err := tx.Exec(ctx, `update reports set status = $3, reason = $4, action = $5, narrative = $6, indicators = $7,
			prepared_by = $8, submitted_by = $9, submitted_at = $10, approved_by = $11, approved_at = $12, rejection_reason = $13,
			filed_by = $14, filed_at = $15, filing_reference = $16, filing_method = $17, updated_at = $18,
			contributors = $19::uuid[], filing_attempt = $20, filing_answer = $21::jsonb,
			aggregating = aggregating and $3 = 'DRAFT'
			where tenant_id = $1 and id = $2`, string(tenantID), id, r.Status, r.Reason, r.Action, r.Narrative, nonNil(r.Indicators),
			nullIfEmpty(r.PreparedBy), nullIfEmpty(r.SubmittedBy), r.SubmittedAt, nullIfEmpty(r.ApprovedBy), r.ApprovedAt,
			r.RejectionReason, nullIfEmpty(r.FiledBy), r.FiledAt, r.FilingReference, r.FilingMethod, r.UpdatedAt,
			nonNil(r.Contributors), r.FilingAttempt, fromFilingAnswer(r.FilingAnswer)); err != nil {
			return fmt.Errorf("update report: %w", err)
		}
		return s.db.applyReportEffects(ctx, tx, tenantID, eff)
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// ClaimFiling implements reports.Store: the conditional UPDATE is the claim, so of two
// simultaneous filing calls exactly one gets the row back; the other reads the report as the
// winner left it (FILING) and is answered at once. A FILING_FAILED report whose last answer
// was a 2xx (the endpoint accepted it) is never claimed again.
func (s *ReportStore) ClaimFiling(ctx context.Context, tenantID tenancy.TenantID, id string, now, staleBefore time.Time, fn func(*reports.Report) reports.Effects) (*reports.Report, error) {
	var r reports.Report
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `update reports set status = 'FILING', filing_attempt = greatest(filing_attempt, 1),
			filing_claimed_at = $3, updated_at = $3
			where tenant_id = $1 and id = $2 and (status = 'APPROVED'
				or (status = 'FILING_FAILED' and coalesce((filing_answer->>'statusCode')::int, 0) not between 200 and 299)
				or (status = 'FILING' and filing_claimed_at < $4))`,
			string(tenantID), id, now, staleBefore)
		if err != nil {
			return fmt.Errorf("claim report: %w", err)
		}
		if r, err = getReport(ctx, tx, tenantID, id, false); err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			if r.Status == reports.StatusFiling {
				return apperr.New(apperr.Conflict, "the report is being filed by another call; its result will be on the report").
					WithData(reports.FilingData(&r))
			}
			if r.Status == reports.StatusFilingFailed && r.FilingAnswer.Accepted() {
				return reports.ErrAcceptedByEndpoint(&r) // the endpoint has it: never sent again
			}
			return apperr.Transition(r.Status, reports.StatusFiling, []string{})
		}
		return s.db.applyReportEffects(ctx, tx, tenantID, fn(&r))
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// Events implements reports.Store.
func (s *ReportStore) Events(ctx context.Context, tenantID tenancy.TenantID, id string) ([]reports.Event, error) {
	var out []reports.Event
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select id, report_id, action, coalesce(actor_id::text, ''), note, created_at from report_events
			where tenant_id = $1 and report_id = $2 order by seq`, string(tenantID), id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e reports.Event
			if err := rows.Scan(&e.ID, &e.ReportID, &e.Action, &e.ActorID, &e.Note, &e.CreatedAt); err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

// reportTxSQL reads stored transactions as reports use them, with the ids of the rules that
// fired (from the verdict's engine breakdown), retained rows of dropped partitions too
// (transactions_kept, migration 0049: a report's transactions are held).
const reportTxSQL = `select t.id::text, t.external_id, t.type, t.channel, t.amount, t.currency, t.amount_ngn,
	t.sender_account_number, t.sender_name, coalesce(t.sender_bvn, ''), coalesce(t.sender_bank_code, ''),
	coalesce(t.receiver_account_number, ''), coalesce(t.receiver_name, ''), coalesce(t.receiver_bank_code, ''),
	coalesce(t.receiver_country, ''), coalesce(t.narration, ''), t.transaction_timestamp,
	array(select distinct r->>'id' from jsonb_array_elements(t.engine_verdicts) e,
		jsonb_array_elements(coalesce(e->'rules', '[]'::jsonb)) r where r->>'id' like 'AML-%' order by 1),
	coalesce((select jsonb_agg(h) from jsonb_array_elements(t.engine_verdicts) e,
		jsonb_array_elements(coalesce(e->'hits', '[]'::jsonb)) h), '[]'::jsonb)
	from transactions_kept t`

func scanReportTx(rows pgx.Rows) (reports.Transaction, error) {
	var t reports.Transaction
	var amount, amountNGN decimal.Decimal
	var hits []hitJSON
	err := rows.Scan(&t.ID, &t.ExternalID, &t.Type, &t.Channel, &amount, &t.Currency, &amountNGN, &t.SenderAccountNumber,
		&t.SenderName, &t.SenderBVN, &t.SenderBankCode, &t.ReceiverAccountNumber, &t.ReceiverName, &t.ReceiverBankCode,
		&t.ReceiverCountry, &t.Narration, &t.Timestamp, &t.Rules, &hits)
	t.Amount, t.AmountNGN = amount, amountNGN
	for _, h := range hits {
		t.Hits = append(t.Hits, reports.Hit{Party: h.Party, List: h.List, EntryID: h.EntryID, Name: h.Name, MatchedName: h.MatchedName, Score: h.Score})
	}
	return t, err
}

// Transactions implements reports.Store.
func (s *ReportStore) Transactions(ctx context.Context, tenantID tenancy.TenantID, ids []string) ([]reports.Transaction, error) {
	var valid []string
	for _, id := range ids {
		if isUUID(id) {
			valid = append(valid, id)
		}
	}
	if len(valid) == 0 {
		return nil, nil
	}
	var out []reports.Transaction
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, reportTxSQL+` where t.tenant_id = $1 and t.id = any($2::uuid[]) order by t.transaction_timestamp, t.id`,
			string(tenantID), valid)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanReportTx(rows)
			if err != nil {
				return err
			}
			out = append(out, t)
		}
		return rows.Err()
	})
	return out, err
}

// Case implements reports.Store.
func (s *ReportStore) Case(ctx context.Context, tenantID tenancy.TenantID, caseID string) (reports.CaseFacts, error) {
	var f reports.CaseFacts
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var txID *string
		err := tx.QueryRow(ctx, `select id, case_number, title, description, status, related_transaction_id from cases where tenant_id = $1 and id = $2`,
			string(tenantID), caseID).Scan(&f.ID, &f.Number, &f.Title, &f.Description, &f.Status, &txID)
		if err != nil {
			return mapErr(err, "case")
		}
		f.TransactionID = deref(txID)
		rows, err := tx.Query(ctx, `select description from case_events where tenant_id = $1 and case_id = $2 and event_type = 'NOTE_ADDED'
			order by created_at, seq`, string(tenantID), caseID)
		if err != nil {
			return err
		}
		f.Notes, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	return f, err
}

// Settings implements reports.Store.
func (s *ReportStore) Settings(ctx context.Context, tenantID tenancy.TenantID) (reports.Settings, error) {
	var set reports.Settings
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		set, err = s.db.readReportSettings(ctx, tx, tenantID)
		return err
	})
	return set, err
}

// readReportSettings reads the tenant's settings; the filing token is stored sealed (sealer.go).
func (db *DB) readReportSettings(ctx context.Context, tx writer, tenantID tenancy.TenantID) (reports.Settings, error) {
	var s reports.Settings
	var ctr, str, sar, ftr, near *int
	var codes []codeJSON
	err := tx.QueryRow(ctx, `select rentity_id, rentity_branch, institution_name, institution_code, person_first_name,
		person_last_name, person_email, person_phone, person_occupation, filing_url, filing_token, ctr_deadline_hours,
		str_deadline_hours, sar_deadline_hours, ftr_deadline_hours, near_deadline_hours, updated_at, location_address,
		location_city, location_state, location_country_code, schema_name, code_list
		from report_settings where tenant_id = $1`, string(tenantID)).Scan(&s.RentityID, &s.RentityBranch, &s.InstitutionName,
		&s.InstitutionCode, &s.ReportingPerson.FirstName, &s.ReportingPerson.LastName, &s.ReportingPerson.Email,
		&s.ReportingPerson.Phone, &s.ReportingPerson.Occupation, &s.FilingURL, &s.FilingToken, &ctr, &str, &sar, &ftr, &near, &s.UpdatedAt,
		&s.Location.Address, &s.Location.City, &s.Location.State, &s.Location.CountryCode, &s.SchemaName, &codes)
	if errors.Is(err, pgx.ErrNoRows) {
		return reports.Settings{}, nil
	}
	if err != nil {
		return s, fmt.Errorf("read report settings: %w", err)
	}
	for _, c := range codes {
		s.CodeList.Codes = append(s.CodeList.Codes, reports.Code{List: c.List, Code: c.Code, Description: c.Description, Use: c.Use})
	}
	if s.FilingToken, err = db.seal.openText(tenantID, s.FilingToken); err != nil {
		return s, fmt.Errorf("open filing token: %w", err)
	}
	s.DeadlineHours = map[string]int{}
	for t, v := range map[string]*int{reports.TypeCTR: ctr, reports.TypeSTR: str, reports.TypeSAR: sar, reports.TypeFTR: ftr} {
		if v != nil {
			s.DeadlineHours[t] = *v
		}
	}
	if near != nil {
		s.NearHours = *near
	}
	return s, nil
}

// SaveSettings implements reports.Store.
func (s *ReportStore) SaveSettings(ctx context.Context, tenantID tenancy.TenantID, set reports.Settings, ev audit.Event) error {
	hours := func(t string) *int {
		if h, ok := set.DeadlineHours[t]; ok && h > 0 {
			return &h
		}
		return nil
	}
	var near *int
	if set.NearHours > 0 {
		near = &set.NearHours
	}
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `insert into report_settings (tenant_id, rentity_id, rentity_branch, institution_name,
			institution_code, person_first_name, person_last_name, person_email, person_phone, person_occupation, filing_url,
			filing_token, ctr_deadline_hours, str_deadline_hours, sar_deadline_hours, ftr_deadline_hours, near_deadline_hours, updated_at,
			location_address, location_city, location_state, location_country_code, schema_name)
			values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)
			on conflict (tenant_id) do update set rentity_id = excluded.rentity_id, rentity_branch = excluded.rentity_branch,
			institution_name = excluded.institution_name, institution_code = excluded.institution_code,
			person_first_name = excluded.person_first_name, person_last_name = excluded.person_last_name,
			person_email = excluded.person_email, person_phone = excluded.person_phone, person_occupation = excluded.person_occupation,
			filing_url = excluded.filing_url, filing_token = excluded.filing_token, ctr_deadline_hours = excluded.ctr_deadline_hours,
			str_deadline_hours = excluded.str_deadline_hours, sar_deadline_hours = excluded.sar_deadline_hours,
			ftr_deadline_hours = excluded.ftr_deadline_hours, near_deadline_hours = excluded.near_deadline_hours,
			updated_at = excluded.updated_at, location_address = excluded.location_address, location_city = excluded.location_city,
			location_state = excluded.location_state, location_country_code = excluded.location_country_code,
			schema_name = excluded.schema_name`,
			string(tenantID), set.RentityID, set.RentityBranch, set.InstitutionName, set.InstitutionCode, set.ReportingPerson.FirstName,
			set.ReportingPerson.LastName, set.ReportingPerson.Email, set.ReportingPerson.Phone, set.ReportingPerson.Occupation,
			set.FilingURL, s.db.seal.sealText(tenantID, set.FilingToken), hours(reports.TypeCTR), hours(reports.TypeSTR), hours(reports.TypeSAR),
			hours(reports.TypeFTR), near, set.UpdatedAt, set.Location.Address, set.Location.City, set.Location.State,
			set.Location.CountryCode, set.SchemaName); err != nil {
			return fmt.Errorf("save report settings: %w", err)
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// codeJSON is one code of report_settings.code_list.
type codeJSON struct {
	List        string   `json:"list"`
	Code        string   `json:"code"`
	Description string   `json:"description"`
	Use         []string `json:"use,omitempty"`
}

// SaveCodeList implements reports.Store: the tenant's code list replaces the one it had (a
// settings row is started when the tenant has none).
func (s *ReportStore) SaveCodeList(ctx context.Context, tenantID tenancy.TenantID, cl reports.CodeList, at time.Time, ev audit.Event) error {
	codes := make([]codeJSON, 0, len(cl.Codes))
	for _, c := range cl.Codes {
		codes = append(codes, codeJSON{List: c.List, Code: c.Code, Description: c.Description, Use: c.Use})
	}
	b, err := json.Marshal(codes)
	if err != nil {
		return err
	}
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `insert into report_settings (tenant_id, code_list, code_list_loaded_at, updated_at)
			values ($1, $2, $3, $3) on conflict (tenant_id) do update set code_list = excluded.code_list,
			code_list_loaded_at = excluded.code_list_loaded_at`, string(tenantID), b, at); err != nil {
			return fmt.Errorf("save code list: %w", err)
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

var _ reports.DayStore = (*ReportStore)(nil)

// DayReports implements reports.DayStore: two queries in one read-only transaction.
func (s *ReportStore) DayReports(ctx context.Context, tenantID tenancy.TenantID, typ string, day time.Time, after string, limit int) ([]reports.Report, []reports.Transaction, error) {
	var rs []reports.Report
	var txs []reports.Transaction
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "select "+reportColumns+` from reports r where r.tenant_id = $1 and r.type = $2 and r.report_day = $3
			and r.status in ('APPROVED', 'FILED') and r.id > $4 order by r.id limit $5`, string(tenantID), typ, day, after, limit)
		if err != nil {
			return err
		}
		out, err := pgx.CollectRows(rows, pgx.RowToStructByName[reportRow])
		if err != nil {
			return err
		}
		var ids []string
		for _, r := range out {
			rs = append(rs, toReport(r))
			ids = append(ids, r.TransactionIDs...)
		}
		if len(ids) == 0 {
			return nil
		}
		trows, err := tx.Query(ctx, reportTxSQL+` where t.tenant_id = $1 and t.id = any($2::uuid[])`, string(tenantID), ids)
		if err != nil {
			return err
		}
		defer trows.Close()
		for trows.Next() {
			t, err := scanReportTx(trows)
			if err != nil {
				return err
			}
			txs = append(txs, t)
		}
		return trows.Err()
	})
	return rs, txs, err
}
