package reports

import (
	"regexp"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// Person is the reporting person of the tenant's goAML registration (the MLRO, usually).
type Person struct {
	FirstName  string
	LastName   string
	Email      string
	Phone      string
	Occupation string
}

// Settings are a tenant's goAML identity, filing endpoint and deadlines.
type Settings struct {
	// RentityID is the reporting entity's goAML id, given by the NFIU at registration.
	RentityID       string
	RentityBranch   string
	InstitutionName string // the bank's name on its accounts (t_account institution_name)
	InstitutionCode string // the bank's CBN/NIBSS code: accounts with it are "my client"
	ReportingPerson Person
	// Location is the reporting entity's address: the report's goAML location.
	Location Address
	// SchemaName picks one of the deployment's FIU schemas (COMPLYD_GOAML_SCHEMAS); "" is the
	// deployment's default (docs/guide/reports.md "Validation").
	SchemaName string
	// CodeList is the code list the tenant loaded (empty: DefaultCodes).
	CodeList CodeList
	// FilingURL, when set, is where approved reports are submitted over HTTP (POST of the XML).
	FilingURL   string
	FilingToken string // bearer token sent to FilingURL; never returned by the API
	// DeadlineHours per report type, counted from the end of the report's day (Lagos); a type
	// absent uses DefaultDeadlineHours.
	DeadlineHours map[string]int
	// NearHours: a report whose deadline is within this many hours is "near" (listed, notified).
	NearHours int
	UpdatedAt time.Time
}

// Address is a postal address (t_address).
type Address struct {
	Address     string // street and number
	City        string
	State       string
	CountryCode string // ISO 3166-1 alpha-2; "" is NG
}

// Codes returns the tenant's code list (DefaultCodes for every list it did not load).
func (s Settings) Codes() CodeList { return s.CodeList }

// DefaultDeadlineHours are the deadlines by report type (docs/guide/reports.md "Deadlines", each
// with its source).
var DefaultDeadlineHours = map[string]int{
	TypeCTR: 7 * 24, // MLPPA 2022 s.11 (mandatory disclosure): 7 days, as s.10 of the 2011 Act it replaced
	TypeFTR: 24,     // MLPPA 2022 s.3: transfers to or from abroad over US$10,000, within 1 day
	TypeSTR: 24,     // MLPPA 2022 s.7: suspicious transactions within 24 hours
	TypeSAR: 24,     // same section: suspicious activity is reported like a transaction
}

// DefaultNearHours is when a report counts as near its deadline.
const DefaultNearHours = 12

// Deadline returns the hours allowed for typ.
func (s Settings) Deadline(typ string) int {
	if h, ok := s.DeadlineHours[typ]; ok && h > 0 {
		return h
	}
	return DefaultDeadlineHours[typ]
}

// Near returns the near-deadline window.
func (s Settings) Near() time.Duration {
	if s.NearHours > 0 {
		return time.Duration(s.NearHours) * time.Hour
	}
	return DefaultNearHours * time.Hour
}

// DeadlineFor returns the deadline of a report of typ for day.
func (s Settings) DeadlineFor(typ string, day time.Time) time.Time {
	return EndOfDay(day).Add(time.Duration(s.Deadline(typ)) * time.Hour)
}

// Validate checks settings written by an admin.
func (s Settings) Validate() error {
	var errs []apperr.FieldError
	if s.RentityID != "" && !digits.MatchString(s.RentityID) {
		errs = append(errs, apperr.FieldError{Field: "rentityId", Message: "must be the numeric goAML id"})
	}
	if e := s.ReportingPerson.Email; e != "" && (len(e) > 255 || !strings.Contains(e, "@") || strings.ContainsAny(e, " \t")) {
		errs = append(errs, apperr.FieldError{Field: "reportingPerson.email", Message: "must be an email address"})
	}
	if len(s.Location.Address) > 100 || len(s.Location.City) > 255 || len(s.Location.State) > 255 {
		errs = append(errs, apperr.FieldError{Field: "location", Message: "address at most 100 characters, city and state 255"})
	}
	if s.Location.CountryCode != "" && s.Codes().Check(ListCountry, s.Location.CountryCode) != "" {
		errs = append(errs, apperr.FieldError{Field: "location.countryCode", Message: s.Codes().Check(ListCountry, s.Location.CountryCode)})
	}
	for t, h := range s.DeadlineHours {
		if !ValidType(t) || h <= 0 || h > 24*365 {
			errs = append(errs, apperr.FieldError{Field: "deadlineHours." + t, Message: "must be a report type with 1 to 8760 hours"})
		}
	}
	if len(errs) > 0 {
		return apperr.InvalidFields(errs...)
	}
	return nil
}

var digits = regexp.MustCompile(`^[0-9]{1,20}$`)
