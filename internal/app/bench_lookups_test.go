package app

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"
)

func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkDirectLookup measures POST /api/v1/lookup/bvn against the embedded sandbox provider
// over REST on an in-memory server with real PostgreSQL: reserve, provider call, and the one
// transaction that settles the charge, saves the profile and appends the history. "serial" is one
// client; "parallel8" is 8 concurrent clients (throughput). Run: just bench-lookups
func BenchmarkDirectLookup(b *testing.B) {
	s := newTestServer(b, &serverOpts{OwnDB: true})
	f, token := s.tenant()
	s.credit(f, "1000000000", "BENCH-LOOKUPS")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	call := func(i int) time.Duration {
		t0 := time.Now()
		body := fmt.Sprintf(`{"bvn":"222345678%02d"}`, 1+i%20)
		req, _ := http.NewRequest("POST", s.URL+"/api/v1/lookup/bvn", bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := client.Do(req)
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("status %v err %v", res, err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return time.Since(t0)
	}
	b.Run("serial", func(b *testing.B) {
		lat := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			lat = append(lat, call(i))
		}
		b.StopTimer()
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
		reportLatency(b, lat)
	})
	b.Run("parallel8", func(b *testing.B) {
		lat := make([]time.Duration, b.N)
		var wg sync.WaitGroup
		next := make(chan int)
		b.ResetTimer()
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					lat[i] = call(i)
				}
			}()
		}
		for i := 0; i < b.N; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		b.StopTimer()
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
		reportLatency(b, lat)
	})
}
