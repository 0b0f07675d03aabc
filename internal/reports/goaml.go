package reports

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
)

// The goAML report document as complyd writes it (docs/reports.md "goAML XML"). Field order is
// element order; CheckXML checks the encoded bytes against goaml_schema.go.

// Doc is a goAML <report>.
type Doc struct {
	XMLName           xml.Name       `xml:"report"`
	RentityID         string         `xml:"rentity_id"`
	RentityBranch     string         `xml:"rentity_branch,omitempty"`
	SubmissionCode    string         `xml:"submission_code"`
	ReportCode        string         `xml:"report_code"`
	EntityReference   string         `xml:"entity_reference,omitempty"`
	FIURefNumber      string         `xml:"fiu_ref_number,omitempty"`
	SubmissionDate    string         `xml:"submission_date"`
	CurrencyCodeLocal string         `xml:"currency_code_local"`
	ReportingPerson   XPerson        `xml:"reporting_person"`
	Reason            string         `xml:"reason,omitempty"`
	Action            string         `xml:"action,omitempty"`
	Transactions      []XTransaction `xml:"transaction"`
	Activity          *XActivity     `xml:"activity,omitempty"`
	Indicators        *XIndicators   `xml:"report_indicators,omitempty"`
}

// XPerson is a goAML t_person.
type XPerson struct {
	Gender       string   `xml:"gender,omitempty"`
	FirstName    string   `xml:"first_name"`
	MiddleName   string   `xml:"middle_name,omitempty"`
	LastName     string   `xml:"last_name"`
	SSN          string   `xml:"ssn,omitempty"` // the BVN, Nigeria's bank verification number
	Nationality1 string   `xml:"nationality1,omitempty"`
	Phones       *XPhones `xml:"phones,omitempty"`
	Email        string   `xml:"email,omitempty"`
	Occupation   string   `xml:"occupation,omitempty"`
}

// XPhones are a person's phones.
type XPhones struct {
	Phone []XPhone `xml:"phone"`
}

// XPhone is a t_phone.
type XPhone struct {
	ContactType       string `xml:"tph_contact_type"`
	CommunicationType string `xml:"tph_communication_type"`
	Number            string `xml:"tph_number"`
}

// XAccount is a goAML t_account.
type XAccount struct {
	InstitutionName string `xml:"institution_name"`
	InstitutionCode string `xml:"institution_code,omitempty"`
	Account         string `xml:"account"`
	CurrencyCode    string `xml:"currency_code"`
	AccountName     string `xml:"account_name,omitempty"`
}

// XEntity is a goAML t_entity.
type XEntity struct {
	Name string `xml:"name"`
}

// XForeign is from/to_foreign_currency.
type XForeign struct {
	Code   string `xml:"foreign_currency_code"`
	Amount string `xml:"foreign_amount"`
	Rate   string `xml:"foreign_exchange_rate"`
}

// XFrom is t_from_my_client or t_from.
type XFrom struct {
	FundsCode string    `xml:"from_funds_code"`
	Foreign   *XForeign `xml:"from_foreign_currency,omitempty"`
	Account   *XAccount `xml:"from_account,omitempty"`
	Person    *XPerson  `xml:"from_person,omitempty"`
	Entity    *XEntity  `xml:"from_entity,omitempty"`
	Country   string    `xml:"from_country"`
}

// XTo is t_to_my_client or t_to.
type XTo struct {
	FundsCode string    `xml:"to_funds_code"`
	Foreign   *XForeign `xml:"to_foreign_currency,omitempty"`
	Account   *XAccount `xml:"to_account,omitempty"`
	Person    *XPerson  `xml:"to_person,omitempty"`
	Entity    *XEntity  `xml:"to_entity,omitempty"`
	Country   string    `xml:"to_country"`
}

// XTransaction is a goAML transaction: one from side and one to side, each either "my client"
// (the reporting bank's customer) or not.
type XTransaction struct {
	Number        string `xml:"transactionnumber"`
	InternalRef   string `xml:"internal_ref_number,omitempty"`
	Description   string `xml:"transaction_description,omitempty"`
	Date          string `xml:"date_transaction"`
	TransmodeCode string `xml:"transmode_code"`
	AmountLocal   string `xml:"amount_local"`
	FromMyClient  *XFrom `xml:"t_from_my_client,omitempty"`
	From          *XFrom `xml:"t_from,omitempty"`
	ToMyClient    *XTo   `xml:"t_to_my_client,omitempty"`
	To            *XTo   `xml:"t_to,omitempty"`
}

// XActivity is the activity of a SAR: the parties, without transactions.
type XActivity struct {
	Parties []XParty `xml:"report_parties>report_party"`
}

// XParty is a report_party.
type XParty struct {
	Person  *XPerson  `xml:"person,omitempty"`
	Account *XAccount `xml:"account,omitempty"`
	Reason  string    `xml:"reason,omitempty"`
}

// XIndicators are the report's indicators.
type XIndicators struct {
	Indicator []string `xml:"indicator"`
}

const goamlTime = "2006-01-02T15:04:05"

// Indicators maps the rules that ground a report to complyd's report indicator codes
// (docs/reports.md "Indicators").
var Indicators = map[string]string{
	"AML-001": "CTR-CASH", "AML-002": "CTR-TRF", "AML-003": "STR-STRUCT", "AML-004": "STR-PEP",
	"AML-005": "FTR-XBORDER", "AML-006": "STR-DORMANT", "AML-007": "STR-RAPID", "AML-008": "STR-TIER",
	"AML-009": "STR-NEARTIER",
}

// Build makes the goAML document of r with its transactions txs, under the tenant's settings,
// submitted at now.
func Build(r *Report, txs []Transaction, s Settings, now time.Time) *Doc {
	d := &Doc{RentityID: s.RentityID, RentityBranch: s.RentityBranch, SubmissionCode: "E", ReportCode: r.Type,
		EntityReference: r.ID, SubmissionDate: now.In(Lagos).Format(goamlTime), CurrencyCodeLocal: "NGN",
		ReportingPerson: XPerson{FirstName: s.ReportingPerson.FirstName, LastName: s.ReportingPerson.LastName,
			Email: s.ReportingPerson.Email, Occupation: s.ReportingPerson.Occupation},
		Reason: firstNonEmpty(r.Reason, r.Narrative), Action: r.Action}
	if s.ReportingPerson.Phone != "" {
		d.ReportingPerson.Phones = &XPhones{Phone: []XPhone{{ContactType: "BUS", CommunicationType: "L", Number: s.ReportingPerson.Phone}}}
	}
	if r.CorrectsReportID != "" {
		d.FIURefNumber = r.CorrectsReference
	}
	if r.Type == TypeSAR {
		d.Activity = &XActivity{Parties: []XParty{{
			Account: &XAccount{InstitutionName: s.InstitutionName, InstitutionCode: s.InstitutionCode, Account: r.CustomerAccount,
				CurrencyCode: "NGN", AccountName: r.CustomerName},
			Reason: firstNonEmpty(r.Reason, r.Narrative)}}}
	} else {
		for i := range txs {
			d.Transactions = append(d.Transactions, buildTransaction(&txs[i], s))
		}
	}
	var ind []string
	for _, rule := range r.Rules {
		if c, ok := Indicators[rule]; ok && !contains(ind, c) {
			ind = append(ind, c)
		}
	}
	ind = append(ind, r.Indicators...)
	if len(ind) > 0 {
		d.Indicators = &XIndicators{Indicator: ind}
	}
	return d
}

func buildTransaction(t *Transaction, s Settings) XTransaction {
	x := XTransaction{Number: t.ExternalID, InternalRef: t.ID, Description: t.Narration,
		Date: t.Timestamp.In(Lagos).Format(goamlTime), TransmodeCode: TransmodeCodes[t.Type], AmountLocal: money(t.AmountNGN)}
	var foreign *XForeign
	if t.Currency != "" && t.Currency != "NGN" && t.Amount.IsPositive() {
		foreign = &XForeign{Code: t.Currency, Amount: money(t.Amount), Rate: t.AmountNGN.Div(t.Amount).Round(6).String()}
	}
	senderAcct := &XAccount{InstitutionName: s.InstitutionName, InstitutionCode: firstNonEmpty(t.SenderBankCode, s.InstitutionCode),
		Account: t.SenderAccountNumber, CurrencyCode: firstNonEmpty(t.Currency, "NGN"), AccountName: t.SenderName}
	receiverCountry := firstNonEmpty(t.ReceiverCountry, "NG")
	switch t.Type {
	case "CASH_DEPOSIT":
		// Cash paid in by the depositor (the sender named on the transaction) to our client's account.
		x.From = &XFrom{FundsCode: "K", Foreign: foreign, Person: namePerson(t.SenderName, t.SenderBVN), Country: "NG"}
		x.ToMyClient = &XTo{FundsCode: "E", Account: senderAcct, Country: "NG"}
	case "CASH_WITHDRAWAL", "ATM":
		x.FromMyClient = &XFrom{FundsCode: "E", Account: senderAcct, Country: "NG"}
		x.To = &XTo{FundsCode: "K", Foreign: foreign, Person: namePerson(t.SenderName, t.SenderBVN), Country: "NG"}
	default:
		x.FromMyClient = &XFrom{FundsCode: "E", Account: senderAcct, Country: "NG"}
		to := &XTo{FundsCode: "E", Foreign: foreign, Country: receiverCountry}
		if foreign != nil {
			to.FundsCode = "F"
		}
		if t.ReceiverAccountNumber != "" {
			inst := s.InstitutionName
			if t.ReceiverBankCode != "" && t.ReceiverBankCode != s.InstitutionCode {
				inst = "Bank " + t.ReceiverBankCode
			}
			if receiverCountry != "NG" && t.ReceiverBankCode == "" {
				inst = "Foreign bank (" + receiverCountry + ")"
			}
			to.Account = &XAccount{InstitutionName: inst, InstitutionCode: t.ReceiverBankCode, Account: t.ReceiverAccountNumber,
				CurrencyCode: firstNonEmpty(t.Currency, "NGN"), AccountName: t.ReceiverName}
		} else {
			to.Entity = &XEntity{Name: firstNonEmpty(t.ReceiverName, "Unknown beneficiary")}
		}
		mine := receiverCountry == "NG" && t.ReceiverBankCode != "" && t.ReceiverBankCode == s.InstitutionCode
		if mine {
			x.ToMyClient = to
		} else {
			x.To = to
		}
	}
	return x
}

// namePerson splits a full name into first and last names ("Ada Obi" → Ada, Obi).
func namePerson(name, bvn string) *XPerson {
	f := strings.Fields(name)
	p := &XPerson{SSN: bvn}
	switch len(f) {
	case 0:
	case 1:
		p.FirstName, p.LastName = f[0], f[0]
	default:
		p.FirstName, p.LastName = f[0], f[len(f)-1]
		if len(f) > 2 {
			p.MiddleName = strings.Join(f[1:len(f)-1], " ")
		}
	}
	return p
}

func money(d decimal.Decimal) string { return d.StringFixed(2) }

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// Encode writes d as an indented XML document to w.
func (d *Doc) Encode(w io.Writer) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(d); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// Check runs the rules of each report type that the schema cannot express, then the schema.
func (d *Doc) Check() []apperr.FieldError {
	var errs []apperr.FieldError
	switch d.ReportCode {
	case TypeCTR, TypeSTR, TypeFTR:
		if len(d.Transactions) == 0 {
			errs = append(errs, apperr.FieldError{Field: "report/transaction", Message: "a " + d.ReportCode + " needs at least one transaction"})
		}
	case TypeSAR:
		if d.Activity == nil || len(d.Transactions) > 0 {
			errs = append(errs, apperr.FieldError{Field: "report/activity", Message: "a SAR reports an activity, not transactions"})
		}
	}
	if (d.ReportCode == TypeSTR || d.ReportCode == TypeSAR) && len(strings.TrimSpace(d.Reason)) < 20 {
		errs = append(errs, apperr.FieldError{Field: "report/reason", Message: "the grounds for suspicion must be stated (20 characters or more)"})
	}
	if d.ReportCode == TypeFTR {
		for i, t := range d.Transactions {
			abroad := (t.To != nil && t.To.Country != "NG") || (t.From != nil && t.From.Country != "NG")
			if !abroad {
				errs = append(errs, apperr.FieldError{Field: "report/transaction[" + itoa(i) + "]/t_to/to_country",
					Message: "a foreign transfer report needs a counterparty abroad"})
			}
		}
	}
	var buf bytes.Buffer
	if err := d.Encode(&buf); err != nil {
		return append(errs, apperr.FieldError{Field: "report", Message: err.Error()})
	}
	return append(errs, CheckXML(buf.Bytes())...)
}

func itoa(i int) string { return strconv.Itoa(i) }

// Export checks d and writes it to w, or answers VALIDATION_ERROR naming every broken field
// (nothing is written then).
func (d *Doc) Export(w io.Writer) error {
	if errs := d.Check(); len(errs) > 0 {
		e := apperr.InvalidFields(errs...)
		e.Message = "the report would be rejected by goAML: fix the fields in details"
		return e
	}
	return d.Encode(w)
}
