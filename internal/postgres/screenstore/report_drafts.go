package screenstore

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// The automatic drafting of regulatory reports in the screening's own transaction (issue 14,
// docs/guide/reports.md "Drafting"). It costs nothing unless a verdict carries GENERATE_CTR,
// GENERATE_FTR or GENERATE_SAR: then an upsert per (customer, type, day) key, sent with the
// batch's insert in its round trip, that adds the transaction to the day's open draft or starts
// it. The upsert takes the draft's row lock until the batch commits, never a read-modify-write.

// reportActions maps a verdict action to the report it drafts. GENERATE_SAR on a screened
// transaction drafts an STR: the NFIU's report of a suspicious transaction (a SAR, of activity
// without a single transaction, is drafted by hand or from a case without one).
var reportActions = map[string]string{
	rules.ActionGenerateCTR: reports.TypeCTR,
	rules.ActionGenerateFTR: reports.TypeFTR,
	rules.ActionGenerateSAR: reports.TypeSTR,
}

// needsReport reports whether rec's verdict drafts a report (needsEffects counts it as an
// effect, so the screening takes the transactional path).
func needsReport(rec *screening.Record) bool {
	for _, a := range rec.Result.Actions {
		if _, ok := reportActions[a]; ok {
			return true
		}
	}
	return false
}

// draftKey is one upsert: a transaction added to a (customer, type, day) draft.
type draftKey struct {
	req      *saveReq
	typ      string
	customer string
	day      time.Time
	rules    []string
}

// ruleIDsFor returns the triggered rules of res that carry action (the mandatory rules'
// actions), or every triggered AML rule when none does (a custom rule's action).
func ruleIDsFor(res screening.Result, action string) []string {
	var out, all []string
	for _, t := range res.TriggeredRules {
		if !strings.HasPrefix(t.ID, "AML-") {
			continue
		}
		all = append(all, t.ID)
		if m, ok := rules.MandatoryRule(t.ID); ok {
			for _, a := range m.Actions {
				if a == action {
					out = append(out, t.ID)
				}
			}
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// upsertDraftsSQL adds each of a batch's transactions to the open draft of its key, or starts
// the draft with the tenant's deadline for the type: one statement for the batch (input arrays
// $2..$11 by ordinality, keys unique within the statement, inserted in the order given so that
// concurrent committers lock drafts in one order), returning per input its draft, whether this
// statement started it (xmax = 0) and the deadline. The rules travel as JSON arrays. It runs
// in the insert's round trip, before the batch knows which of its transactions were stored: an
// input whose transaction row does not exist (a duplicate's id, never inserted) drafts nothing
// and returns no row.
const upsertDraftsSQL = `with input as (
	select i.* from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::text[], $8::text[], $9::text[],
		$10::timestamptz[], $11::int[], $12::uuid[]) with ordinality
		as i(id, typ, customer, name, day, case_id, rules, reason, eod, default_hours, tx_id, ord)
	where exists (select from transactions t where t.tenant_id = $1 and t.id = i.tx_id)
), rep as (
	insert into reports (id, tenant_id, type, status, origin, customer_account, customer_name, report_day, aggregating,
		case_id, rules, reason, deadline_at, created_at, updated_at)
	select i.id, $1, i.typ, 'DRAFT', 'SCREENING', i.customer, i.name, i.day, true, nullif(i.case_id, ''),
		array(select jsonb_array_elements_text(i.rules::jsonb)), i.reason,
		i.eod + coalesce((select case i.typ when 'CTR' then ctr_deadline_hours when 'STR' then str_deadline_hours
			when 'SAR' then sar_deadline_hours else ftr_deadline_hours end from report_settings where tenant_id = $1), i.default_hours)
			* interval '1 hour', $13, $13
	from input i order by i.ord
	on conflict (tenant_id, customer_account, type, report_day) where aggregating do update
		set updated_at = excluded.updated_at, case_id = coalesce(reports.case_id, excluded.case_id),
			rules = array(select distinct x from unnest(reports.rules || excluded.rules) x order by 1)
	returning id, (xmax = 0) as inserted, deadline_at, customer_account, type, report_day
), matched as (
	select i.ord, i.tx_id, rep.id, rep.inserted, rep.deadline_at from rep
	join input i on i.customer = rep.customer_account and i.typ = rep.type and i.day = rep.report_day
), link as (
	insert into report_transactions (tenant_id, report_id, transaction_id, added_at)
	select $1, m.id, m.tx_id, $13 from matched m on conflict do nothing
)
select ord, id, inserted, deadline_at from matched`

// draftPlan is what queueDrafts queued and draftEffects needs: a key per (screening, report
// type) and, once the batch has run, the result of its upsert.
type draftPlan struct {
	keys    []draftKey
	results []draftResult
	at      time.Time
}

type draftResult struct {
	id       string
	inserted bool
	deadline time.Time
}

// queueDrafts queues on b, after reqs' insert and in its round trip, the upserts of the drafts
// that reqs' verdicts call for, and returns their plan (nil when none does). Which of reqs the
// insert stored is not known yet: the statement drafts only those whose transaction row exists
// (a duplicate's or a re-screened record's id was never inserted), and links an STR to the case
// its screening opens (saveReq.newCaseID, assigned ahead).
func (s *ScreeningStore) queueDrafts(b *pgx.Batch, tenant tenancy.TenantID, reqs []*saveReq, now time.Time) (*draftPlan, error) {
	var keys []draftKey
	for _, r := range reqs {
		if !needsReport(r.rec) { // stored or not, the statement decides (below)
			continue
		}
		seen := map[string]bool{}
		for _, a := range r.rec.Result.Actions {
			typ, ok := reportActions[a]
			if !ok || seen[typ] {
				continue
			}
			seen[typ] = true
			keys = append(keys, draftKey{req: r, typ: typ, customer: r.rec.Tx.SenderAccountNumber,
				day: reports.DayOf(r.rec.Tx.Timestamp), rules: ruleIDsFor(r.rec.Result, a)})
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	// One lock order for every committer: concurrent batches upserting the same drafts wait
	// for each other instead of deadlocking.
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.customer != b.customer {
			return a.customer < b.customer
		}
		if a.typ != b.typ {
			return a.typ < b.typ
		}
		return a.day.Before(b.day)
	})
	plan := &draftPlan{keys: keys, results: make([]draftResult, len(keys)), at: now}
	// One statement per round of distinct keys: a draft's key twice in one batch (two of one
	// account's transactions on one day) would be a row the upsert affects twice, so its second
	// transaction goes in the next round's statement, which sees the first's row. Sorted, a
	// key's repeats are next to each other: each goes one round after the one before it.
	var rounds [][]int
	r := 0
	for i, k := range keys {
		if i > 0 && keys[i-1].customer == k.customer && keys[i-1].typ == k.typ && keys[i-1].day.Equal(k.day) {
			r++
		} else {
			r = 0
		}
		if r == len(rounds) {
			rounds = append(rounds, nil)
		}
		rounds[r] = append(rounds[r], i)
	}
	for _, round := range rounds {
		n := len(round)
		ids, typs, customers, names, cases := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		rules, reasons, txIDs := make([]string, n), make([]string, n), make([]string, n)
		days, eods, hours := make([]time.Time, n), make([]time.Time, n), make([]int, n)
		for j, i := range round {
			k := keys[i]
			rec := k.req.rec
			js, err := json.Marshal(postgres.NonNil(k.rules))
			if err != nil {
				return nil, fmt.Errorf("draft reports: %w", err)
			}
			ids[j], typs[j], customers[j], names[j], cases[j] = reports.NewID("rpt_"), k.typ, k.customer, rec.Tx.SenderName, caseIDFor(k)
			rules[j], txIDs[j] = string(js), rec.ID
			reasons[j] = fmt.Sprintf("Drafted by the screening of transaction %s: %s.", rec.Tx.ExternalID, ruleNames(rec.Result, k.rules))
			days[j], eods[j], hours[j] = k.day, reports.EndOfDay(k.day), reports.DefaultDeadlineHours[k.typ]
		}
		txUIDs, err := postgres.ParseUUIDs(txIDs)
		if err != nil {
			return nil, fmt.Errorf("draft reports: %w", err)
		}
		b.Queue(upsertDraftsSQL, string(tenant), ids, typs, customers, names, days, cases, rules, reasons, eods, hours, txUIDs, now).
			Query(func(rows pgx.Rows) error {
				for rows.Next() {
					var ord int64
					var res draftResult
					if err := rows.Scan(&ord, &res.id, &res.inserted, &res.deadline); err != nil {
						return err
					}
					if ord < 1 || int(ord) > n {
						return fmt.Errorf("draft row %d of %d", ord, n)
					}
					plan.results[round[ord-1]] = res
				}
				return rows.Err()
			})
	}
	return plan, nil
}

// draftEffects queues on w the report.created webhook, timeline entry and audit record of each
// draft that plan's upserts started (plan may be nil).
func (s *ScreeningStore) draftEffects(ctx context.Context, w *postgres.Pipelined, tenant tenancy.TenantID, plan *draftPlan) error {
	if plan == nil {
		return nil
	}
	for i, k := range plan.keys {
		res := plan.results[i]
		if !res.inserted {
			continue
		}
		r := &reports.Report{ID: res.id, TenantID: tenant, Type: k.typ, Status: reports.StatusDraft, CustomerAccount: k.customer,
			CaseID: caseIDFor(k), DeadlineAt: res.deadline, TransactionIDs: []string{k.req.rec.ID}}
		if _, err := w.Exec(ctx, `insert into report_events (id, tenant_id, report_id, action, note, created_at)
			values ($1, $2, $3, 'CREATED', 'drafted by screening', $4)`, reports.NewID("revt_"), string(tenant), r.ID, plan.at); err != nil {
			return err
		}
		if err := postgres.InsertAudit(ctx, w, audit.Event{TenantID: tenant, Actor: audit.System, Action: "report.created",
			ResourceType: "report", ResourceID: r.ID, After: reports.Summary(r)}, plan.at); err != nil {
			return err
		}
		if err := s.db.QueueWebhook(ctx, w, tenant, reports.EventReportCreated, reports.Summary(r)); err != nil {
			return err
		}
	}
	return nil
}

// caseIDFor links an STR to the case its screening opens.
func caseIDFor(k draftKey) string {
	if k.typ == reports.TypeSTR {
		return k.req.newCaseID
	}
	return ""
}

func ruleNames(res screening.Result, ids []string) string {
	var names []string
	for _, t := range res.TriggeredRules {
		for _, id := range ids {
			if t.ID == id {
				names = append(names, t.Name)
			}
		}
	}
	if len(names) == 0 {
		return "verdict " + string(res.Outcome)
	}
	return strings.Join(names, ", ")
}
