package sanctions

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// benchQueries is a fixed mix of eval-set queries (positives and negatives).
func benchQueries(b testing.TB) []Query {
	b.Helper()
	f, err := os.Open(evalSetPath)
	require.NoError(b, err)
	defer f.Close()
	cases, err := LoadEvalSet(f)
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(cases), func(i, j int) { cases[i], cases[j] = cases[j], cases[i] })
	qs := make([]Query, len(cases))
	for i, c := range cases {
		qs[i] = Query{Name: c.Query, EntityType: c.EntityType}
	}
	return qs
}

// BenchmarkSearch measures one search over OFAC SDN 2023-12-28 (sdn+alt+add,
// with weak remarks aliases) plus UN 2026-02-27, cycling through the eval
// queries. It reports p50/p99/max per-op latency (target p99 ≤ 200µs on one
// core: go test -bench Search -cpu 1 -run '^$' ./internal/sanctions).
func BenchmarkSearch(b *testing.B) {
	_, idx := realLists(b)
	qs := benchQueries(b)
	lat := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	// The thread's CPU time per search beside the wall time: on the shared
	// machine the wall-clock p99 mostly measures the scheduler.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c0 := threadCPU()
		start := time.Now()
		idx.Search(qs[i%len(qs)])
		lat = append(lat, time.Since(start))
		cpu = append(cpu, threadCPU()-c0)
	}
	b.StopTimer()
	reportLatency(b, lat)
	slices.Sort(cpu)
	b.ReportMetric(float64(cpu[len(cpu)/2].Nanoseconds())/1e3, "cpu-p50-µs")
	b.ReportMetric(float64(cpu[int(0.99*float64(len(cpu)-1))].Nanoseconds())/1e3, "cpu-p99-µs")
}

// threadCPU is the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID).
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1].Nanoseconds())/1e3, "max-µs")
}

// BenchmarkBuildIndex measures loading and indexing the lists: parse OFAC
// sdn+alt+add and UN XML from memory, then NewIndex (target ≤ 2s). It also
// reports the index's retained heap (index-MB: live heap after build minus
// live heap with only the parsed entries) and the total with entries.
func BenchmarkBuildIndex(b *testing.B) {
	dir := sanctionsDataDir(b)
	read := func(rel string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		require.NoError(b, err)
		return data
	}
	sdn, alt, add, un := read(ofacSDNPath), read(ofacAltPath), read(ofacAddPath), read(unPath)
	var idx *Index
	for b.Loop() {
		o, err := ParseOFAC(bytes.NewReader(sdn), bytes.NewReader(alt), bytes.NewReader(add))
		require.NoError(b, err)
		u, err := ParseUN(bytes.NewReader(un))
		require.NoError(b, err)
		idx = NewIndex(append(o, u...))
	}
	b.StopTimer()
	require.Positive(b, idx.Len())

	o, _ := ParseOFAC(bytes.NewReader(sdn), bytes.NewReader(alt), bytes.NewReader(add))
	u, _ := ParseUN(bytes.NewReader(un))
	entries := append(o, u...)
	idx = nil //nolint:wastedassign // drops the benchmark's index before the heap is measured
	base := liveHeap()
	idx = NewIndex(entries)
	withIndex := liveHeap()
	runtime.KeepAlive(entries)
	runtime.KeepAlive(idx)
	b.ReportMetric(float64(withIndex-base)/(1<<20), "index-MB")
	b.ReportMetric(float64(withIndex)/(1<<20), "heap-MB")
	b.ReportMetric(float64(idx.Names()), "names")
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// scaleEntries is n tenant-list parties as BenchmarkWatchlistImport100k's CSV writes them
// (internal/app): three-word names, two given names from a pool of 400 and a surname from 5,000
// with a Zipf distribution, an alias "Given Surname" and one "G. Surname".
func scaleEntries(n int) []Entry {
	syl := []string{"ba", "ko", "ri", "zu", "ne", "ta", "mo", "li", "qa", "fe", "do", "wi", "sa", "gu", "ye", "ho",
		"pa", "ve", "ju", "xi", "ca", "lo", "mi", "te", "ru", "an", "el", "or", "un", "is"}
	rng := rand.New(rand.NewPCG(2, 47))
	word := func() string {
		var b strings.Builder
		for range 2 + rng.IntN(3) {
			b.WriteString(syl[rng.IntN(len(syl))])
		}
		w := b.String()
		return strings.ToUpper(w[:1]) + w[1:]
	}
	given, surnames := make([]string, 400), make([]string, 5000)
	for i := range given {
		given[i] = word()
	}
	for i := range surnames {
		surnames[i] = word()
	}
	zipf := rand.NewZipf(rand.New(rand.NewPCG(2, 48)), 1.1, 2, uint64(len(surnames)-1))
	out := make([]Entry, n)
	for i := range out {
		first, mid, last := given[rng.IntN(len(given))], given[rng.IntN(len(given))], surnames[zipf.Uint64()]
		out[i] = Entry{ID: fmt.Sprintf("e%06d", i), List: "Vendor PEPs", ListType: ListTypePEP, EntityType: EntityIndividual,
			Name: first + " " + mid + " " + last, Aliases: []Alias{{Name: first + " " + last}, {Name: first[:1] + ". " + last}}}
	}
	return out
}

// BenchmarkBuildIndexScale: the index of a 100,000-entry tenant list (300,000 names), the
// import benchmark's rows (scaleEntries); with -benchmem, the build's allocations, which the
// collector works through while other tenants screen.
func BenchmarkBuildIndexScale(b *testing.B) {
	es := scaleEntries(100_000)
	var idx *Index
	cpu0 := processCPU()
	for b.Loop() {
		idx = NewIndex(es)
	}
	b.ReportMetric((processCPU()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(idx.Names()), "names")
}

// processCPU is the CPU time (user and system) the process has used: the build's cost whatever
// the machine's load, where wall time on a shared machine is mostly waiting.
func processCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
