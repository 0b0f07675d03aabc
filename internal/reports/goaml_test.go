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
	return reports.Settings{RentityID: "4711", InstitutionName: "Test Bank Plc", InstitutionCode: "999",
		ReportingPerson: reports.Person{FirstName: "Ngozi", LastName: "Eze", Email: "mlro@bank.test", Phone: "+2348012345678", Occupation: "MLRO"}}
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

// TestDocumentsOfEachTypePass: the documents complyd builds for each report type pass the checks.
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
			require.NoError(t, d.Export(&buf))
			require.Contains(t, buf.String(), "<report_code>"+tc.typ+"</report_code>")
			require.Contains(t, buf.String(), "<currency_code_local>NGN</currency_code_local>")
		})
	}
}

// TestBrokenDocumentsNameTheField: each broken document is refused with the path of the
// broken element (and nothing is written).
func TestBrokenDocumentsNameTheField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		typ   string
		txs   []reports.Transaction
		mut   func(*reports.Doc)
		field string
	}{
		{"missing entity id", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.RentityID = "" }, "report/rentity_id"},
		{"non-numeric entity id", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.RentityID = "AB12" }, "report/rentity_id"},
		{"missing reporting person", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.ReportingPerson.LastName = "" },
			"report/reporting_person/last_name"},
		{"bad email", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.ReportingPerson.Email = "mlro at bank" },
			"report/reporting_person/email"},
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
		{"account too long", "CTR", []reports.Transaction{cashTx()},
			func(d *reports.Doc) { d.Transactions[0].ToMyClient.Account.Account = strings.Repeat("1", 51) },
			"report/transaction[0]/t_to_my_client/to_account/account"},
		{"no to side", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.Transactions[0].ToMyClient = nil },
			"report/transaction[0]/t_to_my_client"},
		{"amount with three decimals", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.Transactions[0].AmountLocal = "10.005" },
			"report/transaction[0]/amount_local"},
		{"date without time", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.Transactions[0].Date = "2026-11-24" },
			"report/transaction[0]/date_transaction"},
		{"CTR without transactions", "CTR", nil, func(*reports.Doc) {}, "report/transaction"},
		{"SAR without grounds", "SAR", nil, func(d *reports.Doc) { d.Reason = "odd" }, "report/reason"},
		{"FTR with no foreign side", "FTR", []reports.Transaction{cashTx()}, func(*reports.Doc) {}, "report/transaction[0]/t_to/to_country"},
		{"local currency not NGN", "CTR", []reports.Transaction{cashTx()}, func(d *reports.Doc) { d.CurrencyCodeLocal = "USD" },
			"report/currency_code_local"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := reports.Build(report(tc.typ), tc.txs, settings(), at)
			tc.mut(d)
			var buf bytes.Buffer
			err := d.Export(&buf)
			require.Equal(t, apperr.Validation, apperr.CodeOf(err))
			require.Zero(t, buf.Len(), "nothing is written")
			e, _ := apperr.As(err)
			var fields []string
			for _, f := range e.Details {
				fields = append(fields, f.Field)
			}
			require.Contains(t, fields, tc.field, "%v", e.Details)
		})
	}
}

// TestCheckXMLOrder: hand-written documents with elements out of order or unknown are refused
// at the element, as an XSD-validating parser would.
func TestCheckXMLOrder(t *testing.T) {
	t.Parallel()
	d := reports.Build(report("CTR"), []reports.Transaction{cashTx()}, settings(), at)
	var buf bytes.Buffer
	require.NoError(t, d.Encode(&buf))
	valid := buf.String()
	require.Empty(t, reports.CheckXML([]byte(valid)))

	swapped := strings.Replace(valid, "<submission_code>E</submission_code>\n  <report_code>CTR</report_code>",
		"<report_code>CTR</report_code>\n  <submission_code>E</submission_code>", 1)
	require.NotEqual(t, valid, swapped)
	errs := reports.CheckXML([]byte(swapped))
	require.NotEmpty(t, errs)
	require.Equal(t, "report/submission_code", errs[0].Field)

	unknown := strings.Replace(valid, "<reason>", "<colour>red</colour>\n  <reason>", 1)
	errs = reports.CheckXML([]byte(unknown))
	require.NotEmpty(t, errs)
	require.Equal(t, "report/colour", errs[0].Field)

	require.Equal(t, "report", reports.CheckXML([]byte("<report><rentity_id>1</report>"))[0].Field)
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
