package sanctions

import (
	"bytes"
	"fmt"
	"strings"
)

// Formats of global list files beyond OFAC and UN (docs/guide/sanctions.md, docs/guide/watchlists.md).
const (
	FormatEUXML = "eu-fsf-xml" // EU Financial Sanctions Files XML (ParseEU)
	FormatUKCSV = "uk-csv"     // UK Sanctions List / OFSI consolidated list CSV (ParseUK)
	FormatCSV   = "csv"        // the house CSV: any list, e.g. a PEP list (ParseRows)
	FormatJSONL = "jsonl"      // the house JSON Lines (ParseRows)
)

// parseMoreFormats parses one file of the formats above. A house-format file with a bad row fails
// whole, naming the first bad rows with their lines.
func parseMoreFormats(format string, files []SourceFile) ([]Entry, error) {
	if len(files) != 1 {
		return nil, fmt.Errorf("%w: %s takes exactly one file", ErrBadListFile, format)
	}
	data := files[0].Data
	switch format {
	case FormatEUXML:
		return ParseEU(bytes.NewReader(data))
	case FormatUKCSV:
		return ParseUK(bytes.NewReader(data))
	}
	rows, n, errs := ParseRows(strings.ToUpper(format), data)
	if len(errs) > 0 {
		var b strings.Builder
		for i, e := range errs {
			if i == 5 {
				fmt.Fprintf(&b, "; and %d more", len(errs)-5)
				break
			}
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "line %d", e.Line)
			if e.Field != "" {
				fmt.Fprintf(&b, " %s", e.Field)
			}
			fmt.Fprintf(&b, ": %s", e.Message)
		}
		return nil, fmt.Errorf("%w: %s: %s", ErrBadListFile, format, b.String())
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: %s: no rows", ErrBadListFile, format)
	}
	seen := map[string]int{}
	for _, r := range rows {
		if ref := r.Entry.Reference; ref != "" {
			if first, ok := seen[ref]; ok {
				return nil, fmt.Errorf("%w: %s: line %d reference: %q is also on line %d", ErrBadListFile, format, r.Line, ref, first)
			}
			seen[ref] = r.Line
		}
	}
	// The list and type are set by Import; ids become "<list>:<reference or line-N>".
	return RowsToEntries("", "", rows), nil
}
