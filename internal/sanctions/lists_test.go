package sanctions

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// sanctionsDataDir walks up from the test's working directory until it finds
// shared/data/sanctions (the repo may be /work/main or /work/wt/<x>).
func sanctionsDataDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	require.NoError(tb, err)
	for {
		cand := filepath.Join(dir, "shared", "data", "sanctions")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			missingData(tb, "shared/data/sanctions not found above the working directory; the real list files are needed for this test")
		}
		dir = parent
	}
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

func openData(tb testing.TB, rel string) *os.File {
	tb.Helper()
	f, err := os.Open(filepath.Join(sanctionsDataDir(tb), rel))
	require.NoError(tb, err)
	tb.Cleanup(func() { f.Close() })
	return f
}

// Default evaluation lists (the README of ../shared/data/sanctions, beside the checkout).
const (
	ofacSDNPath = "ofac_sdn/2023-12-28/sdn.csv"
	ofacAltPath = "ofac_sdn/2023-12-28/alt.csv"
	ofacAddPath = "ofac_sdn/2023-12-28/add.csv"
	unPath      = "un_sc/2026-02-27/consolidated.xml"
)

func loadOFAC(tb testing.TB) []Entry {
	tb.Helper()
	es, err := ParseOFAC(openData(tb, ofacSDNPath), openData(tb, ofacAltPath), openData(tb, ofacAddPath))
	require.NoError(tb, err)
	return es
}

func loadUN(tb testing.TB) []Entry {
	tb.Helper()
	es, err := ParseUN(openData(tb, unPath))
	require.NoError(tb, err)
	return es
}

var (
	realOnce    sync.Once
	realEntries []Entry
	realIndex   *Index
)

// realLists returns OFAC SDN 2023-12-28 (sdn+alt+add) plus UN 2026-02-27 and
// their index, parsed once per test binary. Callers must not modify them.
func realLists(tb testing.TB) ([]Entry, *Index) {
	tb.Helper()
	sanctionsDataDir(tb) // skip before the Once if the data is absent
	realOnce.Do(func() {
		realEntries = append(loadOFAC(tb), loadUN(tb)...)
		realIndex = NewIndex(realEntries)
	})
	return realEntries, realIndex
}
