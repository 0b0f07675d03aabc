package sanctions

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDumpQueryCost writes, for every eval query searched at the default
// threshold, the least thread CPU time of QUERY_COST_RUNS searches (default
// 5) and the names touched and scored, to $QUERY_COST (one line per query),
// to find the queries of the latency tail and compare two builds query by
// query. Skipped unless QUERY_COST is set.
func TestDumpQueryCost(t *testing.T) {
	path := os.Getenv("QUERY_COST")
	if path == "" {
		t.Skip("set QUERY_COST to a file to write the per-query costs")
	}
	runs := 5
	if v := os.Getenv("QUERY_COST_RUNS"); v != "" {
		_, err := fmt.Sscan(v, &runs)
		require.NoError(t, err)
	}
	_, idx := realLists(t)
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w := bufio.NewWriter(f)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for i, c := range loadEvalCases(t) {
		q := Query{Name: c.Query, EntityType: c.EntityType}
		best := time.Duration(1 << 62)
		for range runs {
			c0 := threadCPU()
			idx.Search(q)
			best = min(best, threadCPU()-c0)
		}
		var st searchStats
		idx.search(q, &st)
		fmt.Fprintf(w, "%d\t%.1f\t%d\t%d\t%d\t%s\t%s\n", i, float64(best.Nanoseconds())/1e3, st.touched, st.scored, st.detail, c.Kind, c.Query)
	}
	require.NoError(t, w.Flush())
}

// BenchmarkSlowQueries searches the eval queries whose indexes $SLOW_IDS
// lists (one a line), to profile the latency tail alone.
func BenchmarkSlowQueries(b *testing.B) {
	path := os.Getenv("SLOW_IDS")
	if path == "" {
		b.Skip("set SLOW_IDS")
	}
	_, idx := realLists(b)
	cases := loadEvalCases(b)
	f, err := os.Open(path)
	require.NoError(b, err)
	var qs []Query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var i int
		_, err := fmt.Sscan(sc.Text(), &i)
		require.NoError(b, err)
		qs = append(qs, Query{Name: cases[i].Query, EntityType: cases[i].EntityType})
	}
	f.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		idx.Search(qs[i%len(qs)])
	}
}
