package iso20022

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

// Sample reads a testdata message with its {{ID}} placeholders replaced by id.
func sample(t testing.TB, name, id string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	return []byte(strings.ReplaceAll(string(b), "{{ID}}", id))
}

// fieldErrors returns the VALIDATION_ERROR's details as "field: message" lines.
func fieldErrors(t testing.TB, err error) []string {
	t.Helper()
	e, ok := apperr.As(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, apperr.Validation, e.Code)
	var out []string
	for _, d := range e.Details {
		out = append(out, d.Field+": "+d.Message)
	}
	return out
}

func TestParseMapsEveryParty(t *testing.T) {
	t.Parallel()
	m, err := Parse(sample(t, "pacs008_09_batch.xml", "A"))
	require.NoError(t, err)
	require.Equal(t, "pacs.008.001.09", m.Definition.Name)
	require.Equal(t, "MSG-A", m.ID)
	require.Len(t, m.Transactions, 2)

	tx, err := m.Transaction(m.Transactions[0])
	require.NoError(t, err)
	require.Equal(t, "E2E-A-1", tx.ExternalID)
	require.Equal(t, "1250000.5", tx.Amount.String())
	require.Equal(t, "NGN", tx.Currency)
	require.Equal(t, "TRANSFER", tx.Type)
	require.Equal(t, "0123456789", tx.SenderAccountNumber)
	require.Equal(t, "Chukwuemeka Adeyemi", tx.SenderName)
	require.Equal(t, "22212345678", tx.SenderBVN)
	require.Equal(t, "000232", tx.SenderBankCode)
	require.Equal(t, "Ngozi Okonkwo", tx.ReceiverName)
	require.Equal(t, "0987654321", tx.ReceiverAccountNumber)
	require.Equal(t, "NG", tx.ReceiverCountry)
	require.Equal(t, time.Date(2026, 12, 1, 8, 30, 0, 0, time.UTC), tx.Timestamp)
	p := tx.Payment
	require.Equal(t, "1250000.50", p.Amount, "the amount as the message wrote it")
	require.Equal(t, "GDDS", p.Purpose)
	require.Equal(t, []string{"Invoice 2026-118 cement supply", "document INV-2026-118", "reference RF18539007547034"}, p.Remittance)
	require.Equal(t, "TX-A-1", p.TxID)
	require.Equal(t, "8a562c67-ca16-48ba-b074-65581be6f011", p.UETR)
	roles := map[string]screening.PaymentParty{}
	for _, pp := range p.Parties {
		roles[pp.Role] = pp
	}
	require.Len(t, roles, 10)
	require.Equal(t, screening.PartySender, roles[RoleDebtor].ScreenedAs)
	require.Equal(t, []screening.PartyIdentifier{{ID: "22212345678", Scheme: "BVN", Issuer: "NIBSS"}}, roles[RoleDebtor].Identifiers)
	require.Equal(t, []string{"12, Adeola Odeku Street, Lagos, NG"}, roles[RoleDebtor].Address)
	require.Equal(t, "529900T8BM49AURSDO55", roles[RoleUltimateDebtor].LEI)
	require.Equal(t, "Zainab Bello Trading", roles[RoleUltimateCreditor].Name)
	require.Equal(t, "/Document/FIToFICstmrCdtTrf/CdtTrfTxInf[1]/UltmtCdtr", roles[RoleUltimateCreditor].Path)
	require.Equal(t, "Oluwaseun Initiators Limited", roles[RoleInitiatingParty].Name)
	require.Equal(t, "MRDCNGLAXXX", roles[RoleIntermediary+"1"].BIC)
	require.Equal(t, "Sterling Crest Bank", roles[RoleDebtorAgent].Name)
	require.Equal(t, "LHBKNGLAXXX", roles[RoleInstructedAgent].BIC, "from the group header")

	tx2, err := m.Transaction(m.Transactions[1])
	require.NoError(t, err)
	require.Equal(t, "E2E-A-2", tx2.ExternalID)
	require.Equal(t, "250250.25", tx2.Amount.String())
}

func TestParseEachDefinition(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file, def string
		n         int
		typ       string
		check     func(t *testing.T, tx *screening.Transaction)
	}{
		{"pacs008_08_single.xml", "pacs.008.001.08", 1, "INTERNATIONAL_TRANSFER", func(t *testing.T, tx *screening.Transaction) {
			require.Equal(t, "GB33BUKB20201555555555", tx.SenderAccountNumber, "an IBAN is the sender account")
			require.Equal(t, "DE", tx.ReceiverCountry)
			require.Equal(t, "USD", tx.Currency)
		}},
		{"pacs009_09_single.xml", "pacs.009.001.09", 1, "TRANSFER", func(t *testing.T, tx *screening.Transaction) {
			require.Equal(t, "Sterling Crest Bank", tx.SenderName, "an institution debtor by its name")
			require.Equal(t, "Lagos Harbour Bank", tx.ReceiverName)
			require.Equal(t, "INTC", tx.Payment.Purpose)
		}},
		{"pain001_10_batch.xml", "pain.001.001.10", 2, "TRANSFER", func(t *testing.T, tx *screening.Transaction) {
			require.Equal(t, "PMTINF-P", tx.Payment.PaymentInformationID)
			require.Equal(t, "0123456789", tx.SenderAccountNumber, "the payment information's debtor account")
			roles := map[string]bool{}
			for _, p := range tx.Payment.Parties {
				roles[p.Role] = true
			}
			require.True(t, roles[RoleInitiatingParty] && roles[RoleUltimateDebtor] && roles[RoleUltimateCreditor], "%v", roles)
		}},
	} {
		t.Run(c.def, func(t *testing.T) {
			t.Parallel()
			m, err := Parse(sample(t, c.file, "P"))
			require.NoError(t, err)
			require.Equal(t, c.def, m.Definition.Name)
			require.Len(t, m.Transactions, c.n)
			tx, err := m.Transaction(m.Transactions[0])
			require.NoError(t, err)
			require.Equal(t, c.typ, tx.Type)
			c.check(t, tx)
		})
	}
}

// TestParseRefusesHostileMessages: what no payment message needs is refused before mapping.
func TestParseRefusesHostileMessages(t *testing.T) {
	t.Parallel()
	good := string(sample(t, "pacs008_08_single.xml", "H"))
	deep := `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.08">` + strings.Repeat("<a>", 40) +
		strings.Repeat("</a>", 40) + `</Document>`
	wide := `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.08">` + strings.Repeat("<a/>", MaxElements+1) + `</Document>`
	for name, c := range map[string]struct{ body, want string }{
		"doctype": {`<?xml version="1.0"?><!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>`, "document type"},
		"entity":  {strings.Replace(good, "Amaka Nwosu", "&x;", 1), "not well-formed"},
		"billion laughs": {`<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><Document>&lol2;</Document>`,
			"document type"},
		"deep":            {deep, "nests deeper"},
		"wide":            {wide, "more than"},
		"pi":              {strings.Replace(good, "<FIToFICstmrCdtTrf>", "<?php x?><FIToFICstmrCdtTrf>", 1), "processing instruction"},
		"encoding":        {strings.Replace(good, `encoding="UTF-8"`, `encoding="ISO-8859-1"`, 1), "not well-formed"},
		"namespace":       {strings.Replace(good, "pacs.008.001.08", "pacs.008.001.07", 1), "pacs.008.001.07 is not accepted"},
		"no namespace":    {strings.Replace(good, ` xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.08"`, "", 1), "not an ISO 20022"},
		"foreign element": {strings.Replace(good, "<ChrgBr>", `<x:Sig xmlns:x="urn:evil"/><ChrgBr>`, 1), "namespace"},
		"two roots":       {good + "<Document/>", "more than one root"},
		"empty":           {"  ", "empty"},
		"not xml":         {`{"externalId":"x"}`, "text outside the root"},
		"utf8":            {"<Document>\xff</Document>", "UTF-8"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(c.body))
			require.Error(t, err)
			require.Contains(t, strings.Join(fieldErrors(t, err), "\n"), c.want)
		})
	}
}

// TestParseValidatesAsTheSchema: order, cardinality, required elements and patterns, each
// error named by its path.
func TestParseValidatesAsTheSchema(t *testing.T) {
	t.Parallel()
	good := string(sample(t, "pacs008_09_batch.xml", "V"))
	const tx2 = "/Document/FIToFICstmrCdtTrf/CdtTrfTxInf[2]"
	for name, c := range map[string]struct {
		from, to string
		want     string
	}{
		"missing creditor":   {"<Cdtr><Nm>Ifeoma Eze</Nm></Cdtr>", "", tx2 + "/Cdtr: required"},
		"bad BIC":            {"<DbtrAgt><FinInstnId><BICFI>STCRNGLAXXX</BICFI></FinInstnId></DbtrAgt>", "<DbtrAgt><FinInstnId><BICFI>stcr-ng</BICFI></FinInstnId></DbtrAgt>", tx2 + "/DbtrAgt/FinInstnId/BICFI: \"stcr-ng\" does not match"},
		"bad IBAN":           {"<Id><Othr><Id>1122334455</Id></Othr></Id>", "<Id><IBAN>1122</IBAN></Id>", tx2 + "/CdtrAcct/Id/IBAN:"},
		"bad currency":       {`<IntrBkSttlmAmt Ccy="NGN">250250.25</IntrBkSttlmAmt>`, `<IntrBkSttlmAmt Ccy="naira">250250.25</IntrBkSttlmAmt>`, tx2 + "/IntrBkSttlmAmt: Ccy \"naira\""},
		"amount digits":      {`<IntrBkSttlmAmt Ccy="NGN">250250.25</IntrBkSttlmAmt>`, `<IntrBkSttlmAmt Ccy="NGN">1234567890123456789.25</IntrBkSttlmAmt>`, tx2 + "/IntrBkSttlmAmt:"},
		"negative amount":    {`<IntrBkSttlmAmt Ccy="NGN">250250.25</IntrBkSttlmAmt>`, `<IntrBkSttlmAmt Ccy="NGN">-5</IntrBkSttlmAmt>`, tx2 + "/IntrBkSttlmAmt:"},
		"out of order":       {"<ChrgBr>SLEV</ChrgBr>\n      <Dbtr>", "<Dbtr><Nm>X</Nm></Dbtr><ChrgBr>SLEV</ChrgBr>\n      <Dbtr>", tx2 + "/ChrgBr: required"},
		"unknown element":    {"<RmtInf><Ustrd>School fees</Ustrd></RmtInf>", "<RmtInf><Ustrd>School fees</Ustrd></RmtInf><Bogus/>", tx2 + "/Bogus: unexpected element"},
		"too long":           {"<Nm>Ifeoma Eze</Nm>", "<Nm>" + strings.Repeat("x", 141) + "</Nm>", tx2 + "/Cdtr/Nm: must be 1 to 140"},
		"NbOfTxs":            {"<NbOfTxs>2</NbOfTxs>", "<NbOfTxs>3</NbOfTxs>", "/Document/FIToFICstmrCdtTrf/GrpHdr/NbOfTxs: is 3 but the message holds 2"},
		"total":              {`<TtlIntrBkSttlmAmt Ccy="NGN">1500250.75</TtlIntrBkSttlmAmt>`, `<TtlIntrBkSttlmAmt Ccy="NGN">1500250.76</TtlIntrBkSttlmAmt>`, "TtlIntrBkSttlmAmt: is 1500250.76"},
		"duplicate E2E":      {"<EndToEndId>E2E-V-2</EndToEndId>", "<EndToEndId>E2E-V-1</EndToEndId>", tx2 + "/PmtId/EndToEndId: \"E2E-V-1\" is also"},
		"bad UETR":           {"8a562c67-ca16-48ba-b074-65581be6f011", "not-a-uuid", "CdtTrfTxInf[1]/PmtId/UETR:"},
		"bad date-time":      {"2026-12-01T09:30:00.000+01:00", "yesterday", "GrpHdr/CreDtTm:"},
		"two choices":        {"<Purp><Cd>GDDS</Cd></Purp>", "<Purp><Cd>GDDS</Cd><Prtry>X</Prtry></Purp>", "CdtTrfTxInf[1]/Purp: must hold exactly one of Cd, Prtry"},
		"repeated singleton": {"<ChrgBr>SLEV</ChrgBr>\n      <Dbtr>", "<ChrgBr>SLEV</ChrgBr><ChrgBr>SLEV</ChrgBr>\n      <Dbtr>", tx2 + "/ChrgBr[2]: occurs more than once"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			require.Contains(t, good, c.from)
			_, err := Parse([]byte(strings.Replace(good, c.from, c.to, 1)))
			require.Error(t, err)
			require.Contains(t, strings.Join(fieldErrors(t, err), "\n"), c.want)
		})
	}
}

func TestMappingRefusesWhatAScreeningNeeds(t *testing.T) {
	t.Parallel()
	good := string(sample(t, "pacs008_09_batch.xml", "M"))
	m, err := Parse([]byte(strings.Replace(good, `<IntrBkSttlmAmt Ccy="NGN">250250.25</IntrBkSttlmAmt>`,
		`<IntrBkSttlmAmt Ccy="NGN">250250.255</IntrBkSttlmAmt>`, 1)))
	require.Error(t, err, "the total no longer matches")
	_ = m
	b := strings.Replace(good, `250250.25</IntrBkSttlmAmt>`, `250250.255</IntrBkSttlmAmt>`, 1)
	b = strings.Replace(b, `1500250.75</TtlIntrBkSttlmAmt>`, `1500250.755</TtlIntrBkSttlmAmt>`, 1)
	m, err = Parse([]byte(b))
	require.NoError(t, err)
	_, err = m.Transaction(m.Transactions[1])
	require.Contains(t, strings.Join(fieldErrors(t, err), "\n"), "CdtTrfTxInf[2]/IntrBkSttlmAmt: 250250.255 has more than 2 decimal places")

	b = strings.Replace(good, "<DbtrAcct><Id><Othr><Id>0123456789</Id></Othr></Id></DbtrAcct>\n      <DbtrAgt><FinInstnId><BICFI>STCRNGLAXXX</BICFI></FinInstnId></DbtrAgt>",
		"<DbtrAgt><FinInstnId><BICFI>STCRNGLAXXX</BICFI></FinInstnId></DbtrAgt>", 1)
	m, err = Parse([]byte(b))
	require.NoError(t, err)
	_, err = m.Transaction(m.Transactions[1])
	require.Contains(t, strings.Join(fieldErrors(t, err), "\n"), "CdtTrfTxInf[2]/DbtrAcct: required for screening")
}

func TestStatusReport(t *testing.T) {
	t.Parallel()
	for o, want := range map[rules.Outcome][2]string{rules.Approve: {"ACCP", ""}, rules.Review: {"PDNG", ""},
		rules.Escalate: {"PDNG", ""}, rules.Block: {"RJCT", "RR04"}} {
		st, rsn := Status(o)
		require.Equal(t, want, [2]string{st, rsn}, o)
	}
	m, err := Parse(sample(t, "pacs008_09_batch.xml", "S"))
	require.NoError(t, err)
	out := string(StatusReport(m, "CMPLYD1", time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), []TxStatus{
		{Transfer: m.Transactions[0], Status: "RJCT", Reason: "RR04", Info: []string{"complyd BLOCK"}},
		{Transfer: m.Transactions[1], Status: "ACCP", Info: []string{"complyd APPROVE"}},
	}))
	for _, s := range []string{`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10">`, "<MsgId>CMPLYD1</MsgId>",
		"<OrgnlMsgId>MSG-S</OrgnlMsgId>", "<OrgnlMsgNmId>pacs.008.001.09</OrgnlMsgNmId>", "<OrgnlEndToEndId>E2E-S-1</OrgnlEndToEndId>",
		"<OrgnlUETR>8a562c67-ca16-48ba-b074-65581be6f011</OrgnlUETR>", "<TxSts>RJCT</TxSts>", "<Cd>RR04</Cd>", "<TxSts>ACCP</TxSts>"} {
		require.Contains(t, out, s)
	}
	require.NotContains(t, out, "GrpSts", "mixed statuses: no group status")
	// A line with information and no reason code holds no Rsn: Rsn is a choice of Cd or Prtry
	// (StatusReason6Choice), so an empty one fails the pacs.002 schema.
	require.Equal(t, 1, strings.Count(out, "<Rsn>"), "%s", out)
	require.Contains(t, out, "<StsRsnInf>\n        <AddtlInf>complyd APPROVE</AddtlInf>\n      </StsRsnInf>")
}

func FuzzParse(f *testing.F) {
	for _, n := range []string{"pacs008_09_batch.xml", "pacs008_08_single.xml", "pacs009_09_single.xml", "pain001_10_batch.xml"} {
		f.Add(sample(f, n, "F"))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			_, ok := apperr.As(err)
			require.True(t, ok, "every refusal is an application error: %v", err)
			return
		}
		for _, tx := range m.Transactions {
			_, _ = m.Transaction(tx)
		}
	})
}

// TestParseFollowsEachVersionsSchema: what the XSD of each accepted version accepts is accepted
// and what it refuses is refused, for the elements where the versions differ or where a bound
// is easy to miss. The accepted variants were checked with xmllint --schema against the XSDs
// moov-io/iso20022 v0.2.1 carries (pacs.008.001.09, pain.001.001.10); the .08 rule follows
// CreditTransferTransaction39 of pacs.008.001.08, which has no MndtRltdInf.
func TestParseFollowsEachVersionsSchema(t *testing.T) {
	t.Parallel()
	const mandate = "<MndtRltdInf><MndtId>MNDT-1</MndtId></MndtRltdInf>"
	rgltry := strings.Repeat("<RgltryRptg><DbtCdtRptgInd>DEBT</DbtCdtRptgInd></RgltryRptg>", 10)
	for name, c := range map[string]struct {
		file, from, to string
		want           string // "" when the variant is valid
	}{
		"pacs.008.001.09 mandate related information": {"pacs008_09_batch.xml", "<ChrgBr>SLEV</ChrgBr>\n      <IntrmyAgt1>",
			"<ChrgBr>SLEV</ChrgBr>" + mandate + "<IntrmyAgt1>", ""},
		"pacs.008.001.08 has no mandate information": {"pacs008_08_single.xml", "<ChrgBr>SHAR</ChrgBr>",
			"<ChrgBr>SHAR</ChrgBr>" + mandate, "CdtTrfTxInf/MndtRltdInf: unexpected element"},
		"pain.001 initiation source": {"pain001_10_batch.xml", "</InitgPty>",
			"</InitgPty><InitnSrc><Nm>Corporate ERP</Nm><Vrsn>4.2</Vrsn></InitnSrc>", ""},
		"pain.001 mandate related information": {"pain001_10_batch.xml", `<Amt><InstdAmt Ccy="NGN">2000.00</InstdAmt></Amt>`,
			`<Amt><InstdAmt Ccy="NGN">2000.00</InstdAmt></Amt>` + mandate, ""},
		"pain.001 at most two authorisations": {"pain001_10_batch.xml", "<NbOfTxs>2</NbOfTxs>\n      <CtrlSum>",
			strings.Repeat("<Authstn><Prtry>AUTH</Prtry></Authstn>", 3) + "<NbOfTxs>2</NbOfTxs><CtrlSum>", "GrpHdr/Authstn[3]: occurs more than 2 times"},
		"ten regulatory reports": {"pacs008_09_batch.xml", "<Purp><Cd>GDDS</Cd></Purp>", "<Purp><Cd>GDDS</Cd></Purp>" + rgltry, ""},
		"eleven regulatory reports": {"pacs008_09_batch.xml", "<Purp><Cd>GDDS</Cd></Purp>",
			"<Purp><Cd>GDDS</Cd></Purp>" + rgltry + "<RgltryRptg><DbtCdtRptgInd>DEBT</DbtCdtRptgInd></RgltryRptg>",
			"CdtTrfTxInf[1]/RgltryRptg[11]: occurs more than 10 times"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			good := string(sample(t, c.file, "S"))
			require.Contains(t, good, c.from)
			_, err := Parse([]byte(strings.Replace(good, c.from, c.to, 1)))
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Contains(t, strings.Join(fieldErrors(t, err), "\n"), c.want)
		})
	}
}

// TestOccursMoreThan: a limit of one reads "once", others "N times".
func TestOccursMoreThan(t *testing.T) {
	t.Parallel()
	require.Equal(t, "occurs more than once", occursMoreThan(1))
	require.Equal(t, "occurs more than 2 times", occursMoreThan(2))
}
