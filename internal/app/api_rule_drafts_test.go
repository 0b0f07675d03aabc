package app

import (
	"context"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

type ruleDraftOut struct {
	ID               string `json:"id"`
	RuleID           string `json:"ruleId"`
	BaseVersion      int    `json:"baseVersion"`
	Status           string `json:"status"`
	CreatedBy        string `json:"createdBy"`
	PublishedBy      string `json:"publishedBy"`
	PublishReason    string `json:"publishReason"`
	PublishedVersion int    `json:"publishedVersion"`
	Shadowing        bool   `json:"shadowing"`
	FourEyesRequired bool   `json:"fourEyesRequired"`
}

type comparisonOut struct {
	Evaluated       int  `json:"evaluated"`
	Flagged         int  `json:"flagged"`
	LiveFlagged     int  `json:"liveFlagged"`
	Overlap         int  `json:"overlap"`
	DraftOnly       int  `json:"draftOnly"`
	LiveOnly        int  `json:"liveOnly"`
	WouldOpenCases  int  `json:"wouldOpenCases"`
	WouldCloseCases int  `json:"wouldCloseCases"`
	ClosesKnown     bool `json:"closesKnown"`
	Examples        []struct {
		TransactionID string `json:"transactionId"`
		Flagged       bool   `json:"flagged"`
		LiveOutcome   string `json:"liveOutcome"`
		DraftOutcome  string `json:"draftOutcome"`
		LiveCase      bool   `json:"liveCase"`
		DraftCase     bool   `json:"draftCase"`
	} `json:"examples"`
}

// TestRuleDraftsMakerCheckerShadow (issue 53 points 2 to 4, docs/guide/rules.md): an officer drafts a
// rule and runs it in shadow; the author cannot publish it (FORBIDDEN over /api/v1, Connect and
// gRPC); the shadow flags a live screening in its report (and the back-test flags it in the same
// shape) while the verdict, the answer, the cases and the reports stay what the live rules made
// them; a second officer publishes with a reason and the rule is live at version 1; a draft of
// a new version replaces it at version 2 and version 1 stays readable; every step is audited
// with its actor; the tenant controls allow a single person or close the direct CRUD; another
// tenant's draft is NOT_FOUND.
func TestRuleDraftsMakerCheckerShadow(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	officerUser, officer := s.userWithRole(f.ID, "COMPLIANCE_OFFICER")
	_, analyst := s.userWithRole(f.ID, "ANALYST")
	_, other := s.kycTenant()
	const expr = `tx.type == "POS" && ctx.amountNgnKobo >= naira(100000)`

	var d ruleDraftOut
	env := s.rest("POST", "/api/v1/rule-drafts", cred{Bearer: officer}, map[string]any{"name": "Large POS",
		"expression": expr, "score": 65, "outcome": "REVIEW"})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	env.decode(t, &d)
	require.Equal(t, "DRAFT", d.Status)
	require.Equal(t, officerUser.ID, d.CreatedBy)
	require.True(t, d.FourEyesRequired)
	requireRESTError(t, s.rest("POST", "/api/v1/rule-drafts", cred{Bearer: officer}, map[string]any{"name": "Bad",
		"expression": `tx.amount >`, "score": 65, "outcome": "REVIEW"}), http.StatusBadRequest, "VALIDATION_ERROR")
	requireRESTError(t, s.rest("POST", "/api/v1/rule-drafts", cred{Bearer: analyst}, map[string]any{"name": "x",
		"expression": expr, "score": 1, "outcome": "REVIEW"}), http.StatusForbidden, "FORBIDDEN")

	// The author may not publish, on any protocol.
	requireRESTError(t, s.rest("POST", "/api/v1/rule-drafts/"+d.ID+"/publish", cred{Bearer: officer},
		map[string]any{"reason": "mine"}), http.StatusForbidden, "FORBIDDEN")
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: officer})
		rc := complydv1connect.NewRuleServiceClient(hc, s.URL, opts...)
		_, err := rc.PublishRuleDraft(context.Background(), connect.NewRequest(&complydv1.PublishRuleDraftRequest{Id: d.ID, Reason: "mine"}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodePermissionDenied, code, proto)
		require.Equal(t, "FORBIDDEN", info.Code, proto)
	}
	// A checker must give a reason.
	requireRESTError(t, s.rest("POST", "/api/v1/rule-drafts/"+d.ID+"/publish", cred{Bearer: admin},
		map[string]any{"reason": ""}), http.StatusBadRequest, "VALIDATION_ERROR")
	requireRESTError(t, s.rest("GET", "/api/v1/rule-drafts/"+d.ID, cred{Bearer: other}, nil), http.StatusNotFound, "NOT_FOUND")

	// Shadow: started, a live screening it flags stays APPROVE with no case and no report.
	env = s.rest("POST", "/api/v1/rule-drafts/"+d.ID+"/shadow", cred{Bearer: officer},
		map[string]any{"endsAt": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	env.decode(t, &d)
	require.True(t, d.Shadowing)
	requireRESTError(t, s.rest("POST", "/api/v1/rule-drafts/"+d.ID+"/shadow", cred{Bearer: officer}, map[string]any{}),
		http.StatusConflict, "CONFLICT")
	var cases struct {
		Total int `json:"total"`
	}
	s.rest("GET", "/api/v1/cases", cred{Bearer: admin}, nil).decode(t, &cases)
	casesBefore, reportsBefore := cases.Total, s.reports(admin, "").Total

	type screened struct {
		TransactionID  string  `json:"transactionId"`
		Outcome        string  `json:"outcome"`
		AggregateScore float64 `json:"aggregateScore"`
		CaseID         *string `json:"caseId"`
		TriggeredRules []struct {
			Name   string `json:"name"`
			RuleID string `json:"ruleId"`
		} `json:"triggeredRules"`
	}
	screen := func(amount float64) screened {
		b := screenBody(ext("shadow"), newAccount(), amount)
		b["type"], b["channel"] = "POS", "POS_TERMINAL"
		env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, b)
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		var out screened
		env.decode(t, &out)
		return out
	}
	hit := screen(150_000)
	require.Equal(t, "APPROVE", hit.Outcome, "the shadow never changes the verdict")
	require.Nil(t, hit.CaseID)
	for _, r := range hit.TriggeredRules {
		require.NotEqual(t, "Large POS", r.Name)
	}
	miss := screen(5_000)
	require.Equal(t, "APPROVE", miss.Outcome)

	var rep comparisonOut
	require.Eventually(t, func() bool {
		rep = comparisonOut{}
		s.rest("GET", "/api/v1/rule-drafts/"+d.ID+"/shadow-report", cred{Bearer: analyst}, nil).decode(t, &rep)
		return rep.Evaluated >= 2
	}, 10*time.Second, 50*time.Millisecond)
	require.Equal(t, 2, rep.Evaluated)
	require.Equal(t, 1, rep.Flagged)
	require.Equal(t, 1, rep.DraftOnly)
	require.Equal(t, 0, rep.Overlap)
	require.Equal(t, 1, rep.WouldOpenCases)
	require.Equal(t, 0, rep.WouldCloseCases)
	require.True(t, rep.ClosesKnown)
	require.Len(t, rep.Examples, 1)
	require.Equal(t, hit.TransactionID, rep.Examples[0].TransactionID)
	require.Equal(t, "APPROVE", rep.Examples[0].LiveOutcome)
	require.Equal(t, "REVIEW", rep.Examples[0].DraftOutcome)
	require.True(t, rep.Examples[0].DraftCase)
	require.False(t, rep.Examples[0].LiveCase)

	// The stored verdict, the cases and the reports are the live rules' alone.
	var stored struct {
		Verdict struct {
			Outcome        string         `json:"outcome"`
			RuleVersions   map[string]int `json:"ruleVersions"`
			TriggeredRules []struct {
				Name string `json:"name"`
			} `json:"triggeredRules"`
		} `json:"verdict"`
	}
	s.rest("GET", "/api/v1/transactions/"+hit.TransactionID, cred{Bearer: admin}, nil).decode(t, &stored)
	require.Equal(t, "APPROVE", stored.Verdict.Outcome)
	require.Empty(t, stored.Verdict.RuleVersions)
	for _, r := range stored.Verdict.TriggeredRules {
		require.NotEqual(t, "Large POS", r.Name)
	}
	s.rest("GET", "/api/v1/cases", cred{Bearer: admin}, nil).decode(t, &cases)
	require.Equal(t, casesBefore, cases.Total)
	require.Equal(t, reportsBefore, s.reports(admin, "").Total)

	// The back-test compares in the same shape on the stored history.
	var bt struct {
		Comparison comparisonOut `json:"comparison"`
	}
	env = s.rest("POST", "/api/v1/rule-drafts/"+d.ID+"/backtest", cred{Bearer: officer}, map[string]any{
		"from": time.Now().Add(-30 * 24 * time.Hour).UTC().Format(time.RFC3339), "to": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	env.decode(t, &bt)
	require.GreaterOrEqual(t, bt.Comparison.Evaluated, 2)
	require.Equal(t, 1, bt.Comparison.Flagged)
	require.Equal(t, 1, bt.Comparison.WouldOpenCases)
	require.False(t, bt.Comparison.ClosesKnown)
	require.Equal(t, hit.TransactionID, bt.Comparison.Examples[0].TransactionID)

	// A second officer publishes with a reason: the rule is live at version 1 and the shadow ends.
	var pub struct {
		Draft ruleDraftOut `json:"draft"`
		Rule  struct {
			ID      string `json:"id"`
			Version int    `json:"version"`
		} `json:"rule"`
	}
	env = s.rest("POST", "/api/v1/rule-drafts/"+d.ID+"/publish", cred{Bearer: admin}, map[string]any{"reason": "shadow week clean"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	env.decode(t, &pub)
	require.Equal(t, "PUBLISHED", pub.Draft.Status)
	require.False(t, pub.Draft.Shadowing)
	require.Equal(t, "shadow week clean", pub.Draft.PublishReason)
	require.Equal(t, 1, pub.Rule.Version)
	requireRESTError(t, s.rest("POST", "/api/v1/rule-drafts/"+d.ID+"/publish", cred{Bearer: admin},
		map[string]any{"reason": "again"}), http.StatusConflict, "CONFLICT")
	live := screen(150_000)
	require.Equal(t, "REVIEW", live.Outcome)
	require.NotNil(t, live.CaseID)

	// A new version, drafted by the admin, published by the officer; version 1 stays readable.
	var d2 ruleDraftOut
	env = s.rest("POST", "/api/v1/rule-drafts", cred{Bearer: admin}, map[string]any{"ruleId": pub.Rule.ID, "name": "Large POS",
		"expression": `tx.type == "POS" && ctx.amountNgnKobo >= naira(1000000)`, "score": 70, "outcome": "REVIEW"})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	env.decode(t, &d2)
	require.Equal(t, 1, d2.BaseVersion)
	s.rest("POST", "/api/v1/rule-drafts/"+d2.ID+"/shadow", cred{Bearer: admin}, map[string]any{}).decode(t, &d2)
	require.True(t, d2.Shadowing)
	closed := screen(150_000)
	require.Equal(t, "REVIEW", closed.Outcome)
	require.Eventually(t, func() bool {
		rep = comparisonOut{}
		s.rest("GET", "/api/v1/rule-drafts/"+d2.ID+"/shadow-report", cred{Bearer: admin}, nil).decode(t, &rep)
		return rep.Evaluated >= 1
	}, 10*time.Second, 50*time.Millisecond)
	require.Equal(t, 1, rep.LiveOnly)
	require.Equal(t, 1, rep.WouldCloseCases, "the new version would not have opened the live rule's case")
	requireRESTError(t, s.rest("POST", "/api/v1/rule-drafts/"+d2.ID+"/publish", cred{Bearer: admin},
		map[string]any{"reason": "mine"}), http.StatusForbidden, "FORBIDDEN")
	env = s.rest("POST", "/api/v1/rule-drafts/"+d2.ID+"/publish", cred{Bearer: officer}, map[string]any{"reason": "fewer false positives"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	env.decode(t, &pub)
	require.Equal(t, 2, pub.Rule.Version)
	var old ruleVersionOut
	s.rest("GET", "/api/v1/rules/"+pub.Rule.ID+"/versions/1", cred{Bearer: analyst}, nil).decode(t, &old)
	require.Equal(t, expr, old.Expression)
	require.Equal(t, 65, old.Score)

	// Every step audited with its actor.
	for action, actor := range map[string]string{"rule.draft_created": officerUser.ID, "rule.draft_shadow_started": officerUser.ID,
		"rule.draft_published": officerUser.ID, "rule.created": "", "rule.updated": officerUser.ID} {
		q := "/api/v1/audit-events?action=" + action
		if actor != "" {
			q += "&actorId=" + actor
		}
		var page auditPage
		s.rest("GET", q, cred{Bearer: admin}, nil).decode(t, &page)
		require.Positive(t, page.Total, action)
	}

	// Controls: a single person may publish their own draft; drafts required closes the CRUD.
	env = s.rest("PATCH", "/api/v1/tenants/me/rule-controls", cred{Bearer: admin}, map[string]any{"singlePerson": true, "draftsRequired": true})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/rule-controls", cred{Bearer: officer}, map[string]any{"singlePerson": false}),
		http.StatusForbidden, "FORBIDDEN")
	var d3 ruleDraftOut
	s.rest("POST", "/api/v1/rule-drafts", cred{Bearer: admin}, map[string]any{"name": "Solo", "expression": `tx.amountMinor < 0`,
		"score": 5, "outcome": "REVIEW"}).decode(t, &d3)
	require.False(t, d3.FourEyesRequired)
	env = s.rest("POST", "/api/v1/rule-drafts/"+d3.ID+"/publish", cred{Bearer: admin}, map[string]any{"reason": "one officer"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	requireRESTError(t, s.rest("POST", "/api/v1/rules", cred{Bearer: admin}, map[string]any{"name": "Direct",
		"expression": `tx.amountMinor < 0`, "score": 5, "outcome": "REVIEW"}), http.StatusConflict, "CONFLICT")
	requireRESTError(t, s.rest("PATCH", "/api/v1/rules/"+pub.Rule.ID, cred{Bearer: admin}, map[string]any{"score": 1}),
		http.StatusConflict, "CONFLICT")
	var all struct {
		Items []ruleDraftOut `json:"items"`
	}
	s.rest("GET", "/api/v1/rule-drafts?status=PUBLISHED", cred{Bearer: analyst}, nil).decode(t, &all)
	require.Len(t, all.Items, 3)
	s.rest("GET", "/api/v1/rule-drafts", cred{Bearer: other}, nil).decode(t, &all)
	require.Empty(t, all.Items)
}
