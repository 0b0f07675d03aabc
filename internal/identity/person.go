package identity

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/wallet"
)

// MatchThreshold is the name-similarity confidence at or above which a BVN or NIN check matches
// (given an equal date of birth), docs/design/design-choices.md §6.
const MatchThreshold = 0.8

// PersonCheck is a BVN or NIN check request: the number and what the applicant claims.
type PersonCheck struct {
	Number      string `json:"number"` // 11 digits
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	DateOfBirth string `json:"dateOfBirth"` // ISO 8601 date; a date-time at midnight is accepted
}

// Validate checks the number (exactly 11 digits, docs/reference/specification.md part 8), the names and the date of
// birth; field names are the JSON names, with numberField naming the number ("bvn" or "nin").
func (c PersonCheck) Validate(numberField string) error {
	var details []apperr.FieldError
	if !IsElevenDigits(c.Number) {
		details = append(details, apperr.FieldError{Field: numberField, Message: "must be exactly 11 digits"})
	}
	if strings.TrimSpace(c.FirstName) == "" {
		details = append(details, apperr.FieldError{Field: "firstName", Message: "is required"})
	}
	if strings.TrimSpace(c.LastName) == "" {
		details = append(details, apperr.FieldError{Field: "lastName", Message: "is required"})
	}
	if _, ok := ParseDate(c.DateOfBirth); !ok {
		details = append(details, apperr.FieldError{Field: "dateOfBirth", Message: "must be an ISO 8601 date (YYYY-MM-DD)"})
	}
	if len(details) > 0 {
		return apperr.InvalidFields(details...)
	}
	return nil
}

// PersonRecord is what the registry holds about a person. The photo is carried for an immediate
// face match only and is never serialised or stored (docs/reference/specification.md 4.4: "does not store the
// registry photo").
type PersonRecord struct {
	FirstName   string `json:"firstName"`
	MiddleName  string `json:"middleName,omitempty"`
	LastName    string `json:"lastName"`
	DateOfBirth string `json:"dateOfBirth"` // YYYY-MM-DD
	Phone       string `json:"phone,omitempty"`
	Gender      string `json:"gender,omitempty"`
	HasPhoto    bool   `json:"photoPresent"`
	PhotoBase64 string `json:"-"`
}

// PersonResult is the answer to a BVN or NIN check. Found false means the registry has no such
// number (a definite, chargeable answer). Confidence is the name similarity in 0..1; IsMatch is
// true when Confidence ≥ the threshold and the dates of birth are equal.
type PersonResult struct {
	Found          bool            `json:"found"`
	IsMatch        bool            `json:"isMatch"`
	Confidence     float64         `json:"confidence"`
	Provider       string          `json:"provider"`
	ProviderSource ProviderSource  `json:"providerSource"`
	Record         *PersonRecord   `json:"record,omitempty"`
	Raw            json.RawMessage `json:"raw,omitempty"`
	// Charge is Waived when the answering provider does not bill it (Unbilled); never serialised.
	Charge wallet.Charge `json:"-"`
}

// ComparePerson scores a check against a registry record: the fuzzy name similarity of first and
// last name (order-insensitive, middle name tolerated) and an exact date-of-birth comparison.
// threshold ≤ 0 means MatchThreshold.
func ComparePerson(req PersonCheck, rec PersonRecord, threshold float64) (confidence float64, isMatch bool) {
	if threshold <= 0 {
		threshold = MatchThreshold
	}
	confidence = NameSimilarity(req.FirstName+" "+req.LastName, rec.FirstName+" "+rec.MiddleName+" "+rec.LastName)
	return confidence, confidence >= threshold && SameDate(req.DateOfBirth, rec.DateOfBirth)
}

// Mismatches names the fields of claim that the registry record does not bear out: firstName and
// lastName by the same name similarity as ComparePerson (each against the record's given names or
// surname, and the whole name, so that a swapped order still matches), and dateOfBirth by date.
// An empty claimed date of birth is not compared. confidence is the whole name's similarity.
func Mismatches(claim PersonCheck, rec PersonRecord, threshold float64) (fields []string, confidence float64) {
	if threshold <= 0 {
		threshold = MatchThreshold
	}
	confidence = NameSimilarity(claim.FirstName+" "+claim.LastName, rec.FirstName+" "+rec.MiddleName+" "+rec.LastName)
	if confidence < threshold {
		given := rec.FirstName + " " + rec.MiddleName
		if NameSimilarity(claim.FirstName, given) < threshold && NameSimilarity(claim.FirstName, rec.LastName) < threshold {
			fields = append(fields, "firstName")
		}
		if NameSimilarity(claim.LastName, rec.LastName) < threshold && NameSimilarity(claim.LastName, given) < threshold {
			fields = append(fields, "lastName")
		}
		if len(fields) == 0 {
			fields = append(fields, "firstName", "lastName")
		}
	}
	if claim.DateOfBirth != "" && !SameDate(claim.DateOfBirth, rec.DateOfBirth) {
		fields = append(fields, "dateOfBirth")
	}
	return fields, confidence
}

// IsElevenDigits reports whether s is exactly 11 ASCII digits (BVN, NIN).
func IsElevenDigits(s string) bool {
	if len(s) != 11 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// ParseDate parses an ISO 8601 date, or a date-time whose date part is taken (spec conventions 5:
// dates may come back as date-time at midnight).
func ParseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), true
	}
	return time.Time{}, false
}

// SameDate reports whether a and b parse to the same calendar date.
func SameDate(a, b string) bool {
	ta, ok1 := ParseDate(a)
	tb, ok2 := ParseDate(b)
	return ok1 && ok2 && ta.Equal(tb)
}

// FullName is the record's first, middle and last name joined by single spaces.
func (r PersonRecord) FullName() string {
	return strings.Join(strings.Fields(r.FirstName+" "+r.MiddleName+" "+r.LastName), " ")
}
