package app

import (
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/complyd/complyd/internal/webhook"
)

// BenchmarkWebhookDelivery measures, over a real PostgreSQL, River and a local HTTP receiver:
//
//   - throughput: b.N cases resolved through the API by 8 clients at once (each resolution queues
//     its case.resolved event in its own transaction), then the time until the receiver has all
//     of them: events/s, API calls included;
//
//   - latency: 50 cases resolved one at a time through PATCH /api/v1/cases/:id/status, from the
//     moment the PATCH returns to the moment the webhook arrives: p50 and p99.
//
//     go test ./internal/app/ -run '^$' -bench BenchmarkWebhookDelivery -benchtime 2000x
func BenchmarkWebhookDelivery(b *testing.B) {
	s := newTestServer(b, &serverOpts{Workers: true, WebhookBackoff: fastBackoff})
	_, admin := s.tenant()
	var mu sync.Mutex
	arrived := map[string]time.Time{}
	got := make(chan struct{}, 1<<16)
	rc := newReceiver(b, "bench", nil)
	rc.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(webhook.HeaderEventID)
		mu.Lock()
		arrived[id] = time.Now()
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		got <- struct{}{}
	})
	s.setWebhook(admin, rc.URL, rc.secret)
	b.Run("throughput", func(b *testing.B) {
		// Open and escalate the cases first, so that the timed part is the resolutions.
		ids := make([]string, b.N)
		for i := range ids {
			var c caseJSON
			s.rest("POST", "/api/v1/cases", cred{Bearer: admin}, newCaseBody).decode(b, &c)
			s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: admin}, map[string]any{"status": "ESCALATED"}).decode(b, &c)
			ids[i] = c.ID
		}
		b.ResetTimer()
		start := time.Now()
		var wg sync.WaitGroup
		sem := make(chan struct{}, 8)
		for _, id := range ids {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				env := s.rest("PATCH", "/api/v1/cases/"+id+"/status", cred{Bearer: admin},
					map[string]any{"status": "RESOLVED_FALSE_POSITIVE", "resolutionNote": "ok"})
				if !env.Success {
					b.Errorf("resolve: %s", env.Raw)
				}
			}()
		}
		wg.Wait()
		for range b.N {
			<-got
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
	})

	b.Run("resolve-to-arrival", func(b *testing.B) {
		const n = 50
		lat := make([]time.Duration, 0, n)
		for range n {
			var c caseJSON
			s.rest("POST", "/api/v1/cases", cred{Bearer: admin}, newCaseBody).decode(b, &c)
			s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: admin}, map[string]any{"status": "ESCALATED"}).decode(b, &c)
			s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: admin}, map[string]any{"status": "RESOLVED_FALSE_POSITIVE", "resolutionNote": "ok"}).decode(b, &c)
			resolved := time.Now()
			<-got
			mu.Lock()
			var last time.Time
			for _, t := range arrived {
				if t.After(last) {
					last = t
				}
			}
			mu.Unlock()
			lat = append(lat, last.Sub(resolved))
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[n/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[n*99/100].Microseconds())/1000, "p99-ms")
	})
}
