package app

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/complyd/complyd/internal/webhook"
)

// BenchmarkWebhookDelivery measures, over a real PostgreSQL, River and a local HTTP receiver:
//
//   - throughput: b.N case.resolved events queued at once (each in its own transaction, as the
//     stores do), then the time until the receiver has all of them: events/s;
//
//   - latency: 50 cases resolved one at a time through PATCH /api/v1/cases/:id/status, from the
//     moment the PATCH returns to the moment the webhook arrives: p50 and p99.
//
//     go test ./internal/app/ -run '^$' -bench BenchmarkWebhookDelivery -benchtime 2000x
func BenchmarkWebhookDelivery(b *testing.B) {
	s := newTestServer(b, &serverOpts{Workers: true, WebhookBackoff: fastBackoff})
	f, admin := s.tenant()
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
	ctx := context.Background()

	b.Run("throughput", func(b *testing.B) {
		data := map[string]any{"caseId": "case_bench", "status": "RESOLVED_TRUE_POSITIVE"}
		b.ResetTimer()
		start := time.Now()
		var wg sync.WaitGroup
		sem := make(chan struct{}, 8)
		for range b.N {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				if err := s.DB.QueueWebhookForTest(ctx, f.ID, webhook.EventCaseResolved, data); err != nil {
					b.Error(err)
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
