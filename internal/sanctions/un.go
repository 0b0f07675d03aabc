package sanctions

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// unList mirrors the parts of the UN consolidated list XML the matcher uses
// (https://www.un.org/sc/resources/sc-sanctions.xsd).
type unList struct {
	XMLName     xml.Name       `xml:"CONSOLIDATED_LIST"`
	Individuals []unIndividual `xml:"INDIVIDUALS>INDIVIDUAL"`
	Entities    []unEntity     `xml:"ENTITIES>ENTITY"`
}

type unCommon struct {
	DataID     string `xml:"DATAID"`
	FirstName  string `xml:"FIRST_NAME"`
	SecondName string `xml:"SECOND_NAME"`
	ThirdName  string `xml:"THIRD_NAME"`
	FourthName string `xml:"FOURTH_NAME"`
	ListType   string `xml:"UN_LIST_TYPE"`
	Reference  string `xml:"REFERENCE_NUMBER"`
	Comments   string `xml:"COMMENTS1"`
}

type unAlias struct {
	Quality string `xml:"QUALITY"`
	Name    string `xml:"ALIAS_NAME"`
}

type unAddress struct {
	Street  string `xml:"STREET"`
	City    string `xml:"CITY"`
	State   string `xml:"STATE_PROVINCE"`
	Country string `xml:"COUNTRY"`
}

type unDOB struct {
	Type     string `xml:"TYPE_OF_DATE"`
	Date     string `xml:"DATE"`
	Year     string `xml:"YEAR"`
	FromYear string `xml:"FROM_YEAR"`
	ToYear   string `xml:"TO_YEAR"`
}

type unIndividual struct {
	unCommon
	Nationalities []string    `xml:"NATIONALITY>VALUE"`
	Aliases       []unAlias   `xml:"INDIVIDUAL_ALIAS"`
	Addresses     []unAddress `xml:"INDIVIDUAL_ADDRESS"`
	DOBs          []unDOB     `xml:"INDIVIDUAL_DATE_OF_BIRTH"`
}

type unEntity struct {
	unCommon
	Aliases   []unAlias   `xml:"ENTITY_ALIAS"`
	Addresses []unAddress `xml:"ENTITY_ADDRESS"`
}

// ParseUN parses the UN Security Council consolidated list XML. Entries get
// ID "un-sc:<DATAID>", List ListUNSC and ListType SANCTIONS; the regime
// (UN_LIST_TYPE) and reference number become Programs. "Low" quality aliases
// are weak. Entity names that join several names with " ; " also get each
// part as a strong alias. Errors wrap ErrBadListFile.
func ParseUN(r io.Reader) ([]Entry, error) {
	var doc unList
	if err := xml.NewDecoder(r).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: un: truncated or empty XML: %v", ErrBadListFile, err)
		}
		return nil, fmt.Errorf("%w: un: %v", ErrBadListFile, err)
	}
	entries := make([]Entry, 0, len(doc.Individuals)+len(doc.Entities))
	for _, in := range doc.Individuals {
		e, err := unEntry(in.unCommon, EntityIndividual, in.Aliases, in.Addresses)
		if err != nil {
			return nil, err
		}
		for _, n := range in.Nationalities {
			if n = strings.TrimSpace(n); n != "" && !containsFold(e.Nationalities, n) {
				e.Nationalities = append(e.Nationalities, n)
			}
		}
		for _, d := range in.DOBs {
			if s := unDate(d); s != "" && !containsFold(e.DatesOfBirth, s) {
				e.DatesOfBirth = append(e.DatesOfBirth, s)
			}
		}
		entries = append(entries, e)
	}
	for _, en := range doc.Entities {
		e, err := unEntry(en.unCommon, EntityBusiness, en.Aliases, en.Addresses)
		if err != nil {
			return nil, err
		}
		if strings.Contains(e.Name, ";") {
			for _, part := range strings.Split(e.Name, ";") {
				if part = strings.TrimSpace(part); part != "" {
					e.Aliases = append(e.Aliases, Alias{Name: part, Quality: AliasStrong})
				}
			}
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%w: un: no INDIVIDUAL or ENTITY records", ErrBadListFile)
	}
	return entries, nil
}

// unEntry builds the fields shared by individuals and entities.
func unEntry(c unCommon, t EntityType, aliases []unAlias, addrs []unAddress) (Entry, error) {
	id := strings.TrimSpace(c.DataID)
	var parts []string
	for _, p := range []string{c.FirstName, c.SecondName, c.ThirdName, c.FourthName} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if id == "" || len(parts) == 0 {
		return Entry{}, fmt.Errorf("%w: un: record %q has no DATAID or name", ErrBadListFile, id)
	}
	e := Entry{
		ID:         "un-sc:" + id,
		SourceID:   id,
		List:       ListUNSC,
		ListType:   ListTypeSanctions,
		EntityType: t,
		Name:       strings.Join(parts, " "),
		Remarks:    strings.TrimSpace(c.Comments),
	}
	for _, p := range []string{c.ListType, c.Reference} {
		if p = strings.TrimSpace(p); p != "" {
			e.Programs = append(e.Programs, p)
		}
	}
	for _, a := range aliases {
		name := strings.TrimSpace(a.Name)
		if name == "" {
			continue
		}
		q := AliasStrong
		if strings.EqualFold(strings.TrimSpace(a.Quality), "Low") {
			q = AliasWeak
		}
		e.Aliases = append(e.Aliases, Alias{Name: name, Quality: q})
	}
	for _, a := range addrs {
		var ps []string
		for _, p := range []string{a.Street, a.City, a.State, a.Country} {
			if p = strings.TrimSpace(p); p != "" {
				ps = append(ps, p)
			}
		}
		if len(ps) > 0 {
			e.Addresses = append(e.Addresses, strings.Join(ps, ", "))
		}
		if c := strings.TrimSpace(a.Country); c != "" && !containsFold(e.Countries, c) {
			e.Countries = append(e.Countries, c)
		}
	}
	return e, nil
}

// unDate renders one INDIVIDUAL_DATE_OF_BIRTH as "YYYY-MM-DD", "YYYY" or
// "YYYY/YYYY": the first of DATE, YEAR and FROM_YEAR/TO_YEAR that is well
// formed, else "". Free text ("circa 1971"), two-digit years or impossible
// dates are dropped rather than stored: the matcher reads the first four
// characters as the year, and an unreadable listed date would count as a
// DOB mismatch against every query.
func unDate(d unDOB) string {
	if s := strings.TrimSpace(d.Date); len(s) >= len(time.DateOnly) {
		if _, err := time.Parse(time.DateOnly, s[:len(time.DateOnly)]); err == nil {
			return s[:len(time.DateOnly)]
		}
	}
	if s := strings.TrimSpace(d.Year); isYear(s) {
		return s
	}
	from, to := strings.TrimSpace(d.FromYear), strings.TrimSpace(d.ToYear)
	if isYear(from) && isYear(to) && from <= to {
		return from + "/" + to
	}
	return ""
}

// isYear reports whether s is four ASCII digits.
func isYear(s string) bool {
	if len(s) != 4 {
		return false
	}
	for i := range 4 {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
