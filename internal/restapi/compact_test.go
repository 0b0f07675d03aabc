package restapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAppendCompact: for valid JSON, appendCompact gives json.Compact's bytes: documents with
// whitespace of every kind between tokens, and strings holding spaces, escaped quotes and
// backslashes, escaped and raw control-free Unicode, and what looks like JSON.
func TestAppendCompact(t *testing.T) {
	t.Parallel()
	docs := []string{
		`{}`, `[]`, `null`, `"a b"`, ` 12 `, "{\n  \"a\" : [ 1 , 2.5e-3 , true , false , null ] ,\t\"b\":{ }\r\n}",
		`{"s": "a \" b", "t": "back\\ slash \\", "u": "\\\" \u00e9 é 中 \ud83d\ude00", "v": "{ \"x\": [ 1, 2 ] }"}`,
		`{"amount": "5000000.00", "actions": [ "GENERATE_CTR", "NOTIFY_OFFICER" ], "caseId": "case_01J"}`,
		`["\\", "\\\\", "\"", " ", "\t"]`,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		docs = append(docs, randomJSON(rng))
	}
	for _, d := range docs {
		var want bytes.Buffer
		require.NoError(t, json.Compact(&want, []byte(d)), "%s", d)
		require.Equal(t, want.String(), string(appendCompact(nil, []byte(d))), "%s", d)
		require.Equal(t, "x"+want.String(), string(appendCompact([]byte("x"), []byte(d))))
	}
}

// randomJSON is a random document indented at random, its strings drawn from characters that
// need care (quotes, backslashes, spaces, tabs, braces).
func randomJSON(rng *rand.Rand) string {
	var value func(depth int) any
	value = func(depth int) any {
		switch k := rng.IntN(6); {
		case depth > 3 || k == 0:
			var sb strings.Builder
			for range rng.IntN(8) {
				sb.WriteString([]string{`"`, `\`, " ", "\t", "{", "]", ",", ":", "a", "é", "\n"}[rng.IntN(11)])
			}
			return sb.String()
		case k == 1:
			return rng.Float64() * 1e6
		case k == 2:
			return rng.IntN(2) == 0
		case k == 3:
			return nil
		case k == 4:
			a := make([]any, rng.IntN(4))
			for i := range a {
				a[i] = value(depth + 1)
			}
			return a
		default:
			m := map[string]any{}
			for i := range rng.IntN(4) {
				m[string(rune('a'+i))+" \"k\""] = value(depth + 1)
			}
			return m
		}
	}
	b, err := json.MarshalIndent(value(0), strings.Repeat(" ", rng.IntN(3)), []string{"  ", "\t", " \r\n"}[rng.IntN(3)])
	if err != nil {
		panic(err)
	}
	return string(b)
}

// BenchmarkEnvelopeCompact compacts a screening answer as protojson writes it (its whitespace
// varied), with json.Compact and with appendCompact, as the envelope does per answer.
//
//	go test ./internal/restapi -run '^$' -bench BenchmarkEnvelopeCompact -benchmem
func BenchmarkEnvelopeCompact(b *testing.B) {
	answer := []byte(`{"transactionId": "01a21dd2-93a4-7beb-96b6-808fe1d72636", "externalId": "bench-1795796364-123456",
 "outcome": "REVIEW", "riskLevel": "MEDIUM", "aggregateScore": 40, "actions": ["NOTIFY_OFFICER", "RETROACTIVE_REVIEW"],
 "engineVerdicts": [{"category": "REGULATORY_COMPLIANCE", "outcome": "APPROVE", "score": 0, "rulesTriggered": [], "latencyMs": 0},
 {"category": "IDENTITY_VERIFICATION", "outcome": "APPROVE", "score": 0, "rulesTriggered": [], "latencyMs": 0},
 {"category": "SANCTIONS_SCREENING", "outcome": "APPROVE", "score": 0, "rulesTriggered": [], "latencyMs": 0},
 {"category": "CUSTOM_RULES", "outcome": "APPROVE", "score": 0, "rulesTriggered": [], "latencyMs": 0},
 {"category": "DECISION_ENGINE", "outcome": "APPROVE", "score": 0, "rulesTriggered": [], "latencyMs": 0},
 {"category": "BEHAVIORAL_ANALYSIS", "outcome": "REVIEW", "score": 50, "rulesTriggered": [{"id": "BEHAV-VELOCITY",
 "name": "Transaction velocity", "details": "12 transactions in the last 60 minutes"}], "latencyMs": 0}],
 "caseId": "case_01KB2X", "totalLatencyMs": 1, "processedAt": "2026-11-27T17:00:00.123456Z"}`)
	out := make([]byte, 0, len(answer))
	b.Run("json.Compact", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf := bytes.NewBuffer(out[:0])
			if err := json.Compact(buf, answer); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("appendCompact", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out = appendCompact(out[:0], answer)
		}
	})
}
