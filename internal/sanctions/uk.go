package sanctions

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ListUK is the name the UK parser gives its list: the UK Sanctions List (FCDO) or, in its older
// layout, the OFSI Consolidated List of Financial Sanctions Targets.
const ListUK = "UK-SANCTIONS"

// ParseUK parses the UK lists' CSV. Both published layouts are read, by column name:
//   - OFSI ConList.csv: a "Last Updated,dd/mm/yyyy" banner row, then Name 6 (the family name),
//     Name 1..5, DOB, Nationality, Country, Group Type, Alias Type, Alias Quality, Regime,
//     Group ID…;
//   - UK Sanctions List CSV: a "Report Date: …" banner, then Unique ID, OFSI Group ID, Name 6,
//     Name 1..5, Name type, Alias strength, Regime Name, Designation Type, Address Country,
//     D.O.B, Nationality(/ies)….
//
// Each row is one name of a designation; rows are grouped by Unique ID (else Group ID). The
// "Primary name" row gives the name (else the first row), the others are aliases, weak when
// their quality or strength is "Low"/"Weak". Dates "dd/mm/yyyy" with 00 for unknown parts
// become YYYY-MM-DD, YYYY-MM or YYYY. Errors wrap ErrBadListFile.
func ParseUK(r io.Reader) ([]Entry, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%w: uk: %v", ErrBadListFile, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	var col map[string]int
	for col == nil {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: uk: no header row with a \"Name 6\" column", ErrBadListFile)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: uk: %v", ErrBadListFile, err)
		}
		for _, h := range rec {
			if strings.EqualFold(strings.TrimSpace(h), "Name 6") {
				col = map[string]int{}
				for i, h := range rec {
					col[strings.ToLower(strings.TrimSpace(h))] = i
				}
			}
		}
	}
	get := func(rec []string, names ...string) string {
		for _, n := range names {
			if i, ok := col[strings.ToLower(n)]; ok && i < len(rec) {
				if v := strings.TrimSpace(rec[i]); v != "" {
					return v
				}
			}
		}
		return ""
	}
	byID := map[string]*Entry{}
	var order []string
	primary := map[string]bool{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: uk: %v", ErrBadListFile, err)
		}
		line, _ := cr.FieldPos(0)
		id := get(rec, "Unique ID", "Group ID", "OFSI Group ID")
		parts := []string{get(rec, "Name 1"), get(rec, "Name 2"), get(rec, "Name 3"), get(rec, "Name 4"), get(rec, "Name 5"), get(rec, "Name 6")}
		name := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
		if name == "" && id == "" {
			continue // a blank or trailing line
		}
		if id == "" || name == "" {
			return nil, fmt.Errorf("%w: uk: line %d has no Group ID/Unique ID or no name", ErrBadListFile, line)
		}
		e, ok := byID[id]
		if !ok {
			e = &Entry{ID: "uk:" + id, SourceID: id, List: ListUK, ListType: ListTypeSanctions, EntityType: EntityBusiness}
			switch t := strings.ToLower(get(rec, "Group Type", "Designation Type")); {
			case strings.HasPrefix(t, "individual"):
				e.EntityType = EntityIndividual
			case strings.HasPrefix(t, "ship"):
				e.EntityType = EntityVessel
			}
			byID[id] = e
			order = append(order, id)
		}
		kind := strings.ToLower(get(rec, "Alias Type", "Name type"))
		quality := strings.ToLower(get(rec, "Alias Quality", "Alias strength"))
		switch {
		case e.Name == "":
			e.Name = name
			primary[id] = strings.HasPrefix(kind, "primary")
		case strings.HasPrefix(kind, "primary") && !primary[id]:
			e.Aliases = append(e.Aliases, Alias{Name: e.Name, Quality: AliasStrong})
			e.Name, primary[id] = name, true
		case name != e.Name && !aliasListed(e.Aliases, name):
			q := AliasStrong
			if quality == "low" || quality == "weak" {
				q = AliasWeak
			}
			e.Aliases = append(e.Aliases, Alias{Name: name, Quality: q})
		}
		if d := ukDate(get(rec, "DOB", "D.O.B")); d != "" && !containsFold(e.DatesOfBirth, d) {
			e.DatesOfBirth = append(e.DatesOfBirth, d)
		}
		if n := get(rec, "Nationality", "Nationality(/ies)"); n != "" && !containsFold(e.Nationalities, n) {
			e.Nationalities = append(e.Nationalities, n)
		}
		if c := get(rec, "Country", "Address Country"); c != "" && !containsFold(e.Countries, c) {
			e.Countries = append(e.Countries, c)
		}
		if g := get(rec, "Regime", "Regime Name"); g != "" && !containsFold(e.Programs, g) {
			e.Programs = append(e.Programs, g)
		}
		if e.Remarks == "" {
			e.Remarks = get(rec, "Other Information")
		}
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("%w: uk: no designations", ErrBadListFile)
	}
	out := make([]Entry, 0, len(order))
	for _, id := range order {
		out = append(out, *byID[id])
	}
	return out, nil
}

func aliasListed(as []Alias, name string) bool {
	for _, a := range as {
		if strings.EqualFold(a.Name, name) {
			return true
		}
	}
	return false
}

// ukDate turns "dd/mm/yyyy" (00 for an unknown day or month) into YYYY-MM-DD, YYYY-MM or YYYY.
func ukDate(s string) string {
	p := strings.Split(s, "/")
	if len(p) != 3 || len(p[2]) != 4 || p[2] == "0000" {
		return ""
	}
	switch {
	case p[1] == "00" || p[1] == "0":
		return p[2]
	case p[0] == "00" || p[0] == "0":
		return fmt.Sprintf("%s-%02s", p[2], p[1])
	}
	return fmt.Sprintf("%s-%02s-%02s", p[2], p[1], p[0])
}
