package xmllint_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/xmllint"
)

// sharedSchema is the public goAML 5.0.1 schema in shared/ beside the repository (the
// reference copy; reports.PublicSchema embeds the same bytes).
const sharedSchema = "../../../shared/data/goaml/goAMLSchema.xsd"

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

func transferTx() reports.Transaction {
	return reports.Transaction{ID: "0190f0a2-0000-7000-8000-000000000003", ExternalID: "TXN-3", Type: "TRANSFER", Channel: "MOBILE",
		Amount: decimal.RequireFromString("12000000"), Currency: "NGN", AmountNGN: decimal.RequireFromString("12000000"),
		SenderAccountNumber: "0123456789", SenderName: "Ada Obi", ReceiverAccountNumber: "0987654321", ReceiverName: "Bola Ade",
		ReceiverBankCode: "058", Timestamp: at, Rules: []string{"AML-002"},
		Hits: []reports.Hit{{Party: "RECEIVER", List: "OFAC SDN", EntryID: "12345", Name: "BOLA ADE", MatchedName: "Bola Ade", Score: 0.97}}}
}

func wireTx() reports.Transaction {
	return reports.Transaction{ID: "0190f0a2-0000-7000-8000-000000000002", ExternalID: "TXN-2", Type: "INTERNATIONAL_TRANSFER",
		Channel: "INTERNET_BANKING", Amount: decimal.RequireFromString("12000"), Currency: "USD", AmountNGN: decimal.RequireFromString("18000000"),
		SenderAccountNumber: "0123456789", SenderName: "Ada Obi", ReceiverAccountNumber: "GB29NWBK60161331926819",
		ReceiverName: "Thames Imports Ltd", ReceiverCountry: "GB", Timestamp: at, Rules: []string{"AML-005"}}
}

func report(typ string, rules ...string) *reports.Report {
	return &reports.Report{ID: "rpt_test", Type: typ, CustomerAccount: "0123456789", CustomerName: "Ada Obi",
		Narrative: "Cash lodgements split below the threshold within one day.", Action: "Account placed on post-no-debit.", Rules: rules}
}

func validator(t *testing.T, xsd []byte) *xmllint.Validator {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil && os.Getenv("CI") == "" {
		t.Skip("xmllint is not installed (scripts/install-test-tools.sh)")
	}
	v, err := xmllint.New("", []xmllint.Schema{{XSD: xsd}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = v.Close() })
	return v
}

func validate(t *testing.T, v reports.SchemaValidator, d *reports.Doc) ([]apperr.FieldError, string) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, d.Encode(&buf))
	errs, err := reports.Validate(context.Background(), v, "", d, buf.Bytes())
	require.NoError(t, err)
	return errs, buf.String()
}

// TestEmbeddedSchemaIsTheSharedOne: the binary's public schema is the reference copy.
func TestEmbeddedSchemaIsTheSharedOne(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(sharedSchema)
	if os.IsNotExist(err) && os.Getenv("CI") == "" && os.Getenv("COMPLYD_REQUIRE_DATA") == "" {
		t.Skip("no shared/ beside the repository")
	}
	require.NoError(t, err)
	require.Equal(t, b, reports.PublicSchema)
}

// TestEveryReportTypeValidates: each kind of report complyd builds passes the goAML 5.0.1
// schema in structure (enumerations stripped) and the default code list in codes.
func TestEveryReportTypeValidates(t *testing.T) {
	t.Parallel()
	v := validator(t, reports.PublicSchema)
	correction := report(reports.TypeCTR, "AML-001")
	correction.CorrectsReportID, correction.CorrectsReference = "rpt_old", "NFIU-2026-000123"
	for _, tc := range []struct {
		name string
		r    *reports.Report
		txs  []reports.Transaction
	}{
		{"cash CTR", report(reports.TypeCTR, "AML-001"), []reports.Transaction{cashTx()}},
		{"transfer CTR", report(reports.TypeCTR, "AML-002"), []reports.Transaction{transferTx()}},
		{"FTR", report(reports.TypeFTR, "AML-005"), []reports.Transaction{wireTx()}},
		{"STR", report(reports.TypeSTR, "AML-003"), []reports.Transaction{cashTx(), transferTx(), wireTx()}},
		{"SAR", report(reports.TypeSAR, "AML-004"), nil},
		{"correction", correction, []reports.Transaction{cashTx()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := reports.Build(tc.r, tc.txs, settings(), at)
			errs, xml := validate(t, v, d)
			require.Empty(t, errs, xml)
		})
	}
}

// TestTodaysStructuralErrorsAreNamed: the errors the issue found are named by element: a
// phone without its country prefix, a reason before the location, and a missing branch.
func TestTodaysStructuralErrorsAreNamed(t *testing.T) {
	t.Parallel()
	v := validator(t, reports.PublicSchema)
	d := reports.Build(report(reports.TypeCTR, "AML-001"), []reports.Transaction{cashTx()}, settings(), at)
	var buf bytes.Buffer
	require.NoError(t, d.Encode(&buf))
	good := buf.String()
	for _, tc := range []struct {
		name, from, to, field string
	}{
		{"phone without prefix", "<tph_country_prefix>234</tph_country_prefix>", "", "report/reporting_person/phones/phone[0]/tph_number"},
		{"reason before location", "<location>", "<reason>x</reason><location>", "report/reason"},
		{"no branch", "<rentity_branch>Head office</rentity_branch>", "<rentity_branch></rentity_branch>", "report/rentity_branch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bad := bytes.Replace([]byte(good), []byte(tc.from), []byte(tc.to), 1)
			require.NotEqual(t, good, string(bad))
			problems, err := v.Validate(context.Background(), "", bad)
			require.NoError(t, err)
			require.NotEmpty(t, problems)
			errs, err := reports.Validate(context.Background(), v, "", d, bad)
			require.NoError(t, err)
			var fields []string
			for _, e := range errs {
				fields = append(fields, e.Field)
			}
			require.Contains(t, fields, tc.field, "%v", errs)
		})
	}
}
