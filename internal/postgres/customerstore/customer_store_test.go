package customerstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/customers"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/postgres/customerstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// insertProfile saves an individual profile with bvn as the lookups do.
func insertProfile(ctx context.Context, t *testing.T, admin *pgx.Conn, tenant tenancy.TenantID, name, bvn string) string {
	t.Helper()
	id := "cus_" + uuid.NewString()[:12]
	_, err := admin.Exec(ctx, `insert into customer_profiles (id, tenant_id, profile_type, profile_key, display_name, bvn, data, source,
  last_lookup_at, created_at, updated_at) values ($1, $2, 'INDIVIDUAL', 'BVN:' || $4, $3, $4, '{}', 'BVN', now(), now(), now())`,
		id, string(tenant), name, bvn)
	require.NoError(t, err)
	return id
}

// insertScreened stores a screened transaction of the BVN's account with an outcome.
func insertScreened(ctx context.Context, t *testing.T, admin *pgx.Conn, tenant tenancy.TenantID, bvn, outcome, country string) string {
	t.Helper()
	id := uuid.NewString()
	_, err := admin.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_bvn, sender_name, receiver_account_number, receiver_country, transaction_timestamp, verdict_id, outcome,
  risk_level, aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
values ($1::uuid, $2, 'ext-' || $1::text, 'TRANSFER', 'MOBILE', 5000, 'NGN', 5000, '0123456789', $3, 'Sender', '0987654321', $5, now(), 'vrd', $4,
  'LOW', 10, '{}', '[]', 5, now(), now())`, id, string(tenant), bvn, outcome, country)
	require.NoError(t, err)
	return id
}

func queued(ctx context.Context, t *testing.T, admin *pgx.Conn, customerID string) string {
	t.Helper()
	var reason string
	err := admin.QueryRow(ctx, `select reason from customer_risk_queue where customer_id = $1`, customerID).Scan(&reason)
	if err == pgx.ErrNoRows {
		return ""
	}
	require.NoError(t, err)
	return reason
}

// TestCustomerRiskLifecycle: a new profile is rated by the sweep; an approved screening queues
// nothing, an alert and a case queue a recomputation in their own transactions; the PEP case
// raises the rating to HIGH with a history entry; an approved KYC application queues again;
// the due review is notified once (mail to the officer, dashboard notification); a completed
// review moves the next review date; another tenant sees none of it.
func TestCustomerRiskLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	admin := pgtest.Admin(ctx, t)
	f := pgtest.Tenant(ctx, t, db)
	officer := pgtest.User(ctx, t, db, f.ID, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer})
	other := pgtest.Tenant(ctx, t, db)
	bvn := "2" + time.Now().Format("150405") + "1234"
	cid := insertProfile(ctx, t, admin, f.ID, "Amaka Obi", bvn)
	// With a webhook endpoint configured, the rating change and the due review are delivered.
	_, err := admin.Exec(ctx, `insert into webhook_endpoints (tenant_id, url, secret, updated_at) values ($1, 'https://hooks.example.test/x', 's', now())`, string(f.ID))
	require.NoError(t, err)
	events := func() []string {
		rows, err := admin.Query(ctx, `select event from webhook_deliveries where tenant_id = $1 order by created_at, id`, string(f.ID))
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}

	now := time.Now().UTC().Truncate(time.Microsecond)
	clock := now
	svc := customers.NewService(customerstore.NewCustomerStore(db), func() time.Time { return clock })

	// A profile never rated: the sweep rates it (no KYC: 25, MEDIUM).
	_, err = svc.Risk(ctx, f.ID, cid)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
	n, err := svc.Sweep(ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, 1)
	r, err := svc.Risk(ctx, f.ID, cid)
	require.NoError(t, err)
	require.Equal(t, customers.RatingMedium, r.Rating.Rating)
	require.Equal(t, 25, r.Rating.Score)
	require.Equal(t, "IDENTITY_UNVERIFIED", r.Rating.Factors[0].Name)

	// An approved screening queues nothing; an alert queues SCREENING_ALERT.
	insertScreened(ctx, t, admin, f.ID, bvn, "APPROVE", "NG")
	require.Empty(t, queued(ctx, t, admin, cid))
	txID := insertScreened(ctx, t, admin, f.ID, bvn, "REVIEW", "NG")
	require.Equal(t, "SCREENING_ALERT", queued(ctx, t, admin, cid))

	// A PEP case on the alert's transaction (its own transaction, through the case store).
	cs := cases.NewService(postgres.NewCaseStore(db), postgres.NewCaseUsers(db), time.Now)
	_, err = admin.Exec(ctx, `delete from customer_risk_queue where customer_id = $1`, cid)
	require.NoError(t, err)
	c, err := cs.Create(ctx, audit.Caller{TenantID: f.ID, UserID: officer.ID}, cases.NewParams{Type: cases.TypePEPMatch,
		Priority: cases.PriorityHigh, Title: "PEP", Description: "match", RelatedTransactionID: &txID})
	require.NoError(t, err)
	require.Equal(t, "CASE_OPEN", queued(ctx, t, admin, cid))

	_, err = svc.Sweep(ctx)
	require.NoError(t, err)
	require.Empty(t, queued(ctx, t, admin, cid), "the sweep drains the queue")
	r, err = svc.Risk(ctx, f.ID, cid)
	require.NoError(t, err)
	require.Equal(t, customers.RatingHigh, r.Rating.Rating, "a live PEP case is HIGH: %+v", r.Rating.Factors)
	require.Equal(t, 25+30+10+5, r.Rating.Score) // unverified, PEP, one open case, one alert
	hist, err := svc.History(ctx, f.ID, cid)
	require.NoError(t, err)
	require.Len(t, hist, 2)
	require.Equal(t, customers.RatingHigh, hist[0].Rating.Rating)
	require.Equal(t, customers.RatingMedium, hist[0].PreviousRating)
	require.Equal(t, "CASE_OPEN", hist[0].Reason)
	require.Equal(t, customers.ReasonNewProfile, hist[1].Reason)
	require.Contains(t, events(), "customer.risk_changed")
	// HIGH: reviewed a year after the first rating.
	require.WithinDuration(t, hist[1].CreatedAt.Add(365*24*time.Hour), r.NextReviewAt, time.Second)

	// The case resolved as a false positive queues it again.
	_, err = cs.ChangeStatus(ctx, audit.Caller{TenantID: f.ID, UserID: officer.ID}, c.ID, cases.StatusEscalated, "")
	require.NoError(t, err)
	require.Equal(t, "CASE_ESCALATED", queued(ctx, t, admin, cid))

	// An approved KYC application with the BVN queues KYC_APPROVED (matched by the keyed hash).
	_, err = admin.Exec(ctx, `delete from customer_risk_queue where customer_id = $1`, cid)
	require.NoError(t, err)
	insertApp(t, applicationstore.NewKYCStore(db), f.ID, "kyc_"+uuid.NewString()[:8], bvn, kyc.StatusApproved, now)
	require.Equal(t, "KYC_APPROVED", queued(ctx, t, admin, cid))

	// The review falls due: notified once (officer's mail and notification), listed as due.
	clock = now.Add(400 * 24 * time.Hour)
	due, err := svc.DueReviews(ctx, f.ID, paging.Params{Page: 1, Limit: 20})
	require.NoError(t, err)
	require.Equal(t, 1, due.Total)
	require.Equal(t, cid, due.Items[0].ID)
	sent, err := svc.NotifyDue(ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, sent, 1)
	var mails, notes int
	require.NoError(t, admin.QueryRow(ctx, `select count(*) from emails where tenant_id = $1 and kind = 'customer_review_due'`, string(f.ID)).Scan(&mails))
	require.NoError(t, admin.QueryRow(ctx, `select count(*) from notifications where tenant_id = $1 and kind = 'CUSTOMER_REVIEW_DUE'`, string(f.ID)).Scan(&notes))
	require.Equal(t, 1, mails)
	require.Equal(t, 1, notes)
	_, err = svc.NotifyDue(ctx)
	require.NoError(t, err)
	require.NoError(t, admin.QueryRow(ctx, `select count(*) from emails where tenant_id = $1 and kind = 'customer_review_due'`, string(f.ID)).Scan(&mails))
	require.Equal(t, 1, mails, "one notice per due date")
	require.Equal(t, 1, countOf(events(), "customer.review_due"))

	// The review: recomputed (KYC approved now: TIER_1 10 instead of unverified 25), next review a
	// year from the review since the case is still live.
	_, err = svc.CompleteReview(ctx, f.ID, cid, audit.System, " ")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	r, err = svc.CompleteReview(ctx, f.ID, cid, audit.System, "documents checked")
	require.NoError(t, err)
	require.Equal(t, customers.RatingHigh, r.Rating.Rating)
	require.Equal(t, 10+30+10, r.Rating.Score) // the alert is older than 90 days by now
	require.NotNil(t, r.LastReviewedAt)
	require.WithinDuration(t, clock.Add(365*24*time.Hour), r.NextReviewAt, time.Second)
	due, err = svc.DueReviews(ctx, f.ID, paging.Params{Page: 1, Limit: 20})
	require.NoError(t, err)
	require.Zero(t, due.Total)

	// Reports: a CTR drafted for the customer's account, an STR drafted from its case, and one of
	// another customer's account, which the overview leaves out.
	insertReport := func(id, typ, account string, caseID *string, at time.Time) {
		_, err := admin.Exec(ctx, `insert into reports (id, tenant_id, type, status, origin, customer_account, report_day,
  case_id, deadline_at, created_at, updated_at) values ($1, $2, $3, 'DRAFT', 'MANUAL', $4, $5::date, $6, $5, $5, $5)`,
			id, string(f.ID), typ, account, at, caseID)
		require.NoError(t, err)
	}
	var account string
	require.NoError(t, admin.QueryRow(ctx, `select sender_account_number from transactions where id = $1::uuid`, txID).Scan(&account))
	insertReport("rpt_ctr_"+cid, "CTR", account, nil, now.Add(-time.Hour))
	insertReport("rpt_str_"+cid, "STR", "", &c.ID, now)
	insertReport("rpt_other_"+cid, "CTR", "9999999999", nil, now)

	// Overview: the KYC application, the account, the case, the reports.
	o, err := svc.Overview(ctx, f.ID, cid)
	require.NoError(t, err)
	require.Len(t, o.Applications, 1)
	require.Len(t, o.Accounts, 1)
	require.Equal(t, 2, o.Accounts[0].Transactions)
	require.Equal(t, 1, o.Accounts[0].Alerts)
	require.Len(t, o.Cases, 1)
	require.Equal(t, c.ID, o.Cases[0].ID)
	require.Len(t, o.Reports, 2)
	require.Equal(t, "rpt_str_"+cid, o.Reports[0].ID, "newest first")
	require.Equal(t, c.ID, o.Reports[0].CaseID)
	require.Equal(t, "rpt_ctr_"+cid, o.Reports[1].ID)
	require.Equal(t, account, o.Reports[1].Account)

	// Search by name and rating; another tenant sees nothing.
	res, err := svc.Search(ctx, f.ID, customers.SearchParams{Query: "amaka", Rating: customers.RatingHigh}, paging.Params{Page: 1, Limit: 20})
	require.NoError(t, err)
	require.Equal(t, 1, res.Total)
	_, err = svc.Overview(ctx, other.ID, cid)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
	_, err = svc.History(ctx, other.ID, cid)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
}

func countOf(s []string, v string) int {
	n := 0
	for _, x := range s {
		if x == v {
			n++
		}
	}
	return n
}

// TestCustomerRiskCasesQueuedPerStatement: the cases of one multi-row insert (the screening
// commit opens a batch's automatic cases that way) queue each of their customers once, by the
// case's transaction; a related id that is not a UUID, or a transaction of no customer, queues
// nothing and fails nothing (migration 0023).
func TestCustomerRiskCasesQueuedPerStatement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	admin := pgtest.Admin(ctx, t)
	f := pgtest.Tenant(ctx, t, db)
	stamp := time.Now().Format("150405")
	bvnA, bvnB := "3"+stamp+"1111", "4"+stamp+"2222"
	a := insertProfile(ctx, t, admin, f.ID, "Ada Eze", bvnA)
	b := insertProfile(ctx, t, admin, f.ID, "Bola Ade", bvnB)
	txA1, txA2 := insertScreened(ctx, t, admin, f.ID, bvnA, "REVIEW", "NG"), insertScreened(ctx, t, admin, f.ID, bvnA, "REVIEW", "NG")
	txB := insertScreened(ctx, t, admin, f.ID, bvnB, "REVIEW", "NG")
	txNone := insertScreened(ctx, t, admin, f.ID, "5"+stamp+"3333", "REVIEW", "NG")
	_, err := admin.Exec(ctx, `delete from customer_risk_queue where tenant_id = $1`, string(f.ID))
	require.NoError(t, err)

	_, err = admin.Exec(ctx, `insert into cases (id, tenant_id, case_number, type, priority, title, description, status,
  related_transaction_id, created_at, updated_at)
select 'case_' || $1::text || '_' || n, $1::uuid, 'CASE-2099-' || lpad(n::text, 5, '0'), 'AML_ALERT', 'MEDIUM', 't', 'd', 'OPEN', rel, now(), now()
from unnest($2::text[]) with ordinality as u(rel, n)`, string(f.ID), []string{txA1, txA2, txB, txNone, "not-a-uuid"})
	require.NoError(t, err)
	require.Equal(t, "CASE_OPEN", queued(ctx, t, admin, a))
	require.Equal(t, "CASE_OPEN", queued(ctx, t, admin, b))
	var n int
	require.NoError(t, admin.QueryRow(ctx, `select count(*) from customer_risk_queue where tenant_id = $1`, string(f.ID)).Scan(&n))
	require.Equal(t, 2, n, "each customer once")
}

// TestCustomerRiskCaseTriggersReadByKey: opening cases and changing their status, as the
// application role under row-level security, read each case's transaction once, by its primary
// key (counted with pg_stat_xact_user_tables in the writing transaction). 0017's triggers
// compared t.id::text, which no index serves: depending on the plan they read every
// transaction of the customer's BVN per case (25 here, 5 per case) or, joined from the
// transactions side, the tenant's.
func TestCustomerRiskCaseTriggersReadByKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	admin := pgtest.Admin(ctx, t)
	f := pgtest.Tenant(ctx, t, db)
	bvn := "6" + time.Now().Format("150405") + "4444"
	insertProfile(ctx, t, admin, f.ID, "Chi Obi", bvn)
	var ids []string
	for range 5 {
		ids = append(ids, insertScreened(ctx, t, admin, f.ID, bvn, "REVIEW", "NG"))
	}
	_, err := admin.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
  engine_verdicts, total_latency_ms, processed_at, created_at)
select gen_random_uuid(), $1::uuid, 'bulk-' || g || '-' || $1::text, 'TRANSFER', 'MOBILE', 100, 'NGN', 100, '0123456789', 'S', now(), 'v',
  'APPROVE', 'LOW', 0, '{}', '[]', 1, now(), now() from generate_series(1, 3000) g`, string(f.ID))
	require.NoError(t, err)
	// Many customers, as a bank has: joined from the profiles side, each case would read
	// every profile's transactions.
	_, err = admin.Exec(ctx, `insert into customer_profiles (id, tenant_id, profile_type, profile_key, display_name, bvn, data,
  source, last_lookup_at, created_at, updated_at)
select 'cus_' || $1::text || '_' || g, $1::uuid, 'INDIVIDUAL', 'BVN:9' || lpad(g::text, 10, '0'), 'n', '9' || lpad(g::text, 10, '0'),
  '{}', 'BVN', now(), now(), now() from generate_series(1, 3000) g`, string(f.ID))
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `analyze transactions; analyze customer_profiles`)
	require.NoError(t, err)

	tx := pgtest.AsApp(ctx, t, admin, f.ID)
	read := func() int64 { return pgtest.TableReads(ctx, t, tx, "transactions") }
	before := read()
	_, err = tx.Exec(ctx, `insert into cases (id, tenant_id, case_number, type, priority, title, description, status,
  related_transaction_id, created_at, updated_at)
select 'case_' || $1::text || '_k' || n, $1::uuid, 'CASE-2098-' || lpad(n::text, 5, '0'), 'AML_ALERT', 'MEDIUM', 't', 'd', 'OPEN', rel,
  now(), now() from unnest($2::text[]) with ordinality as u(rel, n)`, string(f.ID), ids)
	require.NoError(t, err)
	afterInsert := read()
	require.LessOrEqual(t, afterInsert-before, int64(len(ids)), "opening 5 cases read %d transactions: one each",
		afterInsert-before)
	_, err = tx.Exec(ctx, `update cases set status = 'ESCALATED' where tenant_id = $1 and case_number like 'CASE-2098-%'`, string(f.ID))
	require.NoError(t, err)
	changed := read() - afterInsert
	require.LessOrEqual(t, changed, int64(len(ids)), "changing 5 cases' status read %d transactions: one each", changed)
	var queued int
	require.NoError(t, tx.QueryRow(ctx, `select count(*) from customer_risk_queue where tenant_id = $1`, string(f.ID)).Scan(&queued))
	require.Equal(t, 1, queued, "the customer is queued")
}
