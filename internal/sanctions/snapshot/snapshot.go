// Package snapshot ships a dated copy of the public sanctions lists with the binary, so that
// `complyd dev` screens against real lists on a fresh clone when the official files cannot be
// downloaded (docs/guide/sanctions.md). `serve` never loads it by itself; an operator imports it
// explicitly with `complyd watchlist import --snapshot`.
//
// The files are gzip -9 -n of, byte for byte, OFAC SDN sdn.csv, alt.csv and add.csv of the
// 2023-12-28 publication (US Government work, public domain; 1.2 MB compressed). The UN Security
// Council Consolidated List is not shipped: it is not public domain (the UN website's terms of
// use apply), so `dev` loads it only when it can be downloaded.
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

// OFACDate is the publication date of the shipped OFAC SDN list.
const OFACDate = "2023-12-28"

var lists = []struct {
	list, format, date string
	files              []string
}{
	{sanctions.ListOFACSDN, sanctions.FormatOFACSDNCSV, OFACDate, []string{"sdn.csv", "alt.csv", "add.csv"}},
}

// Lists decompresses the snapshot (OFAC-SDN).
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

// Describe names the snapshot's lists and dates, for warnings: "OFAC-SDN of 2023-12-28".
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
