package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"golang.org/x/text/currency"
	"golang.org/x/text/language"

	"github.com/complyd/complyd/internal/apperr"
)

// The structural checks of a goAML report (docs/reports.md "goAML XML"). No published goAML XSD
// could be found under a licence that lets us ship it, so this file describes the subset of the
// UNODC goAML report schema that complyd writes, as a tree of elements with their order,
// occurrences, choices, lengths and code lists, and checks a document against it the way a
// validating parser would: every error names the element path (report/transaction[2]/
// t_from_my_client/from_account/account), so a report that would be rejected says which field is
// wrong.

// el is one element of the schema: its children in order (a sequence), or a choice of them.
type el struct {
	name     string
	min, max int // occurrences; max 0 = unbounded
	choice   bool
	children []el
	text     func(string) string // checks a leaf's text; "" when valid
}

func leaf(name string, min int, check func(string) string) el {
	return el{name: name, min: min, max: 1, text: check}
}

func group(name string, min, max int, children ...el) el {
	return el{name: name, min: min, max: max, children: children}
}

func choice(children ...el) el { return el{choice: true, min: 1, max: 1, children: children} }

// Checks of leaf text.
func maxLen(n int) func(string) string {
	return func(s string) string {
		if strings.TrimSpace(s) == "" {
			return "must not be empty"
		}
		if len([]rune(s)) > n {
			return fmt.Sprintf("longer than %d characters", n)
		}
		return ""
	}
}

func oneOf(codes ...string) func(string) string {
	return func(s string) string {
		for _, c := range codes {
			if s == c {
				return ""
			}
		}
		return fmt.Sprintf("%q is not in the code list %s", s, strings.Join(codes, ", "))
	}
}

var digits = regexp.MustCompile(`^[0-9]{1,20}$`)

func integer(s string) string {
	if !digits.MatchString(s) {
		return "must be a whole number"
	}
	return ""
}

// goAML dates are xs:dateTime without a zone: yyyy-mm-ddThh:mm:ss.
func dateTime(s string) string {
	if _, err := time.Parse("2006-01-02T15:04:05", s); err != nil {
		return "must be a date and time yyyy-mm-ddThh:mm:ss"
	}
	return ""
}

func amount(s string) string {
	d, err := decimal.NewFromString(s)
	if err != nil || !d.IsPositive() {
		return "must be a positive amount"
	}
	if d.Exponent() < -2 {
		return "at most two decimals"
	}
	if len(strings.ReplaceAll(s, ".", "")) > 20 {
		return "longer than 20 digits"
	}
	return ""
}

func rate(s string) string {
	d, err := decimal.NewFromString(s)
	if err != nil || !d.IsPositive() {
		return "must be a positive exchange rate"
	}
	return ""
}

func country(s string) string {
	r, err := language.ParseRegion(s)
	if err != nil || len(s) != 2 || !r.IsCountry() || r.Canonicalize().String() != s {
		return fmt.Sprintf("%q is not an ISO 3166-1 alpha-2 country code", s)
	}
	return ""
}

func currencyCode(s string) string {
	u, err := currency.ParseISO(s)
	if err != nil || u.String() != s {
		return fmt.Sprintf("%q is not an ISO 4217 currency code", s)
	}
	return ""
}

func email(s string) string {
	if msg := maxLen(255)(s); msg != "" {
		return msg
	}
	if !strings.Contains(s, "@") || strings.ContainsAny(s, " \t") {
		return "must be an email address"
	}
	return ""
}

// Code lists (docs/reports.md "Code lists"). Transmode and funds codes are lookups each FIU
// configures in its goAML instance; these are complyd's table for the NFIU, one code per
// transaction type and kind of funds.
var (
	TransmodeCodes = map[string]string{
		"CASH_DEPOSIT": "A", "CASH_WITHDRAWAL": "B", "TRANSFER": "C", "INTERNATIONAL_TRANSFER": "D",
		"POS": "E", "ATM": "F", "MOBILE": "G", "USSD": "H", "INTERNET_BANKING": "I",
	}
	// FundsCodes: K cash, E electronic funds (account to account), F foreign currency.
	FundsCodes = []string{"K", "E", "F"}
	// Genders of t_person.
	Genders = []string{"M", "F", "U"}
	// SubmissionCodes: E electronic (complyd always submits electronically), M manual.
	SubmissionCodes = []string{"E", "M"}
)

func transmodeList() []string {
	out := make([]string, 0, len(TransmodeCodes))
	for _, c := range []string{"CASH_DEPOSIT", "CASH_WITHDRAWAL", "TRANSFER", "INTERNATIONAL_TRANSFER", "POS", "ATM", "MOBILE", "USSD", "INTERNET_BANKING"} {
		out = append(out, TransmodeCodes[c])
	}
	return out
}

func person(name string, min int) el {
	return group(name, min, 1,
		leaf("gender", 0, oneOf(Genders...)),
		leaf("title", 0, maxLen(30)),
		leaf("first_name", 1, maxLen(100)),
		leaf("middle_name", 0, maxLen(100)),
		leaf("last_name", 1, maxLen(100)),
		leaf("birthdate", 0, dateTime),
		leaf("ssn", 0, maxLen(25)),
		leaf("id_number", 0, maxLen(255)),
		leaf("nationality1", 0, country),
		leaf("residence", 0, country),
		group("phones", 0, 1, group("phone", 1, 0,
			leaf("tph_contact_type", 1, maxLen(20)), leaf("tph_communication_type", 1, maxLen(20)), leaf("tph_number", 1, maxLen(50)))),
		leaf("email", 0, email),
		leaf("occupation", 0, maxLen(255)),
	)
}

func account(name string) el {
	return group(name, 1, 1,
		leaf("institution_name", 1, maxLen(255)),
		leaf("institution_code", 0, maxLen(50)),
		leaf("swift", 0, maxLen(11)),
		leaf("account", 1, maxLen(50)),
		leaf("currency_code", 1, currencyCode),
		leaf("account_name", 0, maxLen(255)),
		leaf("client_number", 0, maxLen(30)),
		leaf("personal_account_type", 0, maxLen(20)),
		group("signatory", 0, 0, leaf("is_primary", 0, oneOf("true", "false")), person("t_person", 1)),
	)
}

func entity(name string) el {
	return group(name, 1, 1,
		leaf("name", 1, maxLen(255)),
		leaf("incorporation_number", 0, maxLen(50)),
		leaf("incorporation_country_code", 0, country),
	)
}

func party(side string) el {
	return choice(account(side+"_account"), person(side+"_person", 1), entity(side+"_entity"))
}

func foreign(side string) el {
	return group(side+"_foreign_currency", 0, 1,
		leaf("foreign_currency_code", 1, currencyCode),
		leaf("foreign_amount", 1, amount),
		leaf("foreign_exchange_rate", 1, rate))
}

func from(name string) el {
	return group(name, 1, 1, leaf("from_funds_code", 1, oneOf(FundsCodes...)), foreign("from"), party("from"),
		leaf("from_country", 1, country))
}

func to(name string) el {
	return group(name, 1, 1, leaf("to_funds_code", 1, oneOf(FundsCodes...)), foreign("to"), party("to"),
		leaf("to_country", 1, country))
}

var transactionEl = group("transaction", 0, 0,
	leaf("transactionnumber", 1, maxLen(50)),
	leaf("internal_ref_number", 0, maxLen(50)),
	leaf("transaction_location", 0, maxLen(255)),
	leaf("transaction_description", 0, maxLen(4000)),
	leaf("date_transaction", 1, dateTime),
	leaf("transmode_code", 1, oneOf(transmodeList()...)),
	leaf("amount_local", 1, amount),
	choice(from("t_from_my_client"), from("t_from")),
	choice(to("t_to_my_client"), to("t_to")),
	leaf("comments", 0, maxLen(4000)),
)

var activityEl = group("activity", 0, 1,
	group("report_parties", 1, 1, group("report_party", 1, 0,
		choice(person("person", 1), account("account"), entity("entity")),
		leaf("significance", 0, integer),
		leaf("reason", 0, maxLen(4000)),
		leaf("comments", 0, maxLen(4000)))),
)

// reportEl is the report document.
var reportEl = group("report", 1, 1,
	leaf("rentity_id", 1, integer),
	leaf("rentity_branch", 0, maxLen(255)),
	leaf("submission_code", 1, oneOf(SubmissionCodes...)),
	leaf("report_code", 1, oneOf(Types...)),
	leaf("entity_reference", 0, maxLen(255)),
	leaf("fiu_ref_number", 0, maxLen(255)),
	leaf("submission_date", 1, dateTime),
	leaf("currency_code_local", 1, oneOf("NGN")),
	person("reporting_person", 1),
	leaf("reason", 0, maxLen(4000)),
	leaf("action", 0, maxLen(4000)),
	transactionEl,
	activityEl,
	group("report_indicators", 0, 1, el{name: "indicator", min: 1, max: 0, text: maxLen(25)}),
)

// node is a parsed element.
type node struct {
	name     string
	text     string
	children []*node
}

func parse(doc []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	var stack []*node
	var root *node
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name.Local}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			} else if root == nil {
				root = n
			} else {
				return nil, fmt.Errorf("more than one root element")
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

// CheckXML checks a goAML report document against the schema and returns every problem with
// the path of the element it is about; nil when the document is valid.
func CheckXML(doc []byte) []apperr.FieldError {
	root, err := parse(doc)
	if err != nil {
		return []apperr.FieldError{{Field: "report", Message: "not well-formed XML: " + err.Error()}}
	}
	if root.name != "report" {
		return []apperr.FieldError{{Field: root.name, Message: "the root element must be report"}}
	}
	var errs []apperr.FieldError
	checkNode(reportEl, root, "report", &errs)
	return errs
}

// checkNode checks n (an instance of e) at path.
func checkNode(e el, n *node, path string, errs *[]apperr.FieldError) {
	if e.text != nil {
		if len(n.children) > 0 {
			*errs = append(*errs, apperr.FieldError{Field: path, Message: "must not have child elements"})
			return
		}
		if msg := e.text(strings.TrimSpace(n.text)); msg != "" {
			*errs = append(*errs, apperr.FieldError{Field: path, Message: msg})
		}
		return
	}
	i := matchSeq(e.children, n.children, path, errs)
	if i < len(n.children) {
		*errs = append(*errs, apperr.FieldError{Field: path + "/" + n.children[i].name,
			Message: "unexpected element here (wrong order, or not allowed in " + e.name + ")"})
	}
}

// matchSeq matches the sequence seq against the children starting at 0 and returns how many
// children it consumed.
func matchSeq(seq []el, kids []*node, path string, errs *[]apperr.FieldError) int {
	i := 0
	for _, c := range seq {
		i = matchOne(c, kids, i, path, errs)
	}
	return i
}

// matchOne consumes the occurrences of c from kids[i:] and returns the new position.
func matchOne(c el, kids []*node, i int, path string, errs *[]apperr.FieldError) int {
	if c.choice {
		if i < len(kids) {
			for _, alt := range c.children {
				if kids[i].name == alt.name {
					return matchOne(el{name: alt.name, min: 1, max: 1, children: alt.children, text: alt.text}, kids, i, path, errs)
				}
			}
		}
		names := make([]string, len(c.children))
		for k, alt := range c.children {
			names[k] = alt.name
		}
		*errs = append(*errs, apperr.FieldError{Field: path + "/" + names[0],
			Message: "one of " + strings.Join(names, ", ") + " is required here"})
		return i
	}
	n := 0
	for i < len(kids) && kids[i].name == c.name && (c.max == 0 || n < c.max) {
		p := path + "/" + c.name
		if c.max != 1 {
			p = fmt.Sprintf("%s[%d]", p, n)
		}
		checkNode(c, kids[i], p, errs)
		i++
		n++
	}
	if n < c.min {
		*errs = append(*errs, apperr.FieldError{Field: path + "/" + c.name, Message: "is required"})
	}
	return i
}
