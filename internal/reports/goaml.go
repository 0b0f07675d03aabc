package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
)

// The goAML report document as complyd writes it (docs/guide/reports.md "goAML XML"). Field order is
// element order; Service.Validate checks the encoded bytes against the goAML XSD (xsd.go) and the
// tenant's code list (codelist.go).

// Doc is a goAML <report>: its elements in the order of the schema's report sequence.
type Doc struct {
	XMLName           xml.Name       `xml:"report"`
	RentityID         string         `xml:"rentity_id"`
	RentityBranch     string         `xml:"rentity_branch"` // required by the schema: empty is named by it
	SubmissionCode    string         `xml:"submission_code"`
	ReportCode        string         `xml:"report_code"`
	EntityReference   string         `xml:"entity_reference,omitempty"`
	FIURefNumber      string         `xml:"fiu_ref_number,omitempty"`
	SubmissionDate    string         `xml:"submission_date"`
	CurrencyCodeLocal string         `xml:"currency_code_local"`
	ReportingPerson   XPerson        `xml:"reporting_person"`
	Location          XAddress       `xml:"location"`
	Reason            string         `xml:"reason,omitempty"`
	Action            string         `xml:"action,omitempty"`
	Transactions      []XTransaction `xml:"transaction"`
	Activity          *XActivity     `xml:"activity,omitempty"`
	Indicators        XIndicators    `xml:"report_indicators"`

	codes CodeList // the tenant's code lists, which Check checks the coded values against
	typ   string   // the report type (CTR, STR, SAR, FTR): ReportCode is its code in codes
}

// XPerson is a goAML t_person (and t_person_registration_in_report, whose order it shares).
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

// XPhone is a t_phone: the country prefix comes before the number.
type XPhone struct {
	ContactType       string `xml:"tph_contact_type"`
	CommunicationType string `xml:"tph_communication_type"`
	CountryPrefix     string `xml:"tph_country_prefix"`
	Number            string `xml:"tph_number"`
}

// XAddress is a t_address (the report's location: the reporting entity's address).
type XAddress struct {
	AddressType string `xml:"address_type"`
	Address     string `xml:"address"`
	City        string `xml:"city"`
	CountryCode string `xml:"country_code"`
	State       string `xml:"state,omitempty"`
}

// XAccount is a goAML t_account: the institution is named by its code or SWIFT BIC.
type XAccount struct {
	InstitutionName string `xml:"institution_name"`
	InstitutionCode string `xml:"institution_code"`
	Account         string `xml:"account"`
	CurrencyCode    string `xml:"currency_code,omitempty"`
	AccountName     string `xml:"account_name,omitempty"`
	Comments        string `xml:"comments,omitempty"`
}

// XEntity is a goAML t_entity.
type XEntity struct {
	Name     string `xml:"name"`
	Comments string `xml:"comments,omitempty"`
}

// XForeign is from/to_foreign_currency.
type XForeign struct {
	Code   string `xml:"foreign_currency_code"`
	Amount string `xml:"foreign_amount"`
	Rate   string `xml:"foreign_exchange_rate"`
}

// XFrom is t_from.
type XFrom struct {
	FundsCode string    `xml:"from_funds_code"`
	Foreign   *XForeign `xml:"from_foreign_currency,omitempty"`
	Account   *XAccount `xml:"from_account,omitempty"`
	Person    *XPerson  `xml:"from_person,omitempty"`
	Entity    *XEntity  `xml:"from_entity,omitempty"`
	Country   string    `xml:"from_country"`
}

// XTo is t_to.
type XTo struct {
	FundsCode string    `xml:"to_funds_code"`
	Foreign   *XForeign `xml:"to_foreign_currency,omitempty"`
	Account   *XAccount `xml:"to_account,omitempty"`
	Person    *XPerson  `xml:"to_person,omitempty"`
	Entity    *XEntity  `xml:"to_entity,omitempty"`
	Country   string    `xml:"to_country"`
}

// XTransaction is a goAML transaction: one from side and one to side. complyd writes both as
// t_from/t_to (not t_from_my_client/t_to_my_client): the "my client" types require KYC facts
// (account opening date and status, a signatory with birth date, nationality, residence, phone
// and occupation) that complyd does not hold for every account (docs/guide/reports.md "goAML XML").
type XTransaction struct {
	Number        string `xml:"transactionnumber"`
	InternalRef   string `xml:"internal_ref_number,omitempty"`
	Location      string `xml:"transaction_location"`    // required, may be empty: the channel
	Description   string `xml:"transaction_description"` // required, may be empty: the narration
	Date          string `xml:"date_transaction"`
	TransmodeCode string `xml:"transmode_code"`
	AmountLocal   string `xml:"amount_local"`
	From          *XFrom `xml:"t_from,omitempty"`
	To            *XTo   `xml:"t_to,omitempty"`
	Comments      string `xml:"comments,omitempty"` // sanctions hits on the transaction
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

// XIndicators are the report's indicators (the schema requires at least one).
type XIndicators struct {
	Indicator []string `xml:"indicator"`
}

const goamlTime = "2006-01-02T15:04:05"

// IndicatorSanctions is the indicator of a report one of whose transactions matched a
// sanctions list entry (the hit itself is in the transaction's comments).
const IndicatorSanctions = "STR-SANCTIONS"

// NotKnown is goAML's own "not known" code (the "-" of its country and other lookups): what a
// report says of a party's country that nothing tells.
const NotKnown = "-"

// Build makes the goAML document of r with its transactions txs, under the tenant's settings,
// submitted at now. The report's reason is the officer's narrative (the grounds), or the
// drafting note when no narrative was written; its action is the action taken.
func Build(r *Report, txs []Transaction, s Settings, now time.Time) *Doc {
	codes := s.Codes()
	d := &Doc{RentityID: s.RentityID, RentityBranch: s.RentityBranch, SubmissionCode: codes.Submission(), ReportCode: codes.ReportCode(r.Type),
		EntityReference: r.ID, SubmissionDate: now.In(Lagos).Format(goamlTime), CurrencyCodeLocal: "NGN",
		ReportingPerson: XPerson{FirstName: s.ReportingPerson.FirstName, LastName: s.ReportingPerson.LastName,
			Email: s.ReportingPerson.Email, Occupation: s.ReportingPerson.Occupation},
		Location: XAddress{AddressType: codes.Default(ListContactType), Address: s.Location.Address, City: s.Location.City,
			CountryCode: firstNonEmpty(s.Location.CountryCode, "NG"), State: s.Location.State},
		Reason: r.Grounds(), Action: r.Action, codes: codes, typ: r.Type}
	if s.ReportingPerson.Phone != "" {
		prefix, number := splitPhone(s.ReportingPerson.Phone)
		d.ReportingPerson.Phones = &XPhones{Phone: []XPhone{{ContactType: codes.Default(ListContactType),
			CommunicationType: codes.Default(ListCommunicationType), CountryPrefix: prefix, Number: number}}}
	}
	if r.CorrectsReportID != "" {
		d.FIURefNumber = r.CorrectsReference
	}
	if r.Type == TypeSAR {
		d.Activity = &XActivity{Parties: []XParty{{
			Account: &XAccount{InstitutionName: s.InstitutionName, InstitutionCode: s.InstitutionCode, Account: r.CustomerAccount,
				CurrencyCode: "NGN", AccountName: r.CustomerName},
			Reason: r.Grounds()}}}
	} else {
		for i := range txs {
			d.Transactions = append(d.Transactions, buildTransaction(&txs[i], s, codes))
		}
	}
	d.Indicators.Indicator = ReportIndicators(r, txs, codes)
	return d
}

// ReportIndicators are the indicator codes of r in the code list codes: one per rule that
// grounds it, the sanctions indicator when one of txs matched a list, then those the officer
// added.
func ReportIndicators(r *Report, txs []Transaction, codes CodeList) []string {
	var ind []string
	add := func(c string) {
		if c != "" && !contains(ind, c) {
			ind = append(ind, c)
		}
	}
	for _, rule := range r.Rules {
		add(codes.Indicator(rule))
	}
	for _, t := range txs {
		if len(t.Hits) > 0 {
			add(codes.Indicator(UseSanctions))
		}
	}
	for _, c := range r.Indicators {
		add(c)
	}
	return ind
}

// Grounds is what the report's goAML reason says: the narrative the officer wrote, or the
// drafting note when there is none.
func (r *Report) Grounds() string { return firstNonEmpty(r.Narrative, r.Reason) }

// splitPhone splits a phone number into the country prefix and the national number:
// "+2348012345678" → 234, 8012345678; a Nigerian number written 08012345678 → 234, 8012345678.
func splitPhone(p string) (string, string) {
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, p)
	switch {
	case strings.HasPrefix(strings.TrimSpace(p), "+") && strings.HasPrefix(digits, "234"):
		return "234", digits[3:]
	case strings.HasPrefix(strings.TrimSpace(p), "+") && len(digits) > 3:
		// Outside Nigeria the prefix length varies (1 to 3 digits); without a table of them the
		// number is kept whole under an unknown prefix rather than cut wrongly.
		return NotKnown, digits
	case strings.HasPrefix(digits, "0"):
		return "234", digits[1:]
	default:
		return "234", digits
	}
}

func buildTransaction(t *Transaction, s Settings, codes CodeList) XTransaction {
	x := XTransaction{Number: t.ExternalID, InternalRef: t.ID, Location: t.Channel, Description: t.Narration,
		Date: t.Timestamp.In(Lagos).Format(goamlTime), TransmodeCode: codes.Transmode(t.Type), AmountLocal: money(t.AmountNGN),
		Comments: hitComments(t.Hits)}
	var foreign *XForeign
	if t.Currency != "" && t.Currency != "NGN" && t.Amount.IsPositive() {
		foreign = &XForeign{Code: t.Currency, Amount: money(t.Amount), Rate: t.AmountNGN.Div(t.Amount).Round(6).String()}
	}
	// The sender's account is the tenant's institution's unless the transaction names another bank.
	senderAcct := &XAccount{InstitutionName: s.InstitutionName, InstitutionCode: s.InstitutionCode,
		Account: t.SenderAccountNumber, CurrencyCode: firstNonEmpty(t.Currency, "NGN"), AccountName: t.SenderName}
	if t.SenderBankCode != "" && t.SenderBankCode != s.InstitutionCode {
		senderAcct.InstitutionName, senderAcct.InstitutionCode = "Not known (bank code "+t.SenderBankCode+")", t.SenderBankCode
	}
	switch t.Type {
	case "CASH_DEPOSIT":
		// Cash paid in by the depositor (the sender named on the transaction) to our client's account.
		x.From = &XFrom{FundsCode: codes.For(ListFunds, FundsCash), Foreign: foreign, Person: namePerson(t.SenderName, t.SenderBVN), Country: "NG"}
		x.To = &XTo{FundsCode: codes.For(ListFunds, FundsElectronic), Account: senderAcct, Country: "NG"}
	case "CASH_WITHDRAWAL", "ATM":
		x.From = &XFrom{FundsCode: codes.For(ListFunds, FundsElectronic), Account: senderAcct, Country: "NG"}
		x.To = &XTo{FundsCode: codes.For(ListFunds, FundsCash), Foreign: foreign, Person: namePerson(t.SenderName, t.SenderBVN), Country: "NG"}
	default:
		x.From = &XFrom{FundsCode: codes.For(ListFunds, FundsElectronic), Account: senderAcct, Country: "NG"}
		x.To = receiver(t, s, codes, foreign)
	}
	return x
}

// receiver is the to side of a transfer, as far as the transaction tells it: the receiver's
// institution is the tenant's own only when the receiver's bank code is the tenant's, is named
// by its bank code when it is another's, and is "Not known" when the transaction names no bank;
// the country is the transaction's, Nigeria for a domestic bank code, or goAML's "-" (not
// known). Nothing is filled in from the tenant's own identity.
func receiver(t *Transaction, s Settings, codes CodeList, foreign *XForeign) *XTo {
	to := &XTo{FundsCode: codes.For(ListFunds, FundsElectronic), Foreign: foreign, Country: t.ReceiverCountry}
	if foreign != nil {
		to.FundsCode = codes.For(ListFunds, FundsForeign)
	}
	if to.Country == "" {
		to.Country = NotKnown
		if t.ReceiverBankCode != "" && t.Type != "INTERNATIONAL_TRANSFER" {
			to.Country = "NG" // a NIBSS bank code is a Nigerian bank's
		}
	}
	if t.ReceiverAccountNumber == "" {
		to.Entity = &XEntity{Name: firstNonEmpty(t.ReceiverName, "Not known"),
			Comments: "The transaction names no receiving account or institution."}
		return to
	}
	acct := &XAccount{Account: t.ReceiverAccountNumber, CurrencyCode: firstNonEmpty(t.Currency, "NGN"), AccountName: t.ReceiverName}
	switch {
	case t.ReceiverBankCode != "" && t.ReceiverBankCode == s.InstitutionCode:
		acct.InstitutionName, acct.InstitutionCode = s.InstitutionName, s.InstitutionCode
	case t.ReceiverBankCode != "":
		acct.InstitutionName, acct.InstitutionCode = "Not known (bank code "+t.ReceiverBankCode+")", t.ReceiverBankCode
	default:
		acct.InstitutionName, acct.InstitutionCode = "Not known", NotKnown
		acct.Comments = "The transaction does not name the receiving institution."
	}
	to.Account = acct
	return to
}

// hitComments describes a transaction's sanctions hits: list, entry, matched name and score.
func hitComments(hits []Hit) string {
	parts := make([]string, 0, len(hits))
	for _, h := range hits {
		parts = append(parts, fmt.Sprintf("Sanctions match of the %s: list %s, entry %s (%s), matched %q, score %.2f.",
			strings.ToLower(firstNonEmpty(h.Party, "party")), h.List, h.EntryID, h.Name, h.MatchedName, h.Score))
	}
	return strings.Join(parts, " ")
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

// Check runs the rules of each report type that the schema cannot express and checks the coded
// values against the tenant's code list (the structure is the schema validator's: Service.
// Validate runs both).
func (d *Doc) Check() []apperr.FieldError {
	var errs []apperr.FieldError
	switch d.typ {
	case TypeCTR, TypeSTR, TypeFTR:
		if len(d.Transactions) == 0 {
			errs = append(errs, apperr.FieldError{Field: "report/transaction", Message: "a " + d.typ + " needs at least one transaction"})
		}
	case TypeSAR:
		if d.Activity == nil || len(d.Transactions) > 0 {
			errs = append(errs, apperr.FieldError{Field: "report/activity", Message: "a SAR reports an activity, not transactions"})
		}
	}
	if (d.typ == TypeSTR || d.typ == TypeSAR) && len(strings.TrimSpace(d.Reason)) < 20 {
		errs = append(errs, apperr.FieldError{Field: "report/reason", Message: "the grounds for suspicion must be stated (20 characters or more)"})
	}
	if d.CurrencyCodeLocal != "NGN" {
		errs = append(errs, apperr.FieldError{Field: "report/currency_code_local", Message: "the local currency of a Nigerian report is NGN"})
	}
	if d.typ == TypeFTR {
		for i, t := range d.Transactions {
			abroad := (t.To != nil && t.To.Country != "NG" && t.To.Country != NotKnown) || (t.From != nil && t.From.Country != "NG" && t.From.Country != NotKnown)
			if !abroad {
				errs = append(errs, apperr.FieldError{Field: "report/transaction[" + itoa(i) + "]/t_to/to_country",
					Message: "a foreign transfer report needs a counterparty abroad"})
			}
		}
	}
	if len(d.Indicators.Indicator) == 0 {
		errs = append(errs, apperr.FieldError{Field: "report/report_indicators",
			Message: "at least one indicator is required: add one, or draft the report from the rules that ground it"})
	}
	var buf bytes.Buffer
	if err := d.Encode(&buf); err != nil {
		return append(errs, apperr.FieldError{Field: "report", Message: err.Error()})
	}
	return append(errs, CheckCodes(buf.Bytes(), d.codes)...)
}

func itoa(i int) string { return strconv.Itoa(i) }
