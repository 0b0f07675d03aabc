package reports

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// The FIU's code lists (docs/guide/reports.md "Code lists"). The structure of a goAML report is
// goAML's and is checked against the XSD with its enumerations stripped (xsd.go); the codes are
// each FIU's lookups, loaded by the tenant from its goAML instance's lookup export and checked
// here, each unknown value named by its element path. With none loaded, DefaultCodes applies.

// Code list names: the goAML lookups complyd writes a value of.
const (
	ListReportCode        = "report_code"        // report_type
	ListSubmission        = "submission_code"    // submission_type
	ListTransmode         = "transmode_code"     // conduction_type
	ListFunds             = "funds_code"         // funds_type
	ListContactType       = "contact_type"       // tph_contact_type, address_type
	ListCommunicationType = "communication_type" // tph_communication_type
	ListIndicator         = "indicator"          // report_indicator_type
	ListGender            = "gender"             // gender_type
	ListCurrency          = "currency"           // currency_type
	ListCountry           = "country"            // country_type
)

// Lists are the code list names a code-list file may carry.
var Lists = []string{ListReportCode, ListSubmission, ListTransmode, ListFunds, ListContactType, ListCommunicationType,
	ListIndicator, ListGender, ListCurrency, ListCountry}

// Roles of the funds codes complyd writes (the "complyd" column of a funds_code row).
const (
	FundsCash       = "cash"       // cash paid in or out
	FundsElectronic = "electronic" // account to account
	FundsForeign    = "foreign"    // foreign currency
)

// RoleDefault marks the contact and communication codes complyd writes.
const RoleDefault = "default"

// Uses of the other codes complyd writes: the submission code of a report sent electronically
// (UseElectronic), the indicator of a sanctions match (UseSanctions); a report code's use is the
// report type (CTR, STR, SAR, FTR) and an indicator's the rule that grounds it (AML-003).
const (
	UseElectronic = "electronic"
	UseSanctions  = "sanctions"
)

// Code is one value of a code list. Use names what complyd writes it for: a transaction type
// (transmode_code: CASH_DEPOSIT, TRANSFER, ...), a funds role (cash, electronic, foreign) or
// "default" (the contact and communication type of the reporting person's phone and address).
type Code struct {
	List        string
	Code        string
	Description string
	Use         []string
}

// CodeList is a tenant's loaded code lists. A list it has no codes for falls back to
// DefaultCodes; currency and country without a loaded list accept ISO 4217 and ISO 3166-1
// alpha-2 codes (and "-", goAML's "not known", for a country).
type CodeList struct {
	Codes []Code
}

// DefaultCodes is complyd's table for the NFIU (docs/guide/reports.md "Code lists"), used for every
// list a tenant has not loaded: the codes complyd has always written.
var DefaultCodes = CodeList{Codes: []Code{
	{ListReportCode, TypeCTR, "Currency transaction report", []string{TypeCTR}},
	{ListReportCode, TypeSTR, "Suspicious transaction report", []string{TypeSTR}},
	{ListReportCode, TypeSAR, "Suspicious activity report", []string{TypeSAR}},
	{ListReportCode, TypeFTR, "Foreign transfer report", []string{TypeFTR}},
	{ListSubmission, "E", "Electronic", []string{UseElectronic}},
	{ListSubmission, "M", "Manual", nil},
	{ListTransmode, "A", "Cash deposit", []string{"CASH_DEPOSIT"}},
	{ListTransmode, "B", "Cash withdrawal", []string{"CASH_WITHDRAWAL"}},
	{ListTransmode, "C", "Transfer", []string{"TRANSFER"}},
	{ListTransmode, "D", "International transfer", []string{"INTERNATIONAL_TRANSFER"}},
	{ListTransmode, "E", "POS", []string{"POS"}},
	{ListTransmode, "F", "ATM", []string{"ATM"}},
	{ListTransmode, "G", "Mobile", []string{"MOBILE"}},
	{ListTransmode, "H", "USSD", []string{"USSD"}},
	{ListTransmode, "I", "Internet banking", []string{"INTERNET_BANKING"}},
	{ListFunds, "K", "Cash", []string{FundsCash}},
	{ListFunds, "E", "Electronic funds", []string{FundsElectronic}},
	{ListFunds, "F", "Foreign currency", []string{FundsForeign}},
	{ListContactType, "BUS", "Business", []string{RoleDefault}},
	{ListContactType, "PRV", "Private", nil},
	{ListCommunicationType, "L", "Landline", []string{RoleDefault}},
	{ListCommunicationType, "M", "Mobile", nil},
	{ListGender, "M", "Male", nil},
	{ListGender, "F", "Female", nil},
	{ListGender, "U", "Unknown", nil},
	{ListIndicator, "CTR-CASH", "Cash at or above the CTR threshold (AML-001)", []string{"AML-001"}},
	{ListIndicator, "CTR-TRF", "Transfer at or above the CTR threshold (AML-002)", []string{"AML-002"}},
	{ListIndicator, "STR-STRUCT", "Structuring below a threshold (AML-003)", []string{"AML-003"}},
	{ListIndicator, "STR-PEP", "Politically exposed person (AML-004)", []string{"AML-004"}},
	{ListIndicator, "FTR-XBORDER", "Transfer to or from abroad (AML-005)", []string{"AML-005"}},
	{ListIndicator, "STR-DORMANT", "Dormant account reactivated (AML-006)", []string{"AML-006"}},
	{ListIndicator, "STR-RAPID", "Rapid movement of funds (AML-007)", []string{"AML-007"}},
	{ListIndicator, "STR-TIER", "Above the KYC tier's limits (AML-008)", []string{"AML-008"}},
	{ListIndicator, "STR-NEARTIER", "Near the KYC tier's limits (AML-009)", []string{"AML-009"}},
	{ListIndicator, IndicatorSanctions, "Sanctions list match", []string{UseSanctions}},
}}

// list returns the codes of name: the loaded ones, or the default table's.
func (c CodeList) list(name string) []Code {
	if out := c.own(name); len(out) > 0 {
		return out
	}
	return DefaultCodes.own(name)
}

func (c CodeList) own(name string) []Code {
	var out []Code
	for _, k := range c.Codes {
		if k.List == name {
			out = append(out, k)
		}
	}
	return out
}

// Loaded reports whether the tenant loaded codes for name (else the default applies).
func (c CodeList) Loaded(name string) bool {
	return slices.ContainsFunc(c.Codes, func(k Code) bool { return k.List == name })
}

// For returns the code of list that complyd writes for use ("" when the list has none).
func (c CodeList) For(list, use string) string {
	for _, k := range c.list(list) {
		if slices.Contains(k.Use, use) {
			return k.Code
		}
	}
	return ""
}

// Default returns the code of list marked "default".
func (c CodeList) Default(list string) string { return c.For(list, RoleDefault) }

// Transmode returns the transmode code of a transaction type.
func (c CodeList) Transmode(txType string) string { return c.For(ListTransmode, txType) }

// ReportCode returns the report code of a report type: the code of the report_code list whose
// use is the type, else the type itself (a loaded list of the FIU's codes without uses, or one
// that names the type as its code).
func (c CodeList) ReportCode(typ string) string {
	return firstNonEmpty(c.For(ListReportCode, typ), typ)
}

// Submission returns the submission code of an electronic report (E without a use in the list).
func (c CodeList) Submission() string {
	return firstNonEmpty(c.For(ListSubmission, UseElectronic), "E")
}

// Indicator returns the indicator of a rule (AML-003) or of a sanctions match (UseSanctions):
// the code of the indicator list whose use it is, else the default table's. "" when neither
// has one (a rule without an indicator).
func (c CodeList) Indicator(use string) string {
	return firstNonEmpty(c.For(ListIndicator, use), DefaultCodes.For(ListIndicator, use))
}

// Check returns "" when value is in list, else why not.
func (c CodeList) Check(list, value string) string {
	codes := c.list(list)
	if len(codes) == 0 {
		switch list {
		case ListCurrency:
			if u, err := currency.ParseISO(value); err == nil && u.String() == value {
				return ""
			}
			return fmt.Sprintf("%q is not an ISO 4217 currency code", value)
		case ListCountry:
			if r, err := language.ParseRegion(value); value == NotKnown || err == nil && len(value) == 2 && r.IsCountry() && r.Canonicalize().String() == value {
				return ""
			}
			return fmt.Sprintf("%q is not an ISO 3166-1 alpha-2 country code", value)
		}
		return fmt.Sprintf("%q: the code list %s is empty", value, list)
	}
	names := make([]string, 0, len(codes))
	for _, k := range codes {
		if k.Code == value {
			return ""
		}
		names = append(names, k.Code)
	}
	if len(names) > 12 {
		names = append(names[:12], "...")
	}
	return fmt.Sprintf("%q is not in the code list %s (%s)", value, list, strings.Join(names, ", "))
}

// ParseCodeList reads a code-list file: CSV with the header list,code,description[,use]
// (docs/guide/reports.md "Code lists"), the use column a space-separated list of what complyd writes
// the code for. VALIDATION_ERROR naming the line of each bad row.
func ParseCodeList(r io.Reader) (CodeList, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	rows, err := cr.ReadAll()
	if err != nil {
		return CodeList{}, apperr.Invalid("file", "not a CSV file: "+err.Error())
	}
	if len(rows) == 0 || len(rows[0]) < 3 || strings.ToLower(strings.TrimPrefix(rows[0][0], "\ufeff")) != "list" ||
		strings.ToLower(rows[0][1]) != "code" {
		return CodeList{}, apperr.Invalid("file", "the first line must be the header list,code,description[,use]")
	}
	var out CodeList
	var errs []apperr.FieldError
	seen := map[[2]string]bool{}
	for i, row := range rows[1:] {
		line := fmt.Sprintf("line %d", i+2)
		if len(row) < 3 {
			errs = append(errs, apperr.FieldError{Field: line, Message: "needs list, code and description"})
			continue
		}
		k := Code{List: strings.TrimSpace(row[0]), Code: strings.TrimSpace(row[1]), Description: strings.TrimSpace(row[2])}
		if len(row) > 3 {
			k.Use = strings.Fields(row[3])
		}
		switch {
		case !slices.Contains(Lists, k.List):
			errs = append(errs, apperr.FieldError{Field: line, Message: fmt.Sprintf("unknown list %q (one of %s)", k.List, strings.Join(Lists, ", "))})
		case k.Code == "" || len(k.Code) > 50:
			errs = append(errs, apperr.FieldError{Field: line, Message: "the code is 1 to 50 characters"})
		case seen[[2]string{k.List, k.Code}]:
			errs = append(errs, apperr.FieldError{Field: line, Message: fmt.Sprintf("%s %s is listed twice", k.List, k.Code)})
		default:
			seen[[2]string{k.List, k.Code}] = true
			out.Codes = append(out.Codes, k)
		}
	}
	if len(errs) > 0 {
		return CodeList{}, apperr.InvalidFields(errs...)
	}
	return out, nil
}

// CSV writes the code list in the file format ParseCodeList reads.
func (c CodeList) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"list", "code", "description", "use"})
	for _, k := range c.Codes {
		_ = w.Write([]string{k.List, k.Code, k.Description, strings.Join(k.Use, " ")})
	}
	w.Flush()
	return b.Bytes()
}

// codeElements maps the goAML elements complyd writes a coded value in to their code list.
var codeElements = map[string]string{
	"report_code": ListReportCode, "submission_code": ListSubmission, "transmode_code": ListTransmode,
	"from_funds_code": ListFunds, "to_funds_code": ListFunds, "tph_contact_type": ListContactType,
	"address_type": ListContactType, "tph_communication_type": ListCommunicationType, "indicator": ListIndicator,
	"gender": ListGender, "currency_code": ListCurrency, "currency_code_local": ListCurrency,
	"foreign_currency_code": ListCurrency, "from_country": ListCountry, "to_country": ListCountry,
	"country_code": ListCountry, "nationality1": ListCountry, "residence": ListCountry,
}

// LoadCodeList replaces the tenant's code list with the file's (ParseCodeList's format); an
// empty file (the header alone) returns the tenant to DefaultCodes. VALIDATION_ERROR naming
// each bad line.
func (s *Service) LoadCodeList(ctx context.Context, c audit.Caller, file io.Reader) (CodeList, error) {
	cl, err := ParseCodeList(file)
	if err != nil {
		return CodeList{}, err
	}
	counts := map[string]int{}
	for _, k := range cl.Codes {
		counts[k.List]++
	}
	ev := audit.Event{TenantID: c.TenantID, Actor: c.Actor, Action: "report_code_list.loaded", ResourceType: "report_settings",
		ResourceID: string(c.TenantID), After: map[string]any{"codes": len(cl.Codes), "lists": counts}}
	if err := s.store.SaveCodeList(ctx, c.TenantID, cl, s.now().UTC(), ev); err != nil {
		return CodeList{}, err
	}
	return cl, nil
}

// EffectiveCodeList returns the code list the tenant's reports are checked against: each list
// it loaded, and the default table's for the others.
func (s *Service) EffectiveCodeList(ctx context.Context, tenantID tenancy.TenantID) (CodeList, error) {
	set, err := s.store.Settings(ctx, tenantID)
	if err != nil {
		return CodeList{}, err
	}
	var out CodeList
	for _, l := range Lists {
		out.Codes = append(out.Codes, set.CodeList.list(l)...)
	}
	return out, nil
}
