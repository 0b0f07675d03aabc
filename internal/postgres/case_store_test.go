package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

type caseBundle struct {
	ctx     context.Context
	db      *postgres.DB
	store   *postgres.CaseStore
	svc     *cases.Service
	tenant  pgtest.TenantFixture
	officer audit.Caller
	analyst audit.Caller
}

func setupCases(t *testing.T) *caseBundle {
	t.Helper()
	ctx := context.Background()
	db := pgtest.DB(t)
	f := pgtest.Tenant(ctx, t, db)
	officer := pgtest.User(ctx, t, db, f.ID, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer})
	analyst := pgtest.User(ctx, t, db, f.ID, &pgtest.UserOpts{Role: auth.RoleAnalyst})
	store := postgres.NewCaseStore(db)
	return &caseBundle{ctx: ctx, db: db, store: store, tenant: f,
		svc:     cases.NewService(store, postgres.NewCaseUsers(db), func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }),
		officer: audit.Caller{TenantID: f.ID, UserID: officer.ID},
		analyst: audit.Caller{TenantID: f.ID, UserID: analyst.ID}}
}

func newCaseParams(title string) cases.NewParams {
	return cases.NewParams{Type: cases.TypeAMLAlert, Priority: cases.PriorityHigh, Title: title, Description: "flagged", Tags: []string{"a"}}
}

// wantMoves is docs/design/design-choices.md §5 typed independently of internal/cases.
var wantMoves = map[string][]string{
	"OPEN":                    {"IN_PROGRESS", "ESCALATED"},
	"IN_PROGRESS":             {"PENDING_REVIEW", "ESCALATED"},
	"PENDING_REVIEW":          {"IN_PROGRESS", "ESCALATED", "RESOLVED_TRUE_POSITIVE", "RESOLVED_FALSE_POSITIVE"},
	"ESCALATED":               {"IN_PROGRESS", "PENDING_REVIEW", "RESOLVED_TRUE_POSITIVE", "RESOLVED_FALSE_POSITIVE"},
	"RESOLVED_TRUE_POSITIVE":  {"CLOSED", "IN_PROGRESS"},
	"RESOLVED_FALSE_POSITIVE": {"CLOSED", "IN_PROGRESS"},
	"CLOSED":                  {},
}

// pathTo is a legal route from OPEN to each status.
var pathTo = map[string][]string{
	"OPEN":                    {},
	"IN_PROGRESS":             {"IN_PROGRESS"},
	"PENDING_REVIEW":          {"IN_PROGRESS", "PENDING_REVIEW"},
	"ESCALATED":               {"ESCALATED"},
	"RESOLVED_TRUE_POSITIVE":  {"ESCALATED", "RESOLVED_TRUE_POSITIVE"},
	"RESOLVED_FALSE_POSITIVE": {"ESCALATED", "RESOLVED_FALSE_POSITIVE"},
	"CLOSED":                  {"ESCALATED", "RESOLVED_TRUE_POSITIVE", "CLOSED"},
}

func needsNote(s string) bool {
	return s == "RESOLVED_TRUE_POSITIVE" || s == "RESOLVED_FALSE_POSITIVE" || s == "CLOSED"
}

// TestCaseStatusMatrix runs every from × to pair against PostgreSQL: allowed moves persist with
// a STATUS_CHANGED event (and need a resolution note when resolving or closing); forbidden ones
// are 409 INVALID_STATUS_TRANSITION {from, to, allowed} and change nothing.
func TestCaseStatusMatrix(t *testing.T) {
	t.Parallel()
	b := setupCases(t)
	all := []string{"OPEN", "IN_PROGRESS", "PENDING_REVIEW", "ESCALATED", "RESOLVED_TRUE_POSITIVE", "RESOLVED_FALSE_POSITIVE", "CLOSED"}
	for _, from := range all {
		for _, to := range all {
			t.Run(from+"->"+to, func(t *testing.T) {
				t.Parallel()
				c, err := b.svc.Create(b.ctx, b.analyst, newCaseParams(from+"->"+to))
				require.NoError(t, err)
				for _, s := range pathTo[from] {
					_, err := b.svc.ChangeStatus(b.ctx, b.officer, c.ID, s, "note for "+s)
					require.NoError(t, err)
				}
				before, err := b.store.Events(b.ctx, b.tenant.ID, c.ID)
				require.NoError(t, err)

				allowed := slices.Contains(wantMoves[from], to)
				if allowed && needsNote(to) {
					_, err := b.svc.ChangeStatus(b.ctx, b.officer, c.ID, to, "  ")
					e, ok := apperr.As(err)
					require.True(t, ok, "%v", err)
					require.Equal(t, apperr.Validation, e.Code)
					require.Equal(t, "resolutionNote", e.Details[0].Field)
				}
				got, err := b.svc.ChangeStatus(b.ctx, b.officer, c.ID, to, "the note")
				stored, gerr := b.store.Get(b.ctx, b.tenant.ID, c.ID)
				require.NoError(t, gerr)
				after, eerr := b.store.Events(b.ctx, b.tenant.ID, c.ID)
				require.NoError(t, eerr)
				if !allowed {
					e, ok := apperr.As(err)
					require.True(t, ok, "%v", err)
					require.Equal(t, apperr.InvalidStatusTransition, e.Code)
					data := e.Data
					require.Equal(t, from, data["from"])
					require.Equal(t, to, data["to"])
					require.ElementsMatch(t, wantMoves[from], data["allowed"])
					require.Equal(t, from, stored.Status)
					require.Len(t, after, len(before))
					return
				}
				require.NoError(t, err)
				require.Equal(t, to, got.Status)
				require.Equal(t, to, stored.Status)
				require.Len(t, after, len(before)+1)
				ev := after[len(after)-1]
				require.Equal(t, cases.EventStatusChanged, ev.EventType)
				require.Equal(t, from, *ev.PreviousValue)
				require.Equal(t, to, *ev.NewValue)
				require.Equal(t, b.officer.UserID, ev.ActorID)
				if needsNote(to) {
					require.Equal(t, "the note", stored.ResolutionNote)
					require.NotNil(t, stored.ResolvedAt)
					require.Equal(t, "the note", ev.Metadata["resolutionNote"])
				} else {
					require.Empty(t, stored.ResolutionNote)
					require.Nil(t, stored.ResolvedAt)
				}
			})
		}
	}
}

// TestCaseNumberingConcurrent creates 100 cases at once (manual and automatic mixed): 100
// distinct, consecutive numbers; a creation rolled back gives its number back.
func TestCaseNumberingConcurrent(t *testing.T) {
	t.Parallel()
	b := setupCases(t)
	const n = 100
	numbers := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if i%4 == 0 {
				c, err := b.db.CreateCaseAutomaticForTest(b.ctx, b.tenant.ID, newCaseParams(fmt.Sprint(i)), nil)
				numbers[i], errs[i] = c.CaseNumber, err
				return
			}
			c, err := b.svc.Create(b.ctx, b.analyst, newCaseParams(fmt.Sprint(i)))
			if err == nil {
				numbers[i] = c.CaseNumber
			}
			errs[i] = err
		}()
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	year := time.Now().UTC().Year()
	want := make([]string, n)
	for i := range n {
		want[i] = cases.FormatNumber(year, i+1)
	}
	require.ElementsMatch(t, want, numbers)

	boom := errors.New("screening failed later in its transaction")
	_, err := b.db.CreateCaseAutomaticForTest(b.ctx, b.tenant.ID, newCaseParams("rolled back"), boom)
	require.ErrorIs(t, err, boom)
	_, err = b.svc.Create(b.ctx, b.analyst, cases.NewParams{Type: "NOPE"}) // invalid: takes no number
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	c, err := b.svc.Create(b.ctx, b.analyst, newCaseParams("next"))
	require.NoError(t, err)
	require.Equal(t, cases.FormatNumber(year, n+1), c.CaseNumber)

	// Another tenant numbers from 1.
	other := pgtest.Tenant(b.ctx, t, b.db)
	oc, err := b.db.CreateCaseAutomaticForTest(b.ctx, other.ID, newCaseParams("other"), nil)
	require.NoError(t, err)
	require.Equal(t, cases.FormatNumber(year, 1), oc.CaseNumber)
}

// TestCaseFourEyes: the proposer can neither approve nor reject; another officer can.
func TestCaseFourEyes(t *testing.T) {
	t.Parallel()
	b := setupCases(t)
	c, err := b.svc.Create(b.ctx, b.analyst, newCaseParams("four eyes"))
	require.NoError(t, err)
	p, err := b.svc.Propose(b.ctx, b.officer, c.ID, cases.ProposeParams{Resolution: cases.ResolutionTruePositive, Note: "confirmed fraud"})
	require.NoError(t, err)
	_, err = b.svc.Propose(b.ctx, b.analyst, c.ID, cases.ProposeParams{Resolution: cases.ResolutionFalsePositive, Note: "no"})
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err), "one pending proposal per case")

	_, err = b.svc.ApproveProposal(b.ctx, b.officer, c.ID, p.ID)
	require.Equal(t, apperr.Forbidden, apperr.CodeOf(err))
	_, err = b.svc.RejectProposal(b.ctx, b.officer, c.ID, p.ID, "no")
	require.Equal(t, apperr.Forbidden, apperr.CodeOf(err))

	second := pgtest.User(b.ctx, t, b.db, b.tenant.ID, &pgtest.UserOpts{Role: auth.RoleBankAdmin})
	approver := audit.Caller{TenantID: b.tenant.ID, UserID: second.ID}
	got, err := b.svc.ApproveProposal(b.ctx, approver, c.ID, p.ID)
	require.NoError(t, err)
	require.Equal(t, cases.StatusResolvedTruePositive, got.Status)
	require.Equal(t, "confirmed fraud", got.ResolutionNote)
	_, err = b.svc.ApproveProposal(b.ctx, approver, c.ID, p.ID)
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err))

	evs, err := b.store.Events(b.ctx, b.tenant.ID, c.ID)
	require.NoError(t, err)
	var types []string
	for _, e := range evs {
		types = append(types, e.EventType)
	}
	require.Equal(t, []string{"CASE_CREATED", "STATUS_CHANGED", "STATUS_CHANGED", "RESOLUTION_PROPOSED", "RESOLUTION_APPROVED", "STATUS_CHANGED"}, types)

	// Reject returns the case to IN_PROGRESS.
	c2, err := b.svc.Create(b.ctx, b.analyst, newCaseParams("rejected"))
	require.NoError(t, err)
	p2, err := b.svc.Propose(b.ctx, b.analyst, c2.ID, cases.ProposeParams{Resolution: cases.ResolutionFalsePositive, Note: "benign"})
	require.NoError(t, err)
	got, err = b.svc.RejectProposal(b.ctx, b.officer, c2.ID, p2.ID, "needs more work")
	require.NoError(t, err)
	require.Equal(t, cases.StatusInProgress, got.Status)
	props, err := b.store.Proposals(b.ctx, b.tenant.ID, c2.ID)
	require.NoError(t, err)
	require.Equal(t, cases.ProposalRejected, props[0].Status)
	require.Equal(t, "needs more work", props[0].Reason)
}

// TestCaseAssignAndTenancy: active same-tenant user ok; inactive 400; other tenant's user and
// other tenant's case 404.
func TestCaseAssignAndTenancy(t *testing.T) {
	t.Parallel()
	b := setupCases(t)
	c, err := b.svc.Create(b.ctx, b.analyst, newCaseParams("assign"))
	require.NoError(t, err)

	got, err := b.svc.Assign(b.ctx, b.officer, c.ID, b.analyst.UserID)
	require.NoError(t, err)
	require.Equal(t, b.analyst.UserID, *got.AssignedTo)

	inactive := pgtest.User(b.ctx, t, b.db, b.tenant.ID, &pgtest.UserOpts{Inactive: true})
	_, err = b.svc.Assign(b.ctx, b.officer, c.ID, inactive.ID)
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))

	other := pgtest.Tenant(b.ctx, t, b.db)
	_, err = b.svc.Assign(b.ctx, b.officer, c.ID, other.AdminID)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))

	_, err = b.svc.Get(b.ctx, other.ID, c.ID)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
	_, err = b.svc.ChangeStatus(b.ctx, audit.Caller{TenantID: other.ID, UserID: other.AdminID}, c.ID, cases.StatusInProgress, "")
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))

	page, err := b.svc.List(b.ctx, b.tenant.ID, cases.ListParams{AssigneeID: b.analyst.UserID})
	require.NoError(t, err)
	require.Equal(t, 1, page.Total)
	page, err = b.svc.List(b.ctx, b.tenant.ID, cases.ListParams{AssigneeID: "not-a-uuid"})
	require.NoError(t, err)
	require.Equal(t, 0, page.Total)
}

// TestCaseAutomaticNotifies: automatic creation queues an email and a dashboard notification for
// every active COMPLIANCE_OFFICER, and nobody else; CASE_CREATED has no actor.
func TestCaseAutomaticNotifies(t *testing.T) {
	t.Parallel()
	b := setupCases(t)
	pgtest.User(b.ctx, t, b.db, b.tenant.ID, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer, Inactive: true})
	second := pgtest.User(b.ctx, t, b.db, b.tenant.ID, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer})
	c, err := b.db.CreateCaseAutomaticForTest(b.ctx, b.tenant.ID, newCaseParams("auto"), nil)
	require.NoError(t, err)

	evs, err := b.store.Events(b.ctx, b.tenant.ID, c.ID)
	require.NoError(t, err)
	require.Len(t, evs, 1)
	require.Equal(t, cases.EventCaseCreated, evs[0].EventType)
	require.Empty(t, evs[0].ActorID)
	require.Equal(t, true, evs[0].Metadata["automatic"])

	ns := postgres.NewNotificationStore(b.db)
	for _, uid := range []string{b.officer.UserID, second.ID} {
		res, err := ns.List(b.ctx, b.tenant.ID, uid, true, pagingParams())
		require.NoError(t, err)
		require.Equal(t, 1, res.Total)
		require.Equal(t, c.ID, *res.Items[0].CaseID)
	}
	res, err := ns.List(b.ctx, b.tenant.ID, b.analyst.UserID, false, pagingParams())
	require.NoError(t, err)
	require.Zero(t, res.Total)
	require.Equal(t, 2, countEmails(t, b.db, b.tenant.ID, "case_created"))
}

func countEmails(t *testing.T, db *postgres.DB, tenantID tenancy.TenantID, kind string) int {
	t.Helper()
	var n int
	ctx := context.Background()
	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenantID)); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `select count(*) from emails where tenant_id = $1 and kind = $2`, string(tenantID), kind).Scan(&n)
	}))
	return n
}

func pagingParams() paging.Params { return paging.Params{Page: 1, Limit: 20} }

// TestCaseListIsOnePage: the case list answers paging.Result with the page it read, the limit it
// used (a limit above 100 clamped), the total of the tenant's matching cases and their number
// of pages; a page past the end is empty with the same totals.
func TestCaseListIsOnePage(t *testing.T) {
	t.Parallel()
	b := setupCases(t)
	var ids []string
	for i := range 5 {
		c, err := b.svc.Create(b.ctx, b.analyst, newCaseParams(fmt.Sprint("page ", i)))
		require.NoError(t, err)
		ids = append(ids, c.ID)
	}
	other := setupCases(t) // another tenant's case is not counted
	_, err := other.svc.Create(other.ctx, other.analyst, newCaseParams("elsewhere"))
	require.NoError(t, err)

	res, err := b.svc.List(b.ctx, b.tenant.ID, cases.ListParams{Sort: "OLDEST", Page: 2, Limit: 2})
	require.NoError(t, err)
	require.Equal(t, 5, res.Total)
	require.Equal(t, 2, res.Page)
	require.Equal(t, 2, res.Limit)
	require.Equal(t, 3, res.TotalPages())
	require.Equal(t, ids[2:4], []string{res.Items[0].ID, res.Items[1].ID})

	res, err = b.svc.List(b.ctx, b.tenant.ID, cases.ListParams{Page: 4, Limit: 1000})
	require.NoError(t, err)
	require.Equal(t, paging.Result[cases.Case]{Items: []cases.Case{}, Total: 5, Page: 4, Limit: cases.MaxLimit}, res)
}
