package customerstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/customers"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// CustomerStore implements customers.Store (docs/guide/customers.md). A customer is a saved profile;
// it is linked to KYC applications by the keyed hash of its BVN, to KYB applications by its
// normalized RC number, to transactions (and their cases) by the sender BVN.
type CustomerStore struct{ db *postgres.DB }

// NewCustomerStore returns the store.
func NewCustomerStore(db *postgres.DB) *CustomerStore { return &CustomerStore{db: db} }

// overviewLimit bounds each list of the overview (one more is read to say it was cut).
const overviewLimit = 100

// customerLinks are the keys a profile is linked by.
type customerLinks struct {
	bvn     string
	bvnHash []byte
	rcKey   string
}

func (s *CustomerStore) links(tenantID tenancy.TenantID, bvn, rc string) customerLinks {
	l := customerLinks{bvn: bvn}
	if bvn != "" {
		l.bvnHash = s.db.KycBVNHash(tenantID, bvn)
	}
	if rc != "" {
		l.rcKey = identity.NormalizeRC(rc)
	}
	return l
}

// linkedCasesSQL: the cases of the customer's transactions or KYC applications. $1 tenant,
// $2 BVN (” for none), $3 BVN hash (null for none), $4 limit. Read from the customer's side:
// the keys of the BVN's transactions (transactions_sender_bvn_idx, one descent a partition)
// and applications first, then their cases by key (cases_tenant_transaction_idx,
// cases_tenant_kyc_application_idx), so that what it touches grows with the customer's own
// history and not with the tenant's cases. Written as a filter over the tenant's cases with
// the two IN lists OR'ed, PostgreSQL walked every case of the tenant and tested each against
// hashed subplans: at 1,000,000 stored transactions and 7,400 cases that was 394 buffer hits a
// call, half of a screening's (docs/performance-at-scale.md "The statement behind the buffer
// hits"). The keys are collected into arrays (ARRAY(subquery), run once) because a LATERAL
// join on t.id::text, tried first, scanned cases once per transaction as the application role
// (probably row-level security: the cast is not leakproof; not isolated).
const linkedCasesSQL = `select c.id, c.case_number, c.title, c.status, c.priority, c.type, c.created_at from cases c
where c.tenant_id = $1 and c.related_transaction_id = any (array(
  select t.id::text from transactions t where $2 <> '' and t.tenant_id = $1 and t.sender_bvn = $2))
union
select c.id, c.case_number, c.title, c.status, c.priority, c.type, c.created_at from cases c
where c.tenant_id = $1 and c.related_kyc_application_id = any (array(
  select k.id from kyc_applications k where $3::bytea is not null and k.tenant_id = $1 and k.bvn_hash = $3))
order by created_at desc, id desc limit $4`

type linkedCase struct {
	customers.Case
	Type string
}

func linkedCases(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, l customerLinks, limit int) ([]linkedCase, error) {
	rows, err := tx.Query(ctx, linkedCasesSQL, string(tenantID), l.bvn, l.bvnHash, limit)
	if err != nil {
		return nil, fmt.Errorf("linked cases: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (linkedCase, error) {
		var c linkedCase
		return c, r.Scan(&c.ID, &c.CaseNumber, &c.Title, &c.Status, &c.Priority, &c.Type, &c.CreatedAt)
	})
}

// lockProfile reads (and with lock, locks) the profile: the row every rating of the customer
// serializes on. Errors: NOT_FOUND.
func lockProfile(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string, lock bool) (postgres.ProfileRow, error) {
	b := postgres.Psql.Select(postgres.ProfileColumns).From("customer_profiles").Where(sq.Eq{"tenant_id": string(tenantID), "id": id})
	if lock {
		b = b.Suffix("for update")
	}
	return postgres.One[postgres.ProfileRow](ctx, tx, b, "customer")
}

// Overview implements customers.Store.
func (s *CustomerStore) Overview(ctx context.Context, tenantID tenancy.TenantID, id string) (customers.Overview, error) {
	var o customers.Overview
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		row, err := lockProfile(ctx, tx, tenantID, id, false)
		if err != nil {
			return err
		}
		if o.Profile, err = postgres.ToProfile(row); err != nil {
			return err
		}
		if r, err := getRisk(ctx, tx, tenantID, id); err == nil {
			o.Risk = &r
		} else if !errors.Is(err, errNoRisk) {
			return err
		}
		l := s.links(tenantID, row.BVN, row.RCNumber)
		if o.Applications, err = linkedApplications(ctx, tx, tenantID, l); err != nil {
			return err
		}
		if o.Accounts, err = linkedAccounts(ctx, tx, tenantID, l.bvn, overviewLimit+1); err != nil {
			return err
		}
		if len(o.Accounts) > overviewLimit {
			o.Accounts, o.AccountsTruncated = o.Accounts[:overviewLimit], true
		}
		cs, err := linkedCases(ctx, tx, tenantID, l, overviewLimit+1)
		if err != nil {
			return err
		}
		if len(cs) > overviewLimit {
			cs, o.CasesTruncated = cs[:overviewLimit], true
		}
		o.Cases = make([]customers.Case, 0, len(cs))
		for _, c := range cs {
			o.Cases = append(o.Cases, c.Case)
		}
		keys := []string{}
		if l.bvn != "" {
			keys = append(keys, l.bvn)
		}
		for _, a := range o.Accounts {
			keys = append(keys, a.Account)
		}
		if o.SanctionsReviews, err = sanctionsReviews(ctx, tx, tenantID, keys); err != nil {
			return err
		}
		accounts := make([]string, 0, len(o.Accounts))
		for _, a := range o.Accounts {
			accounts = append(accounts, a.Account)
		}
		caseIDs := make([]string, 0, len(o.Cases))
		for _, c := range o.Cases {
			caseIDs = append(caseIDs, c.ID)
		}
		if o.Reports, err = linkedReports(ctx, tx, tenantID, accounts, caseIDs, overviewLimit+1); err != nil {
			return err
		}
		if len(o.Reports) > overviewLimit {
			o.Reports, o.ReportsTruncated = o.Reports[:overviewLimit], true
		}
		return nil
	})
	return o, err
}

// linkedReports are the regulatory reports of the customer's accounts (the screening drafts one
// per account and day) or of its cases (drafted on a suspicious resolution), newest first.
func linkedReports(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, accounts, caseIDs []string, limit int) ([]customers.Report, error) {
	if len(accounts) == 0 && len(caseIDs) == 0 {
		return []customers.Report{}, nil
	}
	rows, err := tx.Query(ctx, `select id, type, status, customer_account, coalesce(case_id, ''), report_day, created_at
from reports where tenant_id = $1 and (customer_account = any($2::text[]) or case_id = any($3::text[]))
order by created_at desc, id desc limit $4`, string(tenantID), accounts, caseIDs, limit)
	if err != nil {
		return nil, fmt.Errorf("linked reports: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (customers.Report, error) {
		var x customers.Report
		return x, r.Scan(&x.ID, &x.Type, &x.Status, &x.Account, &x.CaseID, &x.Day, &x.CreatedAt)
	})
}

func linkedApplications(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, l customerLinks) ([]customers.Application, error) {
	rows, err := tx.Query(ctx, `
(select id, 'KYC', status, tier, coalesce(risk_level, ''), created_at from kyc_applications
  where $2::bytea is not null and tenant_id = $1 and bvn_hash = $2 order by created_at desc limit 20)
union all
(select id, 'KYB', status, '', coalesce(risk_level, ''), created_at from kyb_applications
  where $3 <> '' and tenant_id = $1 and rc_key = $3 order by created_at desc limit 20)
order by 6 desc`, string(tenantID), l.bvnHash, l.rcKey)
	if err != nil {
		return nil, fmt.Errorf("linked applications: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (customers.Application, error) {
		var a customers.Application
		return a, r.Scan(&a.ID, &a.Kind, &a.Status, &a.Tier, &a.RiskLevel, &a.CreatedAt)
	})
}

func linkedAccounts(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, bvn string, limit int) ([]customers.Account, error) {
	if bvn == "" {
		return []customers.Account{}, nil
	}
	rows, err := tx.Query(ctx, `select sender_account_number, count(*)::int, (count(*) filter (where outcome <> 'APPROVE'))::int,
  min(transaction_timestamp), max(transaction_timestamp)
from transactions where tenant_id = $1 and sender_bvn = $2 group by 1 order by 5 desc limit $3`, string(tenantID), bvn, limit)
	if err != nil {
		return nil, fmt.Errorf("linked accounts: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (customers.Account, error) {
		var a customers.Account
		return a, r.Scan(&a.Account, &a.Transactions, &a.Alerts, &a.FirstAt, &a.LastAt)
	})
}

func sanctionsReviews(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, keys []string) ([]customers.SanctionsReview, error) {
	if len(keys) == 0 {
		return []customers.SanctionsReview{}, nil
	}
	rows, err := tx.Query(ctx, `select id::text, subject_key, entry_id, reason, revoked_at is null, created_at from sanctions_false_positives
where tenant_id = $1 and subject_key = any($2) order by created_at desc limit 100`, string(tenantID), keys)
	if err != nil {
		return nil, fmt.Errorf("sanctions reviews: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (customers.SanctionsReview, error) {
		var v customers.SanctionsReview
		return v, r.Scan(&v.ID, &v.SubjectKey, &v.EntryID, &v.Reason, &v.Active, &v.CreatedAt)
	})
}

var errNoRisk = errors.New("customer not rated")

type riskRow struct {
	CustomerID     string     `db:"customer_id"`
	Rating         string     `db:"rating"`
	Score          int        `db:"score"`
	Factors        []byte     `db:"factors"`
	ComputedAt     time.Time  `db:"computed_at"`
	NextReviewAt   time.Time  `db:"next_review_at"`
	LastReviewedAt *time.Time `db:"last_reviewed_at"`
}

const riskColumns = "customer_id, rating, score, factors, computed_at, next_review_at, last_reviewed_at"

func toRisk(r riskRow) (customers.Risk, error) {
	out := customers.Risk{CustomerID: r.CustomerID, Rating: customers.Rating{Rating: r.Rating, Score: r.Score}, ComputedAt: r.ComputedAt,
		NextReviewAt: r.NextReviewAt, LastReviewedAt: r.LastReviewedAt}
	if err := json.Unmarshal(r.Factors, &out.Rating.Factors); err != nil {
		return out, fmt.Errorf("decode risk factors: %w", err)
	}
	return out, nil
}

func getRisk(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string) (customers.Risk, error) {
	rows, err := postgres.Collect[riskRow](ctx, tx, postgres.Psql.Select(riskColumns).From("customer_risk").
		Where(sq.Eq{"tenant_id": string(tenantID), "customer_id": id}))
	if err != nil {
		return customers.Risk{}, fmt.Errorf("read risk: %w", err)
	}
	if len(rows) == 0 {
		return customers.Risk{}, errNoRisk
	}
	return toRisk(rows[0])
}

// Risk implements customers.Store.
func (s *CustomerStore) Risk(ctx context.Context, tenantID tenancy.TenantID, id string) (customers.Risk, error) {
	var r customers.Risk
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := lockProfile(ctx, tx, tenantID, id, false); err != nil {
			return err
		}
		var err error
		r, err = getRisk(ctx, tx, tenantID, id)
		if errors.Is(err, errNoRisk) {
			return postgres.MapErr(pgx.ErrNoRows, "customer risk rating")
		}
		return err
	})
	return r, err
}

// inputs reads what a rating is computed from (customers.Inputs documents each).
func (s *CustomerStore) inputs(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, p postgres.ProfileRow, l customerLinks, now time.Time) (customers.Inputs, error) {
	in := customers.Inputs{Type: p.Type}
	if l.bvnHash != nil {
		err := tx.QueryRow(ctx, `select status, tier from kyc_applications where tenant_id = $1 and bvn_hash = $2
order by created_at desc limit 1`, string(tenantID), l.bvnHash).Scan(&in.KYCStatus, &in.KYCTier)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return in, fmt.Errorf("latest KYC: %w", err)
		}
	}
	if l.rcKey != "" {
		err := tx.QueryRow(ctx, `select status from kyb_applications where tenant_id = $1 and rc_key = $2
order by created_at desc limit 1`, string(tenantID), l.rcKey).Scan(&in.KYBStatus)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return in, fmt.Errorf("latest KYB: %w", err)
		}
	}
	cs, err := linkedCases(ctx, tx, tenantID, l, 1000)
	if err != nil {
		return in, err
	}
	for _, c := range cs {
		in.Cases = append(in.Cases, customers.CaseFact{Type: c.Type, Status: c.Status})
	}
	if l.bvn != "" {
		err := tx.QueryRow(ctx, `select count(*)::int, (count(*) filter (where outcome <> 'APPROVE'))::int,
  (count(*) filter (where coalesce(receiver_country, '') not in ('', 'NG')))::int,
  (count(*) filter (where type in ('DEPOSIT', 'WITHDRAWAL')))::int,
  coalesce(array_agg(distinct upper(receiver_country)) filter (where receiver_country is not null), '{}')
from transactions where tenant_id = $1 and sender_bvn = $2 and transaction_timestamp >= $3`,
			string(tenantID), l.bvn, now.Add(-90*24*time.Hour)).
			Scan(&in.Transactions90d, &in.Alerts90d, &in.CrossBorder90d, &in.Cash90d, &in.Countries)
		if err != nil {
			return in, fmt.Errorf("transaction facts: %w", err)
		}
	}
	return in, nil
}

// Recompute implements customers.Store.
func (s *CustomerStore) Recompute(ctx context.Context, tenantID tenancy.TenantID, id string, rate func(customers.Inputs) customers.Rating,
	p customers.RecomputeParams) (customers.Risk, error) {
	var out customers.Risk
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		row, err := lockProfile(ctx, tx, tenantID, id, true)
		if err != nil {
			return err
		}
		l := s.links(tenantID, row.BVN, row.RCNumber)
		now := p.At.UTC()
		if p.At.IsZero() {
			now = s.db.Now().UTC()
		}
		in, err := s.inputs(ctx, tx, tenantID, row, l, now)
		if err != nil {
			return err
		}
		r := rate(in)
		prev, err := getRisk(ctx, tx, tenantID, id)
		first := errors.Is(err, errNoRisk)
		if err != nil && !first {
			return err
		}
		firstRated, lastReviewed := now, prev.LastReviewedAt
		if !first {
			firstRated = prev.ComputedAt
			if h, err := firstRatedAt(ctx, tx, tenantID, id); err == nil {
				firstRated = h
			}
		}
		if p.Review {
			lastReviewed = &now
		}
		out = customers.Risk{CustomerID: id, Rating: r, ComputedAt: now, LastReviewedAt: lastReviewed,
			NextReviewAt: customers.NextReview(r.Rating, lastReviewed, firstRated)}
		factors, err := json.Marshal(r.Factors)
		if err != nil {
			return fmt.Errorf("encode factors: %w", err)
		}
		if _, err := tx.Exec(ctx, `insert into customer_risk (tenant_id, customer_id, rating, score, factors, bvn_hash, rc_key, computed_at,
  last_reviewed_at, next_review_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
on conflict (tenant_id, customer_id) do update set rating = excluded.rating, score = excluded.score, factors = excluded.factors,
  bvn_hash = excluded.bvn_hash, rc_key = excluded.rc_key, computed_at = excluded.computed_at,
  last_reviewed_at = excluded.last_reviewed_at, next_review_at = excluded.next_review_at`,
			string(tenantID), id, r.Rating, r.Score, factors, l.bvnHash, l.rcKey, now, lastReviewed, out.NextReviewAt); err != nil {
			return fmt.Errorf("save risk: %w", err)
		}
		if _, err := tx.Exec(ctx, `delete from customer_risk_queue where tenant_id = $1 and customer_id = $2`, string(tenantID), id); err != nil {
			return fmt.Errorf("dequeue: %w", err)
		}
		changed := first || prev.Rating.Rating != r.Rating || prev.Rating.Score != r.Score
		if changed {
			var prevRating *string
			if !first {
				prevRating = &prev.Rating.Rating
			}
			if _, err := tx.Exec(ctx, `insert into customer_risk_history (tenant_id, customer_id, rating, previous_rating, score, factors,
  reason, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)`, string(tenantID), id, r.Rating, prevRating, r.Score, factors, p.Reason, now); err != nil {
				return fmt.Errorf("risk history: %w", err)
			}
		}
		if !changed && !p.Review {
			return nil
		}
		action := "customer.risk_rated"
		if p.Review {
			action = "customer.reviewed"
		}
		after := map[string]any{"rating": r.Rating, "score": r.Score, "reason": p.Reason, "nextReviewAt": out.NextReviewAt}
		if p.Note != "" {
			after["note"] = p.Note
		}
		var before any
		if !first {
			before = map[string]any{"rating": prev.Rating.Rating, "score": prev.Rating.Score}
		}
		if err := postgres.InsertAudit(ctx, tx, audit.Event{TenantID: tenantID, Actor: p.Actor, Action: action, ResourceType: "customer",
			ResourceID: id, Before: before, After: after}, now); err != nil {
			return err
		}
		if !first && prev.Rating.Rating != r.Rating {
			return s.db.QueueWebhook(ctx, tx, tenantID, customers.EventRiskChanged, map[string]any{"customerId": id,
				"previousRating": prev.Rating.Rating, "rating": r.Rating, "score": r.Score, "reason": p.Reason})
		}
		return nil
	})
	return out, err
}

// firstRatedAt is the time of the customer's first rating (the start of its review cycle
// until a first review).
func firstRatedAt(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string) (time.Time, error) {
	var t time.Time
	err := tx.QueryRow(ctx, `select created_at from customer_risk_history where tenant_id = $1 and customer_id = $2 order by id limit 1`,
		string(tenantID), id).Scan(&t)
	return t, err
}

// History implements customers.Store.
func (s *CustomerStore) History(ctx context.Context, tenantID tenancy.TenantID, id string, limit int) ([]customers.HistoryEntry, error) {
	out := []customers.HistoryEntry{}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := lockProfile(ctx, tx, tenantID, id, false); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `select id, rating, coalesce(previous_rating, ''), score, factors, reason, created_at
from customer_risk_history where tenant_id = $1 and customer_id = $2 order by id desc limit $3`, string(tenantID), id, limit)
		if err != nil {
			return fmt.Errorf("risk history: %w", err)
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (customers.HistoryEntry, error) {
			var h customers.HistoryEntry
			var hid int64
			var factors []byte
			if err := r.Scan(&hid, &h.Rating.Rating, &h.PreviousRating, &h.Rating.Score, &factors, &h.Reason, &h.CreatedAt); err != nil {
				return h, err
			}
			h.ID = strconv.FormatInt(hid, 10)
			return h, json.Unmarshal(factors, &h.Rating.Factors)
		})
		return err
	})
	return out, err
}

// listColumns: a profile with its rating (NULLs when never rated).
const customerListColumns = `p.id, p.profile_type, p.display_name, p.updated_at, r.rating, r.score, r.factors, r.computed_at,
  r.next_review_at, r.last_reviewed_at`

type customerListRow struct {
	ID             string     `db:"id"`
	Type           string     `db:"profile_type"`
	Name           string     `db:"display_name"`
	UpdatedAt      time.Time  `db:"updated_at"`
	Rating         *string    `db:"rating"`
	Score          *int       `db:"score"`
	Factors        []byte     `db:"factors"`
	ComputedAt     *time.Time `db:"computed_at"`
	NextReviewAt   *time.Time `db:"next_review_at"`
	LastReviewedAt *time.Time `db:"last_reviewed_at"`
}

func toListItem(r customerListRow) (customers.ListItem, error) {
	it := customers.ListItem{ID: r.ID, Type: r.Type, Name: r.Name, UpdatedAt: r.UpdatedAt}
	if r.Rating != nil {
		risk, err := toRisk(riskRow{CustomerID: r.ID, Rating: *r.Rating, Score: *r.Score, Factors: r.Factors, ComputedAt: *r.ComputedAt,
			NextReviewAt: *r.NextReviewAt, LastReviewedAt: r.LastReviewedAt})
		if err != nil {
			return it, err
		}
		it.Risk = &risk
	}
	return it, nil
}

func (s *CustomerStore) page(ctx context.Context, tenantID tenancy.TenantID, where sq.Sqlizer, join, order string, p paging.Params) (paging.Result[customers.ListItem], error) {
	res := paging.Result[customers.ListItem]{Page: p.Page, Limit: p.Limit, Items: []customers.ListItem{}}
	from := "customer_profiles p " + join + " customer_risk r on r.tenant_id = p.tenant_id and r.customer_id = p.id"
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := postgres.Count(ctx, tx, postgres.Psql.Select("count(*)").From(from).Where(where))
		if err != nil {
			return fmt.Errorf("count customers: %w", err)
		}
		res.Total = n
		rows, err := postgres.Collect[customerListRow](ctx, tx, postgres.Psql.Select(customerListColumns).From(from).Where(where).OrderBy(order).
			Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return fmt.Errorf("list customers: %w", err)
		}
		for _, r := range rows {
			it, err := toListItem(r)
			if err != nil {
				return err
			}
			res.Items = append(res.Items, it)
		}
		return nil
	})
	return res, err
}

// Search implements customers.Store: a name fragment (case-insensitive) or an identifier prefix.
func (s *CustomerStore) Search(ctx context.Context, tenantID tenancy.TenantID, f customers.SearchParams, p paging.Params) (paging.Result[customers.ListItem], error) {
	where := sq.And{sq.Eq{"p.tenant_id": string(tenantID)}}
	if isIdentifier(f.Query) {
		// A whole BVN or NIN: equality on each (two index probes, customer_profiles_tenant_bvn_idx
		// and _nin_idx), instead of the pattern scan below over every profile of the tenant.
		// The literal <> '' lets a generic plan use the partial indexes.
		where = append(where, sq.Or{sq.Expr("(p.bvn = ? and p.bvn <> '')", f.Query), sq.Expr("(p.nin = ? and p.nin <> '')", f.Query)})
	} else if f.Query != "" {
		like := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(f.Query)
		where = append(where, sq.Or{sq.ILike{"p.display_name": "%" + like + "%"}, sq.Like{"p.bvn": like + "%"},
			sq.Like{"p.nin": like + "%"}, sq.ILike{"p.rc_number": like + "%"}})
	}
	if f.Rating != "" {
		where = append(where, sq.Eq{"r.rating": f.Rating})
	}
	return s.page(ctx, tenantID, where, "left join", "p.updated_at desc, p.id desc", p)
}

// isIdentifier reports whether q is a whole BVN or NIN (11 digits).
func isIdentifier(q string) bool {
	if len(q) != 11 {
		return false
	}
	for _, r := range q {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// DueReviews implements customers.Store.
func (s *CustomerStore) DueReviews(ctx context.Context, tenantID tenancy.TenantID, now time.Time, p paging.Params) (paging.Result[customers.ListItem], error) {
	where := sq.And{sq.Eq{"p.tenant_id": string(tenantID)}, sq.LtOrEq{"r.next_review_at": now}}
	return s.page(ctx, tenantID, where, "join", "r.next_review_at, p.id", p)
}

// Pending implements customers.Store.
func (s *CustomerStore) Pending(ctx context.Context, tenantID tenancy.TenantID, limit int) (map[string]string, error) {
	out := map[string]string{}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `(select customer_id, reason from customer_risk_queue where tenant_id = $1 order by queued_at limit $2)
union all
(select p.id, 'NEW_PROFILE' from customer_profiles p where p.tenant_id = $1
  and not exists (select 1 from customer_risk r where r.tenant_id = p.tenant_id and r.customer_id = p.id) limit $2)`, string(tenantID), limit)
		if err != nil {
			return fmt.Errorf("pending ratings: %w", err)
		}
		var id, reason string
		_, err = pgx.ForEachRow(rows, []any{&id, &reason}, func() error {
			if _, ok := out[id]; !ok && len(out) < limit {
				out[id] = reason
			}
			return nil
		})
		return err
	})
	return out, err
}

// NotifyDue implements customers.Store: the due customers not yet notified for their current
// due date are marked, each gets a customer.review_due webhook, and every active compliance
// officer one mail and one dashboard notification listing them, all in one transaction.
func (s *CustomerStore) NotifyDue(ctx context.Context, tenantID tenancy.TenantID, now time.Time, limit int) ([]customers.Due, error) {
	var due []customers.Due
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `update customer_risk r set review_notified_for = r.next_review_at from customer_profiles p
where r.tenant_id = $1 and p.tenant_id = r.tenant_id and p.id = r.customer_id and r.next_review_at <= $2
  and r.review_notified_for is distinct from r.next_review_at
  and r.customer_id in (select customer_id from customer_risk where tenant_id = $1 and next_review_at <= $2
    and review_notified_for is distinct from next_review_at order by next_review_at limit $3 for update skip locked)
returning r.customer_id, p.display_name, r.rating, r.next_review_at`, string(tenantID), now, limit)
		if err != nil {
			return fmt.Errorf("mark due reviews: %w", err)
		}
		due, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (customers.Due, error) {
			var d customers.Due
			return d, r.Scan(&d.CustomerID, &d.Name, &d.Rating, &d.NextReviewAt)
		})
		if err != nil || len(due) == 0 {
			return err
		}
		names := make([]string, 0, len(due))
		for _, d := range due {
			names = append(names, fmt.Sprintf("%s (%s, due %s)", d.Name, d.Rating, d.NextReviewAt.Format("2006-01-02")))
			if err := s.db.QueueWebhook(ctx, tx, tenantID, customers.EventReviewDue, map[string]any{"customerId": d.CustomerID,
				"name": d.Name, "rating": d.Rating, "nextReviewAt": d.NextReviewAt}); err != nil {
				return err
			}
		}
		officers, err := postgres.ComplianceOfficers(ctx, tx, tenantID)
		if err != nil {
			return err
		}
		for _, u := range officers {
			m := notify.CustomerReviewDue(u.FirstName, u.Email, names)
			m.TenantID = tenantID
			if err := s.db.QueueEmail(ctx, tx, m); err != nil {
				return err
			}
			if err := postgres.InsertNotification(ctx, tx, notify.Notification{ID: notify.NewNotificationID(), TenantID: tenantID, UserID: u.ID,
				Kind: notify.KindCustomerReviewDue, Title: notify.CustomerReviewsDueTitle(len(due)),
				Message: strings.Join(names, "; "), CreatedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	return due, err
}

// Tenants implements customers.Store.
func (s *CustomerStore) Tenants(ctx context.Context) ([]tenancy.TenantID, error) {
	return s.db.TenantIDs(ctx)
}
