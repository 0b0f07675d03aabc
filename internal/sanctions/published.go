package sanctions

import (
	"bytes"
	"regexp"
	"time"
)

var (
	datedFile   = regexp.MustCompile(`snapshot-(\d{4}-\d{2}-\d{2})`)
	unGenerated = regexp.MustCompile(`dateGenerated="([^"]+)"`)
)

// publishedAt reads when a list's publisher published its files, zero when they do not say
// (docs/guide/watchlists.md "Freshness"):
//   - a file named *snapshot-YYYY-MM-DD* (the OFAC snapshot shipped with complyd) carries its date;
//   - the UN list's root element has dateGenerated;
//   - an FtM list has its version's time, else the newest last_seen of its entities.
//
// OFAC's CSV files carry no date; the EU, UK and house formats neither (their import time stands in).
func publishedAt(format, sourceVersion string, files []SourceFile) time.Time {
	for _, f := range files {
		if m := datedFile.FindStringSubmatch(f.Name); m != nil {
			if d, err := time.Parse(time.DateOnly, m[1]); err == nil {
				return d
			}
		}
	}
	if len(files) != 1 {
		return time.Time{}
	}
	data := files[0].Data
	switch format {
	case FormatUNXML:
		if m := unGenerated.FindSubmatch(data[:min(len(data), 4096)]); m != nil {
			for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", time.DateOnly} {
				if t, err := time.Parse(layout, string(m[1])); err == nil {
					return t.UTC()
				}
			}
		}
	case FormatFtM:
		if t, ok := FtMVersionTime(sourceVersion); ok {
			return t
		}
		var newest string
		_ = readFtM(bytes.NewReader(data), func(line int, raw []byte) error {
			if e, err := decodeFtM(line, raw); err == nil {
				newest = max(newest, e.LastSeen)
			}
			return nil
		})
		return ftmPublished("", newest)
	}
	return time.Time{}
}

// ftmListType is the type of an FtM list imported by topics: SANCTIONS unless every entry is a PEP.
func ftmListType(entries []Entry) ListType {
	for _, e := range entries {
		if e.ListType != ListTypePEP {
			return ListTypeSanctions
		}
	}
	return ListTypePEP
}
