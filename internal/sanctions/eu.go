package sanctions

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ListEUFSF is the name the EU parser gives its list: the EU consolidated list of persons,
// groups and entities subject to EU financial sanctions (Financial Sanctions Files).
const ListEUFSF = "EU-FSF"

// The EU Financial Sanctions Files XML ("xmlFullSanctionsList_1_1", namespace
// http://eu.europa.ec/fpi/fsd/export): one <sanctionEntity> per listed party, its data in
// attributes. Only what screening uses is read (docs/guide/sanctions.md "EU consolidated list").
type euExport struct {
	Entities []euEntity `xml:"sanctionEntity"`
}

type euEntity struct {
	LogicalID   string `xml:"logicalId,attr"`
	EUReference string `xml:"euReferenceNumber,attr"`
	UNReference string `xml:"unitedNationId,attr"`
	Remark      string `xml:"remark"`
	SubjectType struct {
		Code string `xml:"code,attr"` // person, enterprise
	} `xml:"subjectType"`
	Regulations []struct {
		Programme string `xml:"programme,attr"`
	} `xml:"regulation"`
	Names []struct {
		WholeName  string `xml:"wholeName,attr"`
		FirstName  string `xml:"firstName,attr"`
		MiddleName string `xml:"middleName,attr"`
		LastName   string `xml:"lastName,attr"`
		Strong     string `xml:"strong,attr"`
	} `xml:"nameAlias"`
	Citizenships []struct {
		ISO2        string `xml:"countryIso2Code,attr"`
		Description string `xml:"countryDescription,attr"`
	} `xml:"citizenship"`
	Births []struct {
		Date  string `xml:"birthdate,attr"`
		Year  string `xml:"year,attr"`
		Month string `xml:"monthOfYear,attr"`
	} `xml:"birthdate"`
	Addresses []struct {
		Street      string `xml:"street,attr"`
		City        string `xml:"city,attr"`
		Description string `xml:"countryDescription,attr"`
	} `xml:"address"`
}

// ParseEU parses the EU Financial Sanctions Files XML. The first name alias is the primary
// name, the others aliases (weak when the file marks them strong="false"). Errors wrap
// ErrBadListFile.
func ParseEU(r io.Reader) ([]Entry, error) {
	var doc euExport
	if err := xml.NewDecoder(r).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: eu: truncated or empty XML: %v", ErrBadListFile, err)
		}
		return nil, fmt.Errorf("%w: eu: %v", ErrBadListFile, err)
	}
	if len(doc.Entities) == 0 {
		return nil, fmt.Errorf("%w: eu: no sanctionEntity records", ErrBadListFile)
	}
	out := make([]Entry, 0, len(doc.Entities))
	for _, s := range doc.Entities {
		id := strings.TrimSpace(s.LogicalID)
		e := Entry{ID: "eu-fsf:" + id, SourceID: id, List: ListEUFSF, ListType: ListTypeSanctions, EntityType: EntityBusiness,
			Remarks: strings.TrimSpace(s.Remark)}
		if strings.EqualFold(s.SubjectType.Code, "person") {
			e.EntityType = EntityIndividual
		}
		for _, n := range s.Names {
			name := strings.TrimSpace(n.WholeName)
			if name == "" {
				name = strings.Join(strings.Fields(n.FirstName+" "+n.MiddleName+" "+n.LastName), " ")
			}
			if name == "" {
				continue
			}
			if e.Name == "" {
				e.Name = name
				continue
			}
			q := AliasStrong
			if strings.EqualFold(n.Strong, "false") {
				q = AliasWeak
			}
			e.Aliases = append(e.Aliases, Alias{Name: name, Quality: q})
		}
		if id == "" || e.Name == "" {
			return nil, fmt.Errorf("%w: eu: sanctionEntity %q has no logicalId or name", ErrBadListFile, id)
		}
		for _, b := range s.Births {
			switch {
			case b.Date != "":
				e.DatesOfBirth = append(e.DatesOfBirth, b.Date)
			case b.Year != "" && b.Month != "" && b.Month != "0":
				e.DatesOfBirth = append(e.DatesOfBirth, fmt.Sprintf("%s-%02s", b.Year, b.Month))
			case b.Year != "":
				e.DatesOfBirth = append(e.DatesOfBirth, b.Year)
			}
		}
		for _, c := range s.Citizenships {
			if v := firstNonEmpty(c.Description, c.ISO2); v != "" && !strings.EqualFold(v, "UNKNOWN") {
				e.Nationalities = append(e.Nationalities, v)
			}
		}
		for _, a := range s.Addresses {
			if a.Description != "" && !strings.EqualFold(a.Description, "UNKNOWN") {
				e.Countries = append(e.Countries, a.Description)
			}
			if addr := strings.Join(strings.Fields(a.Street+" "+a.City), " "); addr != "" {
				e.Addresses = append(e.Addresses, addr)
			}
		}
		for _, g := range s.Regulations {
			if g.Programme != "" && !containsFold(e.Programs, g.Programme) {
				e.Programs = append(e.Programs, g.Programme)
			}
		}
		out = append(out, e)
	}
	return out, nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
