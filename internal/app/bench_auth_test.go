package app

import (
	"context"
	"io"
	"net/http"
	"sort"
	"testing"
	"time"

	"connectrpc.com/connect"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// BenchmarkMe measures an authenticated read (/auth/me: token check, user+family lookup,
// tenant lookup) over /api/v1 and over Connect (JSON) and gRPC, side by side, through real
// loopback HTTP against real PostgreSQL. Run: just bench-auth
func BenchmarkMe(b *testing.B) {
	s := newTestServer(b, nil)
	_, token := s.tenant()
	ctx := context.Background()
	report := func(b *testing.B, lat []time.Duration) {
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		if len(lat) == 0 {
			return
		}
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
	b.Run("rest", func(b *testing.B) {
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
		lat := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			req, _ := http.NewRequest("GET", s.URL+"/api/v1/auth/me", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := client.Do(req)
			if err != nil || res.StatusCode != 200 {
				b.Fatalf("status %v err %v", res, err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			lat = append(lat, time.Since(t0))
		}
		report(b, lat)
	})
	for _, proto := range []string{"connect", "grpc"} {
		b.Run(proto, func(b *testing.B) {
			c := s.authClient(proto, cred{Bearer: token})
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := c.Me(ctx, connect.NewRequest(&complydv1.MeRequest{})); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			report(b, lat)
		})
	}
}
