package app

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/sanctions"
)

// BenchmarkSanctionsSearchHTTP: POST /api/v1/sanctions/search at 0.75 from one client against
// OFAC SDN 2023-12-28 + UN 2026-02-27, cycling through the evaluation set's queries; reports
// the per-request p50/p99 (issue 18: p99 under 5 ms).
//
//	go test ./internal/app -run '^$' -bench BenchmarkSanctionsSearchHTTP -benchtime 3000x
func BenchmarkSanctionsSearchHTTP(b *testing.B) {
	entries, err := loadSharedLists("")
	if err != nil {
		b.Skip(err)
	}
	set := findUp(filepath.Join("internal", "sanctions", "testdata", "eval.jsonl"))
	f, err := os.Open(set)
	require.NoError(b, err)
	cases, err := sanctions.LoadEvalSet(f)
	f.Close()
	require.NoError(b, err)

	s := newTestServer(b, &serverOpts{NoGlobalLists: true})
	s.App.Sanctions.Matcher().SetGlobal(map[string][]sanctions.Entry{"ALL": entries})
	_, tok := s.tenant()
	client := &http.Client{}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		body, _ := json.Marshal(map[string]any{"name": cases[i%len(cases)].Query, "threshold": 0.75})
		req, _ := http.NewRequest("POST", s.URL+"/api/v1/sanctions/search", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		cred{Bearer: tok}.apply(req.Header)
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(start))
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1e3 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
