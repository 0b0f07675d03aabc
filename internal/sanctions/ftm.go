package sanctions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// FollowTheMoney (FtM) is the entity format OpenSanctions publishes (and yente and Marble
// consume): one JSON entity a line, {id, caption, schema, properties: {name: [...], ...}},
// relations (Sanction, Ownership, Family, ...) as entities of their own that point to others
// by id. docs/guide/watchlists.md "FollowTheMoney" says how it maps to complyd's entries.
const (
	FormatFtM = "ftm" // FtM entities (entities.ftm.json): a full list
	// ListOpenSanctions is the default name of a list imported in FtM.
	ListOpenSanctions = "OPENSANCTIONS"
)

// ftmEntity is one FtM entity as published.
type ftmEntity struct {
	ID         string              `json:"id"`
	Caption    string              `json:"caption"`
	Schema     string              `json:"schema"`
	Properties map[string][]string `json:"properties"`
	LastSeen   string              `json:"last_seen"`
	LastChange string              `json:"last_change"`
}

func (e *ftmEntity) props(names ...string) []string {
	var out []string
	for _, n := range names {
		for _, v := range e.Properties[n] {
			if v = strings.TrimSpace(v); v != "" && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// ftmThings are the schemata screened as parties, with their entity type. Every other schema
// (Sanction, Ownership, Family, Directorship, Address, Passport, Identification, ...) is not a
// party: Sanction and Address are attached to the party they name, the rest are skipped.
var ftmThings = map[string]EntityType{
	"Person": EntityIndividual, "Organization": EntityBusiness, "Company": EntityBusiness, "LegalEntity": EntityBusiness,
	"PublicBody": EntityBusiness, "Vessel": EntityVessel, "Airplane": EntityAircraft,
}

// ftmIdentifiers are the identifier properties kept in an entry's remarks (the matcher screens
// names; an analyst reads the identifiers).
var ftmIdentifiers = []string{"idNumber", "passportNumber", "innCode", "taxNumber", "registrationNumber", "ogrnCode",
	"vatCode", "leiCode", "swiftBic", "imoNumber", "mmsi", "icaoCode", "registrationNumber"}

// FtMListType maps an entity's topics to a list type: any sanction topic (sanction, but not
// sanction.linked or sanction.counter) is SANCTIONS; role.pep or role.rca (a close associate)
// is PEP; debarment, crime.*, poi, wanted, export.control, sanction.linked, reg.* and the
// rest are INTERNAL (screened and scored like a sanctions hit, docs/guide/sanctions.md). An entity
// without any topic is "" (not a screening target: a linked registry record; skipped).
func FtMListType(topics []string) ListType {
	var pep, other bool
	for _, t := range topics {
		switch {
		case t == "sanction":
			return ListTypeSanctions
		case t == "role.pep" || t == "role.rca":
			pep = true
		case t != "":
			other = true
		}
	}
	switch {
	case pep:
		return ListTypePEP
	case other:
		return ListTypeInternal
	}
	return ""
}

// ftmSet is a parsed FtM document: its parties (by FtM id, in file order) and the relation
// entities that add to them.
type ftmSet struct {
	things    []*ftmEntity
	sanctions map[string][]*ftmEntity // by the id of the entity they name
	addresses map[string]*ftmEntity   // by id
	// lastSeen is the newest last_seen/last_change of the document (its publication time).
	lastSeen string
}

// readFtM reads FtM entities one line at a time; a line that is not an entity fails with its
// line number.
func readFtM(r io.Reader, each func(line int, raw []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20) // one entity may hold thousands of names
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		if err := each(line, raw); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: ftm: line %d: %v", ErrBadListFile, line+1, err)
	}
	return nil
}

func decodeFtM(line int, raw []byte) (*ftmEntity, error) {
	var e ftmEntity
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, fmt.Errorf("%w: ftm: line %d: not an FtM entity: %v", ErrBadListFile, line, err)
	}
	if e.ID == "" || e.Schema == "" {
		return nil, fmt.Errorf("%w: ftm: line %d: an entity needs an id and a schema", ErrBadListFile, line)
	}
	return &e, nil
}

func (s *ftmSet) add(e *ftmEntity) {
	s.lastSeen = max(s.lastSeen, e.LastSeen, e.LastChange)
	switch {
	case ftmThings[e.Schema] != "":
		s.things = append(s.things, e)
	case e.Schema == "Sanction":
		for _, id := range e.props("entity") {
			s.sanctions[id] = append(s.sanctions[id], e)
		}
	case e.Schema == "Address":
		s.addresses[e.ID] = e
	}
}

func newFtMSet() *ftmSet {
	return &ftmSet{sanctions: map[string][]*ftmEntity{}, addresses: map[string]*ftmEntity{}}
}

// ParseFtM reads an FtM entities file (entities.ftm.json) into entries of ListOpenSanctions,
// ids "opensanctions:<FtM id>" (Service.Import renames them under the list imported). Parties
// without a topic are skipped (FtMListType); each entry's type comes from its topics.
func ParseFtM(r io.Reader) ([]Entry, error) {
	es, _, err := parseFtMSet(r)
	return es, err
}

func parseFtMSet(r io.Reader) ([]Entry, string, error) {
	set := newFtMSet()
	err := readFtM(r, func(line int, raw []byte) error {
		e, err := decodeFtM(line, raw)
		if err != nil {
			return err
		}
		set.add(e)
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	out := make([]Entry, 0, len(set.things))
	for _, t := range set.things {
		if e, ok := set.entry(t); ok {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil, "", fmt.Errorf("%w: ftm: no person, organisation, company, vessel or aircraft with a topic", ErrBadListFile)
	}
	return out, set.lastSeen, nil
}

// entry maps one party; ok is false for a party without a topic or a name.
func (s *ftmSet) entry(t *ftmEntity) (Entry, bool) {
	typ := FtMListType(t.props("topics"))
	if typ == "" {
		return Entry{}, false
	}
	names := t.props("name")
	name := strings.TrimSpace(t.Caption)
	if name == "" && len(names) > 0 {
		name = names[0]
	}
	if name == "" || len(tokenize(name)) == 0 {
		return Entry{}, false
	}
	e := Entry{ID: strings.ToLower(ListOpenSanctions) + ":" + t.ID, SourceID: t.ID, List: ListOpenSanctions, ListType: typ,
		EntityType: ftmThings[t.Schema], Name: name}
	seen := map[string]bool{strings.ToLower(name): true}
	addAlias := func(n string, q AliasQuality) {
		if k := strings.ToLower(n); !seen[k] && len(tokenize(n)) > 0 {
			seen[k] = true
			e.Aliases = append(e.Aliases, Alias{Name: n, Quality: q})
		}
	}
	for _, n := range t.props("name", "alias", "previousName") {
		addAlias(n, AliasStrong)
	}
	for _, n := range t.props("weakAlias") {
		addAlias(n, AliasWeak)
	}
	e.DatesOfBirth = t.props("birthDate", "incorporationDate")
	if e.EntityType != EntityIndividual {
		e.DatesOfBirth = nil // an incorporation date is not a birth date: the matcher compares them
	}
	e.Nationalities = upperAll(t.props("nationality", "citizenship"))
	e.Countries = upperAll(t.props("country", "jurisdiction", "mainCountry"))
	e.Addresses = t.props("address")
	for _, id := range t.props("addressEntity") {
		if a := s.addresses[id]; a != nil {
			if full := a.props("full"); len(full) > 0 && !slices.Contains(e.Addresses, full[0]) {
				e.Addresses = append(e.Addresses, full[0])
			}
		}
	}
	for _, sn := range s.sanctions[t.ID] {
		if label := sanctionLabel(sn); label != "" && !slices.Contains(e.Programs, label) {
			e.Programs = append(e.Programs, label)
		}
	}
	var remarks []string
	if topics := t.props("topics"); len(topics) > 0 {
		remarks = append(remarks, "Topics: "+strings.Join(topics, ", "))
	}
	for _, p := range ftmIdentifiers {
		if v := t.props(p); len(v) > 0 {
			remarks = append(remarks, p+": "+strings.Join(v, ", "))
		}
	}
	e.Remarks = strings.Join(remarks, "; ")
	return e, true
}

// sanctionLabel names a Sanction entity's programme and authority: "EU-UKR (Council of the
// European Union)", the programme alone, or the authority alone.
func sanctionLabel(sn *ftmEntity) string {
	prog, auth := sn.props("programId", "program"), sn.props("authority")
	switch {
	case len(prog) > 0 && len(auth) > 0:
		return prog[0] + " (" + auth[0] + ")"
	case len(prog) > 0:
		return prog[0]
	case len(auth) > 0:
		return auth[0]
	}
	return ""
}

func upperAll(vs []string) []string {
	for i, v := range vs {
		vs[i] = strings.ToUpper(v)
	}
	return vs
}

// FtMVersionTime reads the time of an OpenSanctions version id ("20240527134702-zbn" is
// 2024-05-27 13:47:02 UTC); ok is false for another shape.
func FtMVersionTime(version string) (time.Time, bool) {
	if len(version) < 14 {
		return time.Time{}, false
	}
	t, err := time.Parse("20060102150405", version[:14])
	return t, err == nil
}

// ftmTime reads an FtM timestamp (last_seen "2024-06-01T10:57:03", or a date).
func ftmTime(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02T15:04:05", time.RFC3339, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
