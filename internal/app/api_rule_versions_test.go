package app

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// ruleVersionOut is a RuleVersion over /api/v1.
type ruleVersionOut struct {
	RuleID     string `json:"ruleId"`
	Version    int    `json:"version"`
	Expression string `json:"expression"`
	Score      int    `json:"score"`
	Enabled    bool   `json:"enabled"`
	CreatedBy  string `json:"createdBy"`
}

// TestRuleVersions (issue 53 point 1, docs/design/engines.md "Rule versions"): every change of a custom
// rule is a new immutable version; the answer and the stored verdict name the version that
// fired and the versions that evaluated the transaction; a verdict keeps naming the version it
// was decided with after the rule changed; old versions stay readable, after the rule's
// deletion too, over /api/v1, Connect and gRPC; another tenant's rule is NOT_FOUND.
func TestRuleVersions(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	_, other := s.kycTenant()

	var rule struct {
		ID      string `json:"id"`
		Version int    `json:"version"`
	}
	created := s.rest("POST", "/api/v1/rules", cred{Bearer: admin}, map[string]any{"name": "Large POS",
		"expression": `tx.type == "POS" && ctx.amountNgnKobo >= naira(100000)`, "score": 65, "outcome": "REVIEW"})
	require.Equal(t, http.StatusCreated, created.Status, "%s", created.Raw)
	created.decode(t, &rule)
	require.Equal(t, 1, rule.Version)
	var quiet struct {
		ID string `json:"id"`
	}
	s.rest("POST", "/api/v1/rules", cred{Bearer: admin}, map[string]any{"name": "Never",
		"expression": `tx.amountMinor < 0`, "score": 10, "outcome": "REVIEW"}).decode(t, &quiet)

	type firedRule struct {
		Name        string `json:"name"`
		RuleID      string `json:"ruleId"`
		RuleVersion int    `json:"ruleVersion"`
	}
	screen := func() (id string, fired []firedRule) {
		b := screenBody(ext("ver"), newAccount(), 150_000)
		b["type"], b["channel"] = "POS", "POS_TERMINAL"
		env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, b)
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		var out struct {
			TransactionID  string      `json:"transactionId"`
			TriggeredRules []firedRule `json:"triggeredRules"`
		}
		env.decode(t, &out)
		return out.TransactionID, out.TriggeredRules
	}
	firedVersion := func(rs []firedRule) int {
		for _, r := range rs {
			if r.Name == "Large POS" {
				require.Equal(t, rule.ID, r.RuleID)
				return r.RuleVersion
			}
		}
		t.Fatalf("Large POS did not fire: %+v", rs)
		return 0
	}
	type verdictOut struct {
		Verdict struct {
			RuleVersions   map[string]int `json:"ruleVersions"`
			TriggeredRules []firedRule    `json:"triggeredRules"`
		} `json:"verdict"`
	}
	verdict := func(id string) verdictOut {
		var v verdictOut
		got := s.rest("GET", "/api/v1/transactions/"+id, cred{Bearer: admin}, nil)
		require.Equal(t, http.StatusOK, got.Status, "%s", got.Raw)
		got.decode(t, &v)
		return v
	}

	tx1, fired := screen()
	require.Equal(t, 1, firedVersion(fired))
	v := verdict(tx1)
	require.Equal(t, map[string]int{rule.ID: 1, quiet.ID: 1}, v.Verdict.RuleVersions)
	require.Equal(t, 1, firedVersion(v.Verdict.TriggeredRules))

	// A change is version 2; a PATCH that changes nothing stores no version.
	upd := s.rest("PATCH", "/api/v1/rules/"+rule.ID, cred{Bearer: admin}, map[string]any{"score": 70})
	require.Equal(t, http.StatusOK, upd.Status, "%s", upd.Raw)
	upd.decode(t, &rule)
	require.Equal(t, 2, rule.Version)
	s.rest("PATCH", "/api/v1/rules/"+rule.ID, cred{Bearer: admin}, map[string]any{"score": 70}).decode(t, &rule)
	require.Equal(t, 2, rule.Version)

	// The audit names the versions before and after (JSON numbers).
	var audited bool
	for _, e := range s.audits(admin, "rule.updated").Items {
		if e.ResourceID == rule.ID && e.Before["version"] == float64(1) && e.After["version"] == float64(2) {
			require.EqualValues(t, 65, e.Before["score"])
			require.EqualValues(t, 70, e.After["score"])
			audited = true
		}
	}
	require.True(t, audited)

	tx2, fired := screen()
	require.Equal(t, 2, firedVersion(fired))
	require.Equal(t, map[string]int{rule.ID: 2, quiet.ID: 1}, verdict(tx2).Verdict.RuleVersions)
	// The first verdict still names the version it was decided with.
	require.Equal(t, map[string]int{rule.ID: 1, quiet.ID: 1}, verdict(tx1).Verdict.RuleVersions)

	// Disabling is a version too; a disabled rule does not evaluate, so the verdict omits it.
	s.rest("PATCH", "/api/v1/rules/"+quiet.ID, cred{Bearer: admin}, map[string]any{"enabled": false})
	tx3, _ := screen()
	require.Equal(t, map[string]int{rule.ID: 2}, verdict(tx3).Verdict.RuleVersions)

	var list struct {
		Items []ruleVersionOut `json:"items"`
	}
	s.rest("GET", "/api/v1/rules/"+rule.ID+"/versions", cred{Bearer: admin}, nil).decode(t, &list)
	require.Len(t, list.Items, 2)
	require.Equal(t, []int{2, 1}, []int{list.Items[0].Version, list.Items[1].Version})
	require.Equal(t, 70, list.Items[0].Score)
	var old ruleVersionOut
	s.rest("GET", "/api/v1/rules/"+rule.ID+"/versions/1", cred{Bearer: admin}, nil).decode(t, &old)
	require.Equal(t, 65, old.Score)
	require.Equal(t, `tx.type == "POS" && ctx.amountNgnKobo >= naira(100000)`, old.Expression)
	requireRESTError(t, s.rest("GET", "/api/v1/rules/"+rule.ID+"/versions/3", cred{Bearer: admin}, nil),
		http.StatusNotFound, "NOT_FOUND")
	requireRESTError(t, s.rest("GET", "/api/v1/rules/"+rule.ID+"/versions/1", cred{Bearer: other}, nil),
		http.StatusNotFound, "NOT_FOUND")
	requireRESTError(t, s.rest("GET", "/api/v1/rules/"+rule.ID+"/versions", cred{Bearer: other}, nil),
		http.StatusNotFound, "NOT_FOUND")

	// Deleted, the rule's versions stay readable: old verdicts name them.
	require.Equal(t, http.StatusOK, s.rest("DELETE", "/api/v1/rules/"+rule.ID, cred{Bearer: admin}, nil).Status)
	s.rest("GET", "/api/v1/rules/"+rule.ID+"/versions/1", cred{Bearer: admin}, nil).decode(t, &old)
	require.Equal(t, 65, old.Score)

	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: admin})
		rc := complydv1connect.NewRuleServiceClient(hc, s.URL, opts...)
		got, err := rc.GetRuleVersion(context.Background(), connect.NewRequest(&complydv1.GetRuleVersionRequest{Id: rule.ID, Version: 1}))
		require.NoError(t, err, proto)
		require.Equal(t, int32(65), got.Msg.Score, proto)
		all, err := rc.ListRuleVersions(context.Background(), connect.NewRequest(&complydv1.ListRuleVersionsRequest{Id: rule.ID}))
		require.NoError(t, err, proto)
		require.Len(t, all.Msg.Items, 2, proto)
		_, err = rc.GetRuleVersion(context.Background(), connect.NewRequest(&complydv1.GetRuleVersionRequest{Id: rule.ID, Version: 9}))
		_, info := errorInfo(t, err)
		require.Equal(t, "NOT_FOUND", info.Code, proto)

		tc := complydv1connect.NewTransactionServiceClient(hc, s.URL, opts...)
		tr, err := tc.GetTransaction(context.Background(), connect.NewRequest(&complydv1.GetTransactionRequest{Id: tx1}))
		require.NoError(t, err, proto)
		require.Equal(t, map[string]int32{rule.ID: 1, quiet.ID: 1}, tr.Msg.Verdict.RuleVersions, proto)
		var fired *complydv1.TriggeredRule
		for _, r := range tr.Msg.Verdict.TriggeredRules {
			if r.Name == "Large POS" {
				fired = r
			}
		}
		require.NotNil(t, fired, proto)
		require.Equal(t, int32(1), fired.RuleVersion, proto)
		require.Equal(t, rule.ID, fired.RuleId, proto)
	}
}

// TestRuleVersionsConcurrentChanges: concurrent PATCHes of one rule each store their own
// version (the rule's row is locked while the next version is taken): versions 2..n+1, no gap,
// no duplicate, and the version in force is the last one.
func TestRuleVersionsConcurrentChanges(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	var rule struct {
		ID string `json:"id"`
	}
	s.rest("POST", "/api/v1/rules", cred{Bearer: admin}, map[string]any{"name": "Concurrent",
		"expression": `tx.amountMinor < 0`, "score": 1, "outcome": "REVIEW"}).decode(t, &rule)
	const n = 6
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := range n {
		wg.Go(func() {
			codes[i] = s.rest("PATCH", "/api/v1/rules/"+rule.ID, cred{Bearer: admin}, map[string]any{"score": 10 + i}).Status
		})
	}
	wg.Wait()
	for _, c := range codes {
		require.Equal(t, http.StatusOK, c)
	}
	var list struct {
		Items []ruleVersionOut `json:"items"`
	}
	s.rest("GET", "/api/v1/rules/"+rule.ID+"/versions", cred{Bearer: admin}, nil).decode(t, &list)
	require.Len(t, list.Items, n+1)
	for i, v := range list.Items {
		require.Equal(t, n+1-i, v.Version)
	}
	var cur struct {
		Version int `json:"version"`
		Score   int `json:"score"`
	}
	s.rest("GET", "/api/v1/rules/"+rule.ID, cred{Bearer: admin}, nil).decode(t, &cur)
	require.Equal(t, n+1, cur.Version)
	require.Equal(t, list.Items[0].Score, cur.Score)
}
