package app

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/sanctions"
)

// evasionCase is a line of internal/sanctions/testdata/evasion.jsonl (the corpus of
// sanctions.TestEvasionCorpus).
type evasionCase struct {
	Kind          string `json:"kind"`
	Query         string `json:"query"`
	ListedName    string `json:"listedName"`
	ExpectEntryID string `json:"expectEntryId"`
}

// evasionSubset returns n cases of the evasion corpus spread over it (every len/n-th line: each
// kind and many listed individuals).
func evasionSubset(t *testing.T, n int) []evasionCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "sanctions", "testdata", "evasion.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var all []evasionCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c evasionCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		all = append(all, c)
	}
	require.NoError(t, sc.Err())
	require.Greater(t, len(all), n)
	out := make([]evasionCase, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, all[i*len(all)/n+i%7])
	}
	return out
}

// missingData skips a test whose shared/data files are absent, on a developer's machine only:
// in CI (CI or COMPLYD_REQUIRE_DATA set, as .ci/run does) the data is part of the checkout and
// its absence fails the test instead of letting it pass unrun.
func missingData(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if os.Getenv("CI") != "" || os.Getenv("COMPLYD_REQUIRE_DATA") != "" {
		tb.Fatalf("required test data missing (CI): "+format, args...)
	}
	tb.Skipf(format, args...)
}

// realListsServer is a test server whose matcher holds OFAC SDN 2023-12-28 and UN 2026-02-27 from
// shared/data/sanctions. Without them the test is skipped, except in CI (CI set), where it fails.
func realListsServer(t *testing.T) *testServer {
	t.Helper()
	entries, err := loadSharedLists("")
	if err != nil {
		missingData(t, "shared lists: %v", err)
	}
	s := newTestServer(t, nil)
	byList := map[string][]sanctions.Entry{}
	for _, e := range entries {
		byList[e.List] = append(byList[e.List], e)
	}
	s.App.Matcher.SetGlobal(byList)
	return s
}

// sanctionsDetails returns the details of a verdict's sanctions rules, one per line.
func sanctionsDetails(rules []struct{ Category, Details string }) string {
	var b strings.Builder
	for _, r := range rules {
		if r.Category == "Global Sanctions Screening" {
			b.WriteString(r.Details + "\n")
		}
	}
	return b.String()
}

// TestScreeningEvasionVariantsAllProtocols (issue 47): a transfer to a listed individual written
// the ways an evader writes a name — lookalike letters of other scripts, invisible characters,
// fullwidth and mathematical letters, odd spaces, leet — is stopped (BLOCK, ESCALATE or REVIEW)
// by the sanctions rule naming the listed entry, over /api/v1, Connect and gRPC, as the honest
// spelling is; a name mixing scripts says so in the verdict and in the search's explanation.
// Before, `Vladimir Putіn` (Cyrillic і) and `Ｖｌａｄｉｍｉｒ Ｐｕｔｉｎ` were APPROVEd with no rule.
func TestScreeningEvasionVariantsAllProtocols(t *testing.T) {
	t.Parallel()
	s := realListsServer(t)
	_, admin := s.kycTenant()
	const putin = "ofac-sdn:35096"
	cases := append([]evasionCase{
		{Kind: "honest", Query: "Vladimir Putin", ExpectEntryID: putin},
		{Kind: "cyrillic-one", Query: "Vladimir Put\u0456n", ExpectEntryID: putin},
		{Kind: "fullwidth", Query: "Ｖｌａｄｉｍｉｒ Ｐｕｔｉｎ", ExpectEntryID: putin},
	}, evasionSubset(t, 60)...)

	for i, c := range cases {
		proto := protocols[i%len(protocols)]
		var outcome, details string
		switch proto {
		case "rest":
			body := screenBody(ext("evade"), "0123456789", 5_000)
			body["receiverName"] = c.Query
			out, env := s.screen(admin, body)
			require.True(t, env.Success, "%s", env.Raw)
			outcome = out.Outcome
			var rs []struct{ Category, Details string }
			for _, r := range out.TriggeredRules {
				rs = append(rs, struct{ Category, Details string }{r.Category, r.Details})
			}
			details = sanctionsDetails(rs)
		default:
			hc, opts := s.clientOpts(proto, cred{Bearer: admin})
			tc := complydv1connect.NewTransactionServiceClient(hc, s.URL, opts...)
			res, err := tc.ScreenTransaction(context.Background(), connect.NewRequest(&complydv1.ScreenTransactionRequest{
				ExternalId: ext("evade-" + proto), Type: "TRANSFER", Channel: "API", Amount: 5_000,
				SenderAccountNumber: "0123456789", SenderBvn: strp("22212345678"), SenderName: "Ada Obi",
				ReceiverName: strp(c.Query), Timestamp: time.Now().UTC().Format(time.RFC3339)}))
			require.NoError(t, err, "%s %+q", proto, c.Query)
			outcome = res.Msg.Outcome
			var rs []struct{ Category, Details string }
			for _, r := range res.Msg.TriggeredRules {
				rs = append(rs, struct{ Category, Details string }{r.Category, r.Details})
			}
			details = sanctionsDetails(rs)
		}
		require.Contains(t, []string{"BLOCK", "ESCALATE", "REVIEW"}, outcome, "%s %s %+q", proto, c.Kind, c.Query)
		require.Contains(t, details, "Receiver name", "%s %s %+q", proto, c.Kind, c.Query)
		require.Contains(t, details, "entry "+c.ExpectEntryID+",", "%s %s %+q: %s", proto, c.Kind, c.Query, details)
		if c.Query == "Vladimir Put\u0456n" {
			require.Contains(t, details, "written with lookalike characters", proto)
		}
		if c.Kind == "honest" || c.Kind == "fullwidth" {
			require.NotContains(t, details, "lookalike", "%s %+q", proto, c.Query)
		}
	}

	// The search says it too, over /api/v1, Connect and gRPC.
	ms := s.search(cred{Bearer: admin}, map[string]any{"name": "Vladimir Put\u0456n"})
	require.NotEmpty(t, ms)
	require.Equal(t, putin, ms[0].EntryID)
	require.Contains(t, ms[0].Explanation, "written with lookalike characters")
	require.NotContains(t, s.search(cred{Bearer: admin}, map[string]any{"name": "Vladimir Putin"})[0].Explanation, "lookalike")
	for _, proto := range []string{"connect", "grpc"} {
		res, err := s.sanctionsClient(proto, cred{Bearer: admin}).Search(context.Background(),
			connect.NewRequest(&complydv1.SearchRequest{Name: "Vladimir Put\u0456n"}))
		require.NoError(t, err, proto)
		require.NotEmpty(t, res.Msg.Matches, proto)
		require.Equal(t, putin, res.Msg.Matches[0].EntryId, proto)
		require.Contains(t, res.Msg.Matches[0].Explanation, "written with lookalike characters", proto)
	}
}
