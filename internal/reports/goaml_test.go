package reports_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/reports"
)

func settings() reports.Settings {
	return reports.Settings{RentityID: "4711", RentityBranch: "Head office", InstitutionName: "Test Bank Plc", InstitutionCode: "999",
		ReportingPerson: reports.Person{FirstName: "Ngozi", LastName: "Eze", Email: "mlro@bank.test", Phone: "+2348012345678", Occupation: "MLRO"},
		Location:        reports.Address{Address: "1 Marina", City: "Lagos", State: "Lagos", CountryCode: "NG"}}
}

var at = time.Date(2026, 11, 24, 10, 30, 0, 0, time.UTC)

func cashTx() reports.Transaction {
	return reports.Transaction{ID: "0190f0a2-0000-7000-8000-000000000001", ExternalID: "TXN-1", Type: "CASH_DEPOSIT", Channel: "BRANCH",
		Amount: decimal.RequireFromString("5000000"), Currency: "NGN", AmountNGN: decimal.RequireFromString("5000000"),
		SenderAccountNumber: "0123456789", SenderName: "Ada Chioma Obi", SenderBVN: "22212345678", Timestamp: at, Rules: []string{"AML-001"}}
}

func wireTx() reports.Transaction {
	return reports.Transaction{ID: "0190f0a2-0000-7000-8000-000000000002", ExternalID: "TXN-2", Type: "INTERNATIONAL_TRANSFER",
		Channel: "INTERNET_BANKING", Amount: decimal.RequireFromString("12000"), Currency: "USD", AmountNGN: decimal.RequireFromString("18000000"),
		SenderAccountNumber: "0123456789", SenderName: "Ada Obi", ReceiverAccountNumber: "GB29NWBK60161331926819",
		ReceiverName: "Thames Imports Ltd", ReceiverCountry: "GB", Timestamp: at, Rules: []string{"AML-005"}}
}

func report(typ string) *reports.Report {
	return &reports.Report{ID: "rpt_test" + strings.ToLower(typ), Type: typ, CustomerAccount: "0123456789", CustomerName: "Ada Obi",
		Reason: "Cash lodgements split below the threshold within one day.", Rules: []string{"AML-001", "AML-003"}}
}

// TestDocumentsOfEachTypePass: the documents complyd builds for each report type pass the rules
// of their type and the default code list (their structure: internal/xmllint's tests).
func TestDocumentsOfEachTypePass(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typ string
		txs []reports.Transaction
	}{
		{reports.TypeCTR, []reports.Transaction{cashTx()}},
		{reports.TypeSTR, []reports.Transaction{cashTx(), wireTx()}},
		{reports.TypeFTR, []reports.Transaction{wireTx()}},
		{reports.TypeSAR, nil},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			t.Parallel()
			d := reports.Build(report(tc.typ), tc.txs, settings(), at)
			require.Empty(t, d.Check())
			var buf bytes.Buffer
			require.NoError(t, d.Encode(&buf))
			require.Contains(t, buf.String(), "<report_code>"+tc.typ+"</report_code>")
			require.Contains(t, buf.String(), "<currency_code_local>NGN</currency_code_local>")
		})
	}
}

// TestBrokenDocumentsNameTheField: a value not in the code list, or a document against the rules
// of its type, is named by the path of its element.
func TestBrokenDocumentsNameTheField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		typ   string
		txs   []reports.Transaction
		mut   func(*reports.Doc)
		field string
	}{
		{"unknown transmode", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.Transactions[0].TransmodeCode = "Z" },
			"report/transaction[0]/transmode_code"},
		{"bad funds code", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.Transactions[0].From.FundsCode = "Q" },
			"report/transaction[0]/t_from/from_funds_code"},
		{"bad country", "FTR", []reports.Transaction{wireTx()}, func(d *reports.Doc) { d.Transactions[0].To.Country = "UK" },
			"report/transaction[0]/t_to/to_country"},
		{"bad currency", "FTR", []reports.Transaction{wireTx()}, func(d *reports.Doc) { d.Transactions[0].To.Foreign.Code = "USX" },
			"report/transaction[0]/t_to/to_foreign_currency/foreign_currency_code"},
		{"bad gender", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.ReportingPerson.Gender = "X" },
			"report/reporting_person/gender"},
		{"unknown contact type", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.ReportingPerson.Phones.Phone[0].ContactType = "9" },
			"report/reporting_person/phones/phone[0]/tph_contact_type"},
		{"unknown indicator", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.Indicators.Indicator = append(d.Indicators.Indicator, "NOPE") },
			"report/report_indicators/indicator[2]"},
		{"CTR without transactions", "CTR", nil, func(*reports.Doc) {}, "report/transaction"},
		{"SAR without grounds", "SAR", nil, func(d *reports.Doc) { d.Reason = "odd" }, "report/reason"},
		{"FTR with no foreign side", "FTR", []reports.Transaction{cashTx()}, func(*reports.Doc) {}, "report/transaction[0]/t_to/to_country"},
		{"local currency not NGN", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.CurrencyCodeLocal = "USD" },
			"report/currency_code_local"},
		{"no indicator", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.Indicators.Indicator = nil },
			"report/report_indicators"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := reports.Build(report(tc.typ), tc.txs, settings(), at)
			tc.mut(d)
			var fields []string
			for _, f := range d.Check() {
				fields = append(fields, f.Field)
			}
			require.Contains(t, fields, tc.field)
		})
	}
}

// TestLoadedCodeListReplacesTheDefault: a tenant's loaded list is the one checked (the public
// schema's contact types 1..4 refuse BUS), and a list it did not load keeps the default.
func TestLoadedCodeListReplacesTheDefault(t *testing.T) {
	t.Parallel()
	cl, err := reports.ParseCodeList(strings.NewReader("list,code,description,use\ncontact_type,1,Private,\ncontact_type,2,Business,default\n"))
	require.NoError(t, err)
	s := settings()
	s.CodeList = cl
	d := reports.Build(report("CTR"), []reports.Transaction{cashTx()}, s, at)
	require.Empty(t, d.Check())
	require.Equal(t, "2", d.ReportingPerson.Phones.Phone[0].ContactType, "the loaded list's default is written")
	d.ReportingPerson.Phones.Phone[0].ContactType = "BUS"
	errs := d.Check()
	require.Len(t, errs, 1)
	require.Equal(t, "report/reporting_person/phones/phone[0]/tph_contact_type", errs[0].Field)
	require.Contains(t, errs[0].Message, `"BUS" is not in the code list contact_type`)

	_, err = reports.ParseCodeList(strings.NewReader("list,code,description\ncolour,1,Red\ncontact_type,,x\n"))
	e, ok := apperr.As(err)
	require.True(t, ok)
	require.Equal(t, apperr.Validation, e.Code)
	require.Len(t, e.Details, 2)
	require.Equal(t, "line 2", e.Details[0].Field)
}

// TestNarrativeIsDeterministic: the same facts give the same text, with who, what, when,
// amounts, rules and case notes.
func TestNarrativeIsDeterministic(t *testing.T) {
	t.Parallel()
	cash := cashTx()
	cash.Timestamp = at.Add(-time.Hour)
	f := reports.Facts{Type: reports.TypeSTR, CustomerName: "Ada Obi", CustomerAccount: "0123456789",
		Transactions: []reports.Transaction{wireTx(), cash}, Rules: []string{"AML-003"}, CaseNumber: "CASE-2026-00042",
		CaseTitle: "Structuring", CaseNotes: []string{"Teller confirmed the split"}}
	got := reports.Narrative(f)
	require.Equal(t, got, reports.Narrative(f))
	require.Equal(t, "This suspicious transaction report concerns Ada Obi (account 0123456789). Ada Obi carried out 2 transactions "+
		"totalling NGN 23,000,000.00 between 24 November 2026 10:30 and 24 November 2026 11:30 (Lagos time): cash deposit TXN-1 "+
		"of NGN 5,000,000.00 (NGN 5,000,000.00); international transfer TXN-2 of USD 12,000.00 (NGN 18,000,000.00) to "+
		"Thames Imports Ltd GB29NWBK60161331926819 in GB. Rules triggered: AML-003. Case CASE-2026-00042 (Structuring). Case note: Teller confirmed the split.", got)
}

// TestLoadedCodeListCodesReportsAndIndicators: the report code, the submission code and the
// indicators of rules and sanctions matches are the loaded list's codes for their use; a list
// whose codes carry no use still takes the report type as its code, and a rule the loaded
// list does not map keeps the default indicator, which that list then names as unknown.
func TestLoadedCodeListCodesReportsAndIndicators(t *testing.T) {
	t.Parallel()
	cl, err := reports.ParseCodeList(strings.NewReader("list,code,description,use\n" +
		"report_code,CTR,Currency transaction report,\nreport_code,IFT,International funds transfer,FTR\n" +
		"submission_code,EL,Electronic,electronic\n" +
		"indicator,SUS-3,Structuring,AML-003\nindicator,SAN,Sanctions match,sanctions\nindicator,LCT,Large cash,AML-001\n"))
	require.NoError(t, err)
	s := settings()
	s.CodeList = cl
	hit := wireTx()
	hit.Hits = []reports.Hit{{Party: "RECEIVER", List: "OFAC SDN", EntryID: "1", Name: "THAMES", MatchedName: "Thames Imports Ltd", Score: 0.9}}
	d := reports.Build(report("FTR"), []reports.Transaction{hit}, s, at)
	require.Equal(t, "IFT", d.ReportCode)
	require.Equal(t, "EL", d.SubmissionCode)
	require.Equal(t, []string{"LCT", "SUS-3", "SAN"}, d.Indicators.Indicator)
	require.Empty(t, d.Check(), "an FTR coded IFT is still checked as an FTR")

	d = reports.Build(report("CTR"), []reports.Transaction{cashTx()}, s, at)
	require.Equal(t, "CTR", d.ReportCode)

	r := report("CTR")
	r.Rules = []string{"AML-002"}
	d = reports.Build(r, []reports.Transaction{cashTx()}, s, at)
	require.Equal(t, []string{"CTR-TRF"}, d.Indicators.Indicator)
	errs := d.Check()
	require.Len(t, errs, 1)
	require.Equal(t, "report/report_indicators/indicator[0]", errs[0].Field)
}

// TestNarrativeStatesTheCaseAndItsHits: a report drafted from a case says what the case says
// (its description, beside its title and notes) and which party a sanctions list matched, with
// the list, the entry and the score.
func TestNarrativeStatesTheCaseAndItsHits(t *testing.T) {
	t.Parallel()
	tx := wireTx()
	tx.Hits = []reports.Hit{{Party: "RECEIVER", List: "OFAC-SDN", EntryID: "36123", Name: "THAMES IMPORTS LIMITED", MatchedName: "Thames Imports Ltd", Score: 0.93}}
	got := reports.Narrative(reports.Facts{Type: reports.TypeSTR, CustomerName: "Ada Obi", CustomerAccount: "0123456789",
		Transactions: []reports.Transaction{tx}, CaseNumber: "CASE-2026-00042", CaseTitle: "Sanctions match",
		CaseDescription: "Receiver matched the OFAC list", CaseNotes: []string{"Payment held"}})
	require.Contains(t, got, ` Sanctions match on TXN-2: the receiver "Thames Imports Ltd" matched list OFAC-SDN, entry 36123 (THAMES IMPORTS LIMITED), score 0.93.`)
	require.Contains(t, got, " Case CASE-2026-00042 (Sanctions match). Receiver matched the OFAC list. Case note: Payment held.")
}

// TestSenderInstitutionOnlyAsKnown: the sender's account is the tenant's institution only when
// the transaction names no other bank: a sender bank code that is another bank's is reported
// with that code and "Not known", never under the tenant's name.
func TestSenderInstitutionOnlyAsKnown(t *testing.T) {
	t.Parallel()
	tx := wireTx()
	d := reports.Build(report("FTR"), []reports.Transaction{tx}, settings(), at)
	require.Equal(t, "Test Bank Plc", d.Transactions[0].From.Account.InstitutionName)
	require.Equal(t, "999", d.Transactions[0].From.Account.InstitutionCode)

	tx.SenderBankCode = "058"
	d = reports.Build(report("FTR"), []reports.Transaction{tx}, settings(), at)
	require.Equal(t, "Not known (bank code 058)", d.Transactions[0].From.Account.InstitutionName)
	require.Equal(t, "058", d.Transactions[0].From.Account.InstitutionCode)
	require.Empty(t, d.Check())
}
