package xmllint_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// reportTypes are the reports of each type complyd builds, from the same facts as
// TestEveryReportTypeValidates, under the code list codes.
func reportTypes(codes reports.CodeList) map[string]*reports.Doc {
	s := settings()
	s.CodeList = codes
	correction := report(reports.TypeCTR, "AML-001")
	correction.CorrectsReportID, correction.CorrectsReference = "rpt_old", "NFIU-2026-000123"
	sanctioned := report(reports.TypeSTR)
	return map[string]*reports.Doc{
		"cash CTR":      reports.Build(report(reports.TypeCTR, "AML-001"), []reports.Transaction{cashTx()}, s, at),
		"transfer CTR":  reports.Build(report(reports.TypeCTR, "AML-002"), []reports.Transaction{transferTx()}, s, at),
		"FTR":           reports.Build(report(reports.TypeFTR, "AML-005"), []reports.Transaction{wireTx()}, s, at),
		"STR":           reports.Build(report(reports.TypeSTR, "AML-003"), []reports.Transaction{cashTx(), transferTx(), wireTx()}, s, at),
		"sanctions STR": reports.Build(sanctioned, []reports.Transaction{transferTx()}, s, at),
		"SAR":           reports.Build(report(reports.TypeSAR, "AML-004"), nil, s, at),
		"correction":    reports.Build(correction, []reports.Transaction{cashTx()}, s, at),
	}
}

// publicLookups is a code list of the public 5.0.1 schema's own enumerations (testdata), the
// way a tenant loads its FIU's lookup export.
func publicLookups(t *testing.T) reports.CodeList {
	t.Helper()
	f, err := os.Open("testdata/public-5.0.1-lookups.csv")
	require.NoError(t, err)
	defer f.Close()
	cl, err := reports.ParseCodeList(f)
	require.NoError(t, err)
	return cl
}

// fullSchema runs xmllint on doc against the unmodified shared 5.0.1 schema, enumerations and
// all, and returns its errors ("" when the document is valid).
func fullSchema(t *testing.T, doc []byte) string {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil && os.Getenv("CI") == "" {
		t.Skip("xmllint is not installed (scripts/install-test-tools.sh)")
	}
	schema := sharedSchema
	if _, err := os.Stat(schema); err != nil {
		if os.Getenv("CI") != "" || os.Getenv("COMPLYD_REQUIRE_DATA") != "" {
			require.NoError(t, err)
		}
		schema = "../reports/goaml/goAMLSchema-5.0.1.xsd" // the same bytes (TestEmbeddedSchemaIsTheSharedOne)
	}
	cmd := exec.Command("xmllint", "--noout", "--nonet", "--schema", schema, "-")
	cmd.Stdin = bytes.NewReader(doc)
	out, err := cmd.CombinedOutput()
	if err == nil {
		return ""
	}
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	require.Equal(t, 3, exit.ExitCode(), "%s", out)
	return string(out)
}

// TestEveryReportTypeValidatesInFull: with the tenant's code list loaded from the public
// schema's own lookups, every report type complyd builds is valid against the unmodified
// shared 5.0.1 schema, enumerations included: the code list reaches every coded element the
// schema enumerates (report code and indicators too), and the structure is the schema's.
func TestEveryReportTypeValidatesInFull(t *testing.T) {
	t.Parallel()
	v := validator(t, reports.PublicSchema)
	for name, d := range reportTypes(publicLookups(t)) {
		t.Run(name, func(t *testing.T) {
			errs, xml := validate(t, v, d)
			require.Empty(t, errs, xml)
			require.Empty(t, fullSchema(t, []byte(xml)), xml)
		})
	}
}

// TestCodeCheckIsTheSchemasEnumerations: with complyd's default table, the full schema
// rejects a report only for enumeration facets, and exactly at the elements the code check
// names against the public schema's lookups: stripping the enumerations loses no check.
func TestCodeCheckIsTheSchemasEnumerations(t *testing.T) {
	t.Parallel()
	lookups := publicLookups(t)
	for name, d := range reportTypes(reports.CodeList{}) {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, d.Encode(&buf))
			out := fullSchema(t, buf.Bytes())
			require.NotEmpty(t, out, "BUS and complyd's indicators are not the public schema's codes")
			var schemaLines []string
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				if strings.HasSuffix(l, "fails to validate") {
					continue
				}
				require.Contains(t, l, "[facet 'enumeration']", "only codes differ: %s", l)
				n, _, _ := strings.Cut(strings.TrimPrefix(l, "-:"), ":")
				schemaLines = append(schemaLines, n)
			}
			var codeLines []string
			lines := strings.Split(buf.String(), "\n")
			for _, e := range reports.CheckCodes(buf.Bytes(), lookups) {
				// The element's line: its path's last name, first at or after the previous one.
				name := e.Field[strings.LastIndex(e.Field, "/")+1:]
				name, _, _ = strings.Cut(name, "[")
				from := 0
				if len(codeLines) > 0 {
					from, _ = strconv.Atoi(codeLines[len(codeLines)-1])
				}
				for i := from; i < len(lines); i++ {
					if strings.Contains(lines[i], "<"+name+">") {
						codeLines = append(codeLines, strconv.Itoa(i+1))
						break
					}
				}
			}
			require.Equal(t, schemaLines, codeLines, "%s\n%s", out, buf.String())
		})
	}
}

// TestStructureOnlyWhateverThePrefix: an FIU schema that binds XML Schema to xsd: (or to the
// default namespace) loses its enumerations too, and keeps every other facet.
func TestStructureOnlyWhateverThePrefix(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"xs:", "xsd:", ""} {
		t.Run("prefix "+p, func(t *testing.T) {
			t.Parallel()
			decl := `xmlns:` + strings.TrimSuffix(p, ":") + `="http://www.w3.org/2001/XMLSchema"`
			if p == "" {
				decl = `xmlns="http://www.w3.org/2001/XMLSchema"`
			}
			xsd := strings.NewReplacer("P:", p, "DECL", decl).Replace(`<?xml version="1.0"?>
<P:schema DECL>
  <P:element name="report">
    <P:complexType><P:sequence>
      <P:element name="contact_type"><P:simpleType><P:restriction base="P:string">
        <P:maxLength value="3"/>
        <P:enumeration value="1"/>
        <P:enumeration value="2"><P:annotation><P:documentation>Business</P:documentation></P:annotation></P:enumeration>
      </P:restriction></P:simpleType></P:element>
    </P:sequence></P:complexType>
  </P:element>
</P:schema>
`)
			stripped := string(reports.StructureOnly([]byte(xsd)))
			require.NotContains(t, stripped, "enumeration")
			require.Contains(t, stripped, `<`+p+`maxLength value="3"/>`)
			v := validator(t, []byte(xsd))
			problems, err := v.Validate(context.Background(), "", []byte("<report>\n<contact_type>BUS</contact_type>\n</report>\n"))
			require.NoError(t, err)
			require.Empty(t, problems, "a code is the code list's, not the structure's")
			problems, err = v.Validate(context.Background(), "", []byte("<report>\n<contact_type>BUSY</contact_type>\n</report>\n"))
			require.NoError(t, err)
			require.Len(t, problems, 1, "the length is the structure's")
			require.Equal(t, 2, problems[0].Line)
		})
	}
}

// TestStructureOnlyRemovesOnlyEnumerations: the public schema without its enumerations is the
// same document, token for token, as the public schema with its enumeration elements skipped.
func TestStructureOnlyRemovesOnlyEnumerations(t *testing.T) {
	t.Parallel()
	tokens := func(b []byte, skipEnums bool) []string {
		d := xml.NewDecoder(bytes.NewReader(b))
		var out []string
		skip := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				return out
			}
			require.NoError(t, err)
			switch x := tok.(type) {
			case xml.StartElement:
				if skip > 0 || skipEnums && x.Name.Local == "enumeration" {
					skip++
					continue
				}
				out = append(out, fmt.Sprintf("<%s %v", x.Name.Local, x.Attr))
			case xml.EndElement:
				if skip > 0 {
					skip--
					continue
				}
				out = append(out, "</"+x.Name.Local)
			case xml.CharData:
				if s := strings.TrimSpace(string(x)); s != "" && skip == 0 {
					out = append(out, s)
				}
			}
		}
	}
	stripped := reports.StructureOnly(reports.PublicSchema)
	require.Equal(t, 793, bytes.Count(reports.PublicSchema, []byte("<xs:enumeration")))
	require.Zero(t, bytes.Count(stripped, []byte("enumeration")))
	require.Equal(t, tokens(reports.PublicSchema, true), tokens(stripped, false))
}
