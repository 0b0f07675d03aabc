package sanctions

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ErrBadListFile is wrapped by every parser error: the input is not the
// expected format, is truncated, or holds no entries.
var ErrBadListFile = errors.New("bad sanctions list file")

// ofacNull is the legacy CSV's null marker ("-0- " with a trailing space).
const ofacNull = "-0-"

// ofacEOF is the Ctrl-Z byte every legacy OFAC CSV file ends with; its absence
// means the download was cut short.
const ofacEOF = 0x1A

// ParseOFAC parses the legacy OFAC CSV set: sdn (sdn.csv or cons_prim.csv,
// required), alt (alt.csv, optional, nil to skip) and add (add.csv,
// optional). Entries get ID "ofac-sdn:<ent_num>", List ListOFACSDN and
// ListType SANCTIONS. Individual names ("SURNAME, Given") are put in display
// order ("Given SURNAME"); DOBs, nationalities and weak a.k.a. aliases are read
// from the remarks. Errors wrap ErrBadListFile.
func ParseOFAC(sdn, alt, add io.Reader) ([]Entry, error) {
	if sdn == nil {
		return nil, fmt.Errorf("%w: ofac: sdn file is required", ErrBadListFile)
	}
	rows, err := readOFACCSV(sdn, "sdn", 12)
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, 0, len(rows))
	byNum := make(map[string]int, len(rows))
	for _, r := range rows {
		e := Entry{
			ID:       "ofac-sdn:" + r[0],
			SourceID: r[0],
			List:     ListOFACSDN,
			ListType: ListTypeSanctions,
			Remarks:  ofacField(r[11]),
		}
		switch strings.ToLower(ofacField(r[2])) {
		case "individual":
			e.EntityType = EntityIndividual
		case "vessel":
			e.EntityType = EntityVessel
		case "aircraft":
			e.EntityType = EntityAircraft
		default:
			e.EntityType = EntityBusiness
		}
		e.Name = ofacDisplayName(ofacField(r[1]), e.EntityType)
		if e.Name == "" {
			return nil, fmt.Errorf("%w: ofac sdn: ent_num %s has no name", ErrBadListFile, r[0])
		}
		if p := ofacField(r[3]); p != "" {
			for _, prog := range strings.Split(p, "] [") {
				e.Programs = append(e.Programs, strings.Trim(prog, "[] "))
			}
		}
		parseOFACRemarks(&e)
		byNum[r[0]] = len(entries)
		entries = append(entries, e)
	}
	if alt != nil {
		rows, err := readOFACCSV(alt, "alt", 5)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			i, ok := byNum[r[0]]
			if !ok {
				continue // an alias for an entity not in this sdn file
			}
			name := ofacDisplayName(ofacField(r[3]), entries[i].EntityType)
			if name != "" {
				entries[i].Aliases = append(entries[i].Aliases, Alias{Name: name, Quality: AliasStrong})
			}
		}
	}
	if add != nil {
		rows, err := readOFACCSV(add, "add", 6)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			i, ok := byNum[r[0]]
			if !ok {
				continue
			}
			var parts []string
			for _, f := range r[2:5] {
				if v := ofacField(f); v != "" {
					parts = append(parts, v)
				}
			}
			if len(parts) > 0 {
				entries[i].Addresses = append(entries[i].Addresses, strings.Join(parts, ", "))
			}
			if c := ofacField(r[4]); c != "" && !containsFold(entries[i].Countries, c) {
				entries[i].Countries = append(entries[i].Countries, c)
			}
		}
	}
	return entries, nil
}

// readOFACCSV reads one legacy file, checks its end-of-file marker and
// returns the data rows (first field numeric) with exactly cols fields.
func readOFACCSV(r io.Reader, what string, cols int) ([][]string, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read ofac %s: %w", what, err)
	}
	trimmed := bytes.TrimRight(data, "\r\n \t")
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%w: ofac %s: empty file", ErrBadListFile, what)
	}
	if trimmed[len(trimmed)-1] != ofacEOF {
		return nil, fmt.Errorf("%w: ofac %s: truncated (no 0x1A end-of-file marker)", ErrBadListFile, what)
	}
	cr := csv.NewReader(bytes.NewReader(trimmed[:len(trimmed)-1]))
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	var rows [][]string
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: ofac %s: %v", ErrBadListFile, what, err)
		}
		if _, err := strconv.Atoi(strings.TrimSpace(rec[0])); err != nil {
			continue // the Ctrl-Z line or stray blank lines
		}
		if len(rec) != cols {
			return nil, fmt.Errorf("%w: ofac %s: ent_num %s has %d fields, want %d", ErrBadListFile, what, rec[0], len(rec), cols)
		}
		rec[0] = strings.TrimSpace(rec[0])
		rows = append(rows, rec)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: ofac %s: no entries", ErrBadListFile, what)
	}
	return rows, nil
}

// ofacField trims a field and maps the "-0- " null marker to "".
func ofacField(s string) string {
	s = strings.TrimSpace(s)
	if s == ofacNull {
		return ""
	}
	return s
}

// ofacDisplayName turns an individual's "SURNAME, Given[, Jr.]" into
// "Given SURNAME[ Jr.]". Other names are returned as they are.
func ofacDisplayName(name string, t EntityType) string {
	name = strings.TrimSpace(name)
	if t != EntityIndividual {
		return name
	}
	parts := strings.Split(name, ",")
	if len(parts) < 2 {
		return name
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	out := append([]string{}, parts[1])
	out = append(out, parts[0])
	out = append(out, parts[2:]...)
	return strings.TrimSpace(strings.Join(out, " "))
}

var (
	ofacDOBRe  = regexp.MustCompile(`DOB (?:circa )?((?:\d{1,2} )?(?:[A-Z][a-z]{2} )?\d{4})(?: to ((?:\d{1,2} )?(?:[A-Z][a-z]{2} )?\d{4}))?`)
	ofacNatRe  = regexp.MustCompile(`(?i)\b(?:nationality|citizen) ([A-Za-z][A-Za-z .'-]*?)\s*(?:[;.]|$)`)
	ofacWeakRe = regexp.MustCompile(`a\.k\.a\. '(.+?)'(?:[;.,)]|\s|$)`)
)

// parseOFACRemarks lifts DOBs, nationalities and weak aliases out of Remarks.
func parseOFACRemarks(e *Entry) {
	if e.Remarks == "" {
		return
	}
	for _, m := range ofacDOBRe.FindAllStringSubmatch(e.Remarks, -1) {
		from := ofacDate(m[1])
		if from == "" {
			continue
		}
		if m[2] != "" {
			if to := ofacDate(m[2]); to != "" {
				from = from[:4] + "/" + to[:4]
			}
		}
		if !containsFold(e.DatesOfBirth, from) {
			e.DatesOfBirth = append(e.DatesOfBirth, from)
		}
	}
	for _, m := range ofacNatRe.FindAllStringSubmatch(e.Remarks, -1) {
		if n := strings.TrimSpace(m[1]); n != "" && !containsFold(e.Nationalities, n) {
			e.Nationalities = append(e.Nationalities, n)
		}
	}
	for _, m := range ofacWeakRe.FindAllStringSubmatch(e.Remarks, -1) {
		if n := strings.Trim(strings.TrimSpace(m[1]), "-'"); n != "" {
			e.Aliases = append(e.Aliases, Alias{Name: n, Quality: AliasWeak})
		}
	}
}

// ofacDate turns "02 Jan 1950", "Jan 1950" or "1950" into ISO form.
func ofacDate(s string) string {
	for _, layout := range []string{"02 Jan 2006", "2 Jan 2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format(time.DateOnly)
		}
	}
	if t, err := time.Parse("Jan 2006", s); err == nil {
		return t.Format("2006-01")
	}
	if len(s) >= 4 {
		if _, err := strconv.Atoi(s[len(s)-4:]); err == nil {
			return s[len(s)-4:]
		}
	}
	return ""
}

// containsFold reports whether list holds s, ignoring case.
func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
