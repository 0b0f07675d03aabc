package sanctions

import (
	"bytes"
	"errors"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The fuzz targets of the list parsers: every list file an operator imports (or the scheduled
// fetch downloads) goes through them. Seeds are a few real rows of each list under
// testdata/fuzz/<Target>/; `just fuzz` and .ci/run run them through scripts/fuzz.sh.

// dobFormat is the documented shape of Entry.DatesOfBirth.
var dobFormat = regexp.MustCompile(`^\d{4}(-\d{2}(-\d{2})?|/\d{4})?$`)

// parseBudget bounds what one parse may allocate: a fixed slack for the decoders' buffers plus
// a constant factor of the input. A parser that allocates super-linearly in its input (a
// quadratic regex, an alias list rebuilt per row) fails here long before it runs out of memory.
func parseBudget(inputLen int) uint64 { return 8<<20 + 256*uint64(inputLen) }

// allocated returns the bytes fn allocated on the heap.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// checkEntries checks what every parser promises of its entries.
func checkEntries(t *testing.T, es []Entry, idPrefix string) {
	t.Helper()
	if len(es) == 0 {
		t.Fatal("no entries and no error")
	}
	for _, e := range es {
		if e.ID != idPrefix+e.SourceID || strings.TrimSpace(e.SourceID) != e.SourceID || e.SourceID == "" {
			t.Fatalf("entry id %q, source id %q", e.ID, e.SourceID)
		}
		if e.Name == "" || strings.TrimSpace(e.Name) != e.Name {
			t.Fatalf("entry %s: name %q is empty or untrimmed", e.ID, e.Name)
		}
		if e.ListType != ListTypeSanctions {
			t.Fatalf("entry %s: list type %q", e.ID, e.ListType)
		}
		for _, d := range e.DatesOfBirth {
			if !dobFormat.MatchString(d) {
				t.Fatalf("entry %s: date of birth %q is not YYYY-MM-DD, YYYY-MM, YYYY or YYYY/YYYY", e.ID, d)
			}
		}
		for _, a := range e.Aliases {
			if a.Name == "" || (a.Quality != AliasStrong && a.Quality != AliasWeak) {
				t.Fatalf("entry %s: alias %+v", e.ID, a)
			}
		}
	}
}

// FuzzParseOFAC feeds the legacy OFAC CSV set (sdn, alt, add; an empty alt or add is left
// out) through ParseFiles as an import does. Every failure must wrap ErrBadListFile; every
// success keeps ParseOFAC's promises on ids, names, DOB shapes and aliases, yields no more
// entries than the sdn file has lines, and stays within parseBudget.
func FuzzParseOFAC(f *testing.F) {
	f.Add([]byte("36,\"AEROCARIBBEAN AIRLINES\",-0- ,\"CUBA\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n\x1a"), []byte{}, []byte{})
	f.Fuzz(func(t *testing.T, sdn, alt, add []byte) {
		files := []SourceFile{{Name: "sdn.csv", Data: sdn}}
		if len(alt) > 0 {
			files = append(files, SourceFile{Name: "alt.csv", Data: alt})
		}
		if len(add) > 0 {
			files = append(files, SourceFile{Name: "add.csv", Data: add})
		}
		var es []Entry
		var err error
		n := allocated(func() { es, err = ParseFiles(FormatOFACSDNCSV, files) })
		if budget := parseBudget(len(sdn) + len(alt) + len(add)); n > budget {
			t.Fatalf("parse allocated %d bytes, budget %d", n, budget)
		}
		if err != nil {
			if !errors.Is(err, ErrBadListFile) {
				t.Fatalf("error does not wrap ErrBadListFile: %v", err)
			}
			return
		}
		checkEntries(t, es, "ofac-sdn:")
		if lines := bytes.Count(sdn, []byte("\n")) + 1; len(es) > lines {
			t.Fatalf("%d entries from %d lines", len(es), lines)
		}
		for _, e := range es {
			if _, err := strconv.Atoi(e.SourceID); err != nil {
				t.Fatalf("ent_num %q is not a number", e.SourceID)
			}
		}
	})
}

// FuzzParseUN feeds the UN consolidated list XML through ParseFiles. Every failure must wrap
// ErrBadListFile; every success keeps ParseUN's promises and stays within parseBudget.
func FuzzParseUN(f *testing.F) {
	f.Add([]byte(`<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>A</FIRST_NAME></INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var es []Entry
		var err error
		n := allocated(func() { es, err = ParseFiles(FormatUNXML, []SourceFile{{Name: "consolidated.xml", Data: data}}) })
		if budget := parseBudget(len(data)); n > budget {
			t.Fatalf("parse allocated %d bytes, budget %d", n, budget)
		}
		if err != nil {
			if !errors.Is(err, ErrBadListFile) {
				t.Fatalf("error does not wrap ErrBadListFile: %v", err)
			}
			return
		}
		checkEntries(t, es, "un-sc:")
	})
}
