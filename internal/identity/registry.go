package identity

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
)

//go:embed sandbox_registry.json
var defaultRegistry []byte

// RegistryPerson is one BVN or NIN entry of the sandbox registry (docs/design/design-choices.md §6). Exactly one of
// BVN and NIN is set, by the array it sits in.
type RegistryPerson struct {
	BVN         string `json:"bvn,omitempty"`
	NIN         string `json:"nin,omitempty"`
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	MiddleName  string `json:"middleName,omitempty"`
	DateOfBirth string `json:"dateOfBirth"`
	Phone       string `json:"phone,omitempty"`
	Gender      string `json:"gender,omitempty"`
	PhotoBase64 string `json:"photoBase64,omitempty"`
}

// Record returns the person as a PersonRecord.
func (p RegistryPerson) Record() PersonRecord {
	return PersonRecord{
		FirstName: p.FirstName, MiddleName: p.MiddleName, LastName: p.LastName,
		DateOfBirth: p.DateOfBirth, Phone: p.Phone, Gender: p.Gender,
		HasPhoto: p.PhotoBase64 != "", PhotoBase64: p.PhotoBase64,
	}
}

// Registry is the sandbox identity registry: the JSON document of docs/design/design-choices.md §6,
// {"bvn": [...], "nin": [...], "cac": [...], "outage": [...]}.
type Registry struct {
	BVN    []RegistryPerson `json:"bvn"`
	NIN    []RegistryPerson `json:"nin"`
	CAC    []Company        `json:"cac"`
	Outage []string         `json:"outage"`

	bvn    map[string]RegistryPerson
	nin    map[string]RegistryPerson
	cac    map[string]Company
	outage map[string]bool
}

// LoadRegistry reads a registry (the file named by COMPLYD_IDENTITY_SANDBOX) and indexes it.
// Unknown keys, numbers that are not 11 digits, duplicates and RC numbers that are not digits are
// rejected, so a typo in a hand-written registry fails at start-up rather than at lookup.
func LoadRegistry(r io.Reader) (*Registry, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var reg Registry
	if err := dec.Decode(&reg); err != nil {
		return nil, fmt.Errorf("decode identity registry: %w", err)
	}
	if err := reg.index(); err != nil {
		return nil, fmt.Errorf("identity registry: %w", err)
	}
	return &reg, nil
}

// DefaultRegistry returns the registry shipped with the project (sandbox_registry.json).
func DefaultRegistry() *Registry {
	reg, err := LoadRegistry(bytes.NewReader(defaultRegistry))
	if err != nil {
		panic(err) // the embedded file is tested; this cannot happen in a built binary
	}
	return reg
}

func (r *Registry) index() error {
	r.bvn, r.nin = map[string]RegistryPerson{}, map[string]RegistryPerson{}
	r.cac, r.outage = map[string]Company{}, map[string]bool{}
	for i, p := range r.BVN {
		if !IsElevenDigits(p.BVN) {
			return fmt.Errorf("bvn[%d]: bvn %q is not 11 digits", i, p.BVN)
		}
		if _, dup := r.bvn[p.BVN]; dup {
			return fmt.Errorf("bvn[%d]: duplicate bvn %s", i, p.BVN)
		}
		if _, ok := ParseDate(p.DateOfBirth); !ok {
			return fmt.Errorf("bvn[%d]: dateOfBirth %q is not a date", i, p.DateOfBirth)
		}
		r.bvn[p.BVN] = p
	}
	for i, p := range r.NIN {
		if !IsElevenDigits(p.NIN) {
			return fmt.Errorf("nin[%d]: nin %q is not 11 digits", i, p.NIN)
		}
		if _, dup := r.nin[p.NIN]; dup {
			return fmt.Errorf("nin[%d]: duplicate nin %s", i, p.NIN)
		}
		if _, ok := ParseDate(p.DateOfBirth); !ok {
			return fmt.Errorf("nin[%d]: dateOfBirth %q is not a date", i, p.DateOfBirth)
		}
		r.nin[p.NIN] = p
	}
	for i, c := range r.CAC {
		rc := NormalizeRC(c.RCNumber)
		if err := (CompanyLookup{RCNumber: rc}).Validate(); err != nil {
			return fmt.Errorf("cac[%d]: rcNumber %q is not an RC number", i, c.RCNumber)
		}
		if _, dup := r.cac[rc]; dup {
			return fmt.Errorf("cac[%d]: duplicate rcNumber %s", i, c.RCNumber)
		}
		r.cac[rc] = c
	}
	for _, n := range r.Outage {
		r.outage[n] = true
		r.outage[NormalizeRC(n)] = true
	}
	return nil
}

// LookupBVN returns the registry entry for bvn.
func (r *Registry) LookupBVN(bvn string) (RegistryPerson, bool) { p, ok := r.bvn[bvn]; return p, ok }

// LookupNIN returns the registry entry for nin.
func (r *Registry) LookupNIN(nin string) (RegistryPerson, bool) { p, ok := r.nin[nin]; return p, ok }

// LookupCAC returns the company with RC number rc (compared after NormalizeRC).
func (r *Registry) LookupCAC(rc string) (Company, bool) {
	c, ok := r.cac[NormalizeRC(rc)]
	return c, ok
}

// IsOutage reports whether n (a BVN, NIN or RC number) simulates a provider outage.
func (r *Registry) IsOutage(n string) bool { return r.outage[n] || r.outage[NormalizeRC(n)] }
