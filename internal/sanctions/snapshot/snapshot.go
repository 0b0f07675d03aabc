// Package snapshot ships a dated copy of the public sanctions lists with the binary, so that
// `complyd dev` screens against real lists on a fresh clone when the official files cannot be
// downloaded (docs/sanctions.md). `serve` never loads it by itself; an operator imports it
// explicitly with `complyd watchlist import --snapshot`.
//
// The files are gzip -9 -n of, byte for byte: OFAC SDN sdn.csv, alt.csv and add.csv of the
// 2023-12-28 publication (US Government work, public domain) and the UN Security Council
// Consolidated List generated 2026-02-27 (published by the UN for implementation of sanctions;
// not public domain, see the UN website's terms of use). 1.4 MB compressed.
package snapshot

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"strings"

	"github.com/complyd/complyd/internal/sanctions"
)

//go:embed data/*.gz
var files embed.FS

// List is one list of the snapshot, ready for sanctions.Service.Import.
type List struct {
	List   string
	Format string
	// Date is the list's publication date (YYYY-MM-DD).
	Date  string
	Files []sanctions.SourceFile
}

// Dates of the shipped lists.
const (
	OFACDate = "2023-12-28"
	UNDate   = "2026-02-27"
)

var lists = []struct {
	list, format, date string
	files              []string
}{
	{sanctions.ListOFACSDN, sanctions.FormatOFACSDNCSV, OFACDate, []string{"sdn.csv", "alt.csv", "add.csv"}},
	{sanctions.ListUNSC, sanctions.FormatUNXML, UNDate, []string{"consolidated.xml"}},
}

// Lists decompresses the snapshot: OFAC-SDN then UN-SC.
func Lists() ([]List, error) {
	out := make([]List, 0, len(lists))
	for _, l := range lists {
		sl := List{List: l.list, Format: l.format, Date: l.date}
		for _, name := range l.files {
			data, err := read(name)
			if err != nil {
				return nil, err
			}
			// sdn.snapshot-2023-12-28.csv: the stored version's file names say what it is and
			// its date (sanctions.Service.ListsHealth reports the age from it).
			base, ext, _ := strings.Cut(name, ".")
			sl.Files = append(sl.Files, sanctions.SourceFile{Name: base + ".snapshot-" + l.date + "." + ext, Data: data})
		}
		out = append(out, sl)
	}
	return out, nil
}

// Describe names the snapshot's lists and dates, for warnings: "OFAC-SDN of 2023-12-28, UN-SC of 2026-02-27".
func Describe() string {
	parts := make([]string, 0, len(lists))
	for _, l := range lists {
		parts = append(parts, l.list+" of "+l.date)
	}
	return strings.Join(parts, ", ")
}

func read(name string) ([]byte, error) {
	gz, err := files.ReadFile("data/" + name + ".gz")
	if err != nil {
		return nil, fmt.Errorf("sanctions snapshot %s: %w", name, err)
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("sanctions snapshot %s: %w", name, err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("sanctions snapshot %s: %w", name, err)
	}
	return data, nil
}
