package iso20022

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
)

// ctype is a complex type of the message definitions: a sequence of elements (the schema's
// xs:sequence, checked for order and cardinality) or a choice of one of them (xs:choice).
// A type with open set accepts any content unchecked: the branches the mapping never reads
// (settlement information, regulatory reporting, tax, …).
type ctype struct {
	seq    []field
	choice bool
	open   bool
}

// field is one element of a sequence or choice: its name, its cardinality (max -1: unbounded)
// and its type, complex (typ) or simple (simple).
type field struct {
	name     string
	min, max int
	typ      *ctype
	simple   *stype
}

// stype is a simple type: text with a length range and an optional pattern, or a check.
type stype struct {
	name     string
	min, max int
	pattern  *regexp.Regexp
	check    func(n *node) string // "" when valid
}

func text(name string, maxLen int) *stype { return &stype{name: name, min: 1, max: maxLen} }

func pat(name, re string) *stype {
	return &stype{name: name, min: 1, max: 1 << 10, pattern: regexp.MustCompile(re)}
}

var (
	max4       = text("Max4Text", 4)
	max16      = text("Max16Text", 16)
	max34      = text("Max34Text", 34)
	max35      = text("Max35Text", 35)
	max70      = text("Max70Text", 70)
	max140     = text("Max140Text", 140)
	bicfi      = pat("BICFIDec2014Identifier", `^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`)
	anyBIC     = pat("AnyBICDec2014Identifier", `^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`)
	lei        = pat("LEIIdentifier", `^[A-Z0-9]{18}[0-9]{2}$`)
	iban       = pat("IBAN2007Identifier", `^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$`)
	country    = pat("CountryCode", `^[A-Z]{2}$`)
	currency   = pat("ActiveOrHistoricCurrencyCode", `^[A-Z]{3}$`)
	uuidv4     = pat("UUIDv4Identifier", `^[a-f0-9]{8}-[a-f0-9]{4}-4[a-f0-9]{3}-[89ab][a-f0-9]{3}-[a-f0-9]{12}$`)
	numeric15  = pat("Max15NumericText", `^[0-9]{1,15}$`)
	chargeBr   = pat("ChargeBearerType1Code", `^(DEBT|CRED|SHAR|SLEV)$`)
	pmtMtd     = pat("PaymentMethod3Code", `^(CHK|TRF|TRA)$`)
	boolean    = pat("TrueFalseIndicator", `^(true|false|1|0)$`)
	isoDate    = &stype{name: "ISODate", check: checkDate}
	isoDTime   = &stype{name: "ISODateTime", check: checkDateTime}
	amount     = &stype{name: "ActiveCurrencyAndAmount", check: checkAmount(true)}
	decimal18  = &stype{name: "DecimalNumber", check: checkAmount(false)}
	anyContent = &ctype{open: true}
)

func req(name string, t *ctype) field          { return field{name: name, min: 1, max: 1, typ: t} }
func opt(name string, t *ctype) field          { return field{name: name, min: 0, max: 1, typ: t} }
func many(name string, t *ctype) field         { return field{name: name, min: 0, max: -1, typ: t} }
func some(name string, t *ctype) field         { return field{name: name, min: 1, max: -1, typ: t} }
func reqS(name string, s *stype) field         { return field{name: name, min: 1, max: 1, simple: s} }
func optS(name string, s *stype) field         { return field{name: name, min: 0, max: 1, simple: s} }
func upTo(name string, n int, s *stype) field  { return field{name: name, min: 0, max: n, simple: s} }
func upToC(name string, n int, t *ctype) field { return field{name: name, min: 0, max: n, typ: t} }
func manyS(name string, s *stype) field        { return field{name: name, min: 0, max: -1, simple: s} }

func seq(fs ...field) *ctype    { return &ctype{seq: fs} }
func choice(fs ...field) *ctype { return &ctype{seq: fs, choice: true} }

// The components shared by the accepted definitions (the 2019 generation of the ISO 20022
// catalogue: PartyIdentification135, PostalAddress24, FinancialInstitutionIdentification18,
// CashAccount38/40, RemittanceInformation16/21).
var (
	schemeName = choice(reqS("Cd", max4), reqS("Prtry", max35))
	genericID  = seq(reqS("Id", max35), opt("SchmeNm", schemeName), optS("Issr", max35))
	postalAddr = seq(opt("AdrTp", anyContent), optS("Dept", max70), optS("SubDept", max70), optS("StrtNm", max70),
		optS("BldgNb", max16), optS("BldgNm", max35), optS("Flr", max70), optS("PstBx", max16), optS("Room", max70),
		optS("PstCd", max16), optS("TwnNm", max35), optS("TwnLctnNm", max35), optS("DstrctNm", max35),
		optS("CtrySubDvsn", max35), optS("Ctry", country), upTo("AdrLine", 7, max70))
	orgID   = seq(optS("AnyBIC", anyBIC), optS("LEI", lei), many("Othr", genericID))
	prvtID  = seq(opt("DtAndPlcOfBirth", anyContent), many("Othr", genericID))
	partyID = choice(req("OrgId", orgID), req("PrvtId", prvtID))
	party   = seq(optS("Nm", max140), opt("PstlAdr", postalAddr), opt("Id", partyID), optS("CtryOfRes", country),
		opt("CtctDtls", anyContent))
	clrSysMmb = seq(opt("ClrSysId", choice(reqS("Cd", text("ExternalClearingSystemIdentification1Code", 5)),
		reqS("Prtry", max35))), reqS("MmbId", max35))
	finInstnID = seq(optS("BICFI", bicfi), opt("ClrSysMmbId", clrSysMmb), optS("LEI", lei), optS("Nm", max140),
		opt("PstlAdr", postalAddr), opt("Othr", genericID))
	agent   = seq(req("FinInstnId", finInstnID), opt("BrnchId", anyContent))
	acctID  = choice(reqS("IBAN", iban), req("Othr", seq(reqS("Id", max34), opt("SchmeNm", schemeName), optS("Issr", max35))))
	account = seq(req("Id", acctID), opt("Tp", anyContent), optS("Ccy", currency), optS("Nm", max70), opt("Prxy", anyContent))
	purpose = choice(reqS("Cd", max4), reqS("Prtry", max35))
	strdRmt = seq(many("RfrdDocInf", seq(opt("Tp", anyContent), optS("Nb", max35), opt("RltdDt", anyContent),
		many("LineDtls", anyContent))), opt("RfrdDocAmt", anyContent), opt("CdtrRefInf", seq(opt("Tp", anyContent),
		optS("Ref", max35))), opt("Invcr", anyContent), opt("Invcee", anyContent), opt("TaxRmt", anyContent),
		opt("GrnshmtRmt", anyContent), upTo("AddtlRmtInf", 3, max140))
	remittance = seq(manyS("Ustrd", max140), many("Strd", strdRmt))
	fiRmt      = seq(manyS("Ustrd", max140))
)

// agents are the optional agent elements of a pacs credit transfer, in schema order, from the
// previous instructing agents to the intermediaries.
func pacsAgents(fs ...field) []field {
	out := []field{}
	for _, n := range []string{"PrvsInstgAgt1", "PrvsInstgAgt2", "PrvsInstgAgt3"} {
		out = append(out, opt(n, agent), opt(n+"Acct", account))
	}
	out = append(out, opt("InstgAgt", agent), opt("InstdAgt", agent))
	for _, n := range []string{"IntrmyAgt1", "IntrmyAgt2", "IntrmyAgt3"} {
		out = append(out, opt(n, agent), opt(n+"Acct", account))
	}
	return append(out, fs...)
}

func join(parts ...[]field) []field {
	var out []field
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var (
	pacsGrpHdr = seq(reqS("MsgId", max35), reqS("CreDtTm", isoDTime), optS("BtchBookg", boolean), reqS("NbOfTxs", numeric15),
		optS("CtrlSum", decimal18), optS("TtlIntrBkSttlmAmt", amount), optS("IntrBkSttlmDt", isoDate),
		req("SttlmInf", anyContent), opt("PmtTpInf", anyContent), opt("InstgAgt", agent), opt("InstdAgt", agent))
	pacsPmtID = seq(optS("InstrId", max35), reqS("EndToEndId", max35), optS("TxId", max35), optS("UETR", uuidv4),
		optS("ClrSysRef", max35))

	// pacs.008 CreditTransferTransaction39 (.08) and 43 (.09): the same sequence but for the
	// mandate information (MndtRltdInf) that .09 added after the charges.
	pacs008Head = []field{req("PmtId", pacsPmtID), opt("PmtTpInf", anyContent), reqS("IntrBkSttlmAmt", amount),
		optS("IntrBkSttlmDt", isoDate), optS("SttlmPrty", max4), opt("SttlmTmIndctn", anyContent),
		opt("SttlmTmReq", anyContent), optS("AccptncDtTm", isoDTime), optS("PoolgAdjstmntDt", isoDate),
		optS("InstdAmt", amount), optS("XchgRate", decimal18), reqS("ChrgBr", chargeBr), many("ChrgsInf", anyContent)}
	pacs008Tail = []field{opt("UltmtDbtr", party), opt("InitgPty", party), req("Dbtr", party), opt("DbtrAcct", account),
		req("DbtrAgt", agent), opt("DbtrAgtAcct", account), req("CdtrAgt", agent), opt("CdtrAgtAcct", account),
		req("Cdtr", party), opt("CdtrAcct", account), opt("UltmtCdtr", party), many("InstrForCdtrAgt", anyContent),
		many("InstrForNxtAgt", anyContent), opt("Purp", purpose), upToC("RgltryRptg", 10, anyContent), opt("Tax", anyContent),
		upToC("RltdRmtInf", 10, anyContent), opt("RmtInf", remittance), many("SplmtryData", anyContent)}
	pacs008v08Tx = &ctype{seq: join(pacs008Head, pacsAgents(), pacs008Tail)}
	pacs008v09Tx = &ctype{seq: join(pacs008Head, []field{opt("MndtRltdInf", anyContent)}, pacsAgents(), pacs008Tail)}
	pacs008v08   = seq(req("GrpHdr", pacsGrpHdr), some("CdtTrfTxInf", pacs008v08Tx), many("SplmtryData", anyContent))
	pacs008v09   = seq(req("GrpHdr", pacsGrpHdr), some("CdtTrfTxInf", pacs008v09Tx), many("SplmtryData", anyContent))

	// pacs.009 CreditTransferTransaction44 (.09): the parties are financial institutions.
	pacs009Tx = &ctype{seq: join(
		[]field{req("PmtId", pacsPmtID), opt("PmtTpInf", anyContent), reqS("IntrBkSttlmAmt", amount),
			optS("IntrBkSttlmDt", isoDate), optS("SttlmPrty", max4), opt("SttlmTmIndctn", anyContent),
			opt("SttlmTmReq", anyContent)},
		pacsAgents(),
		[]field{opt("UltmtDbtr", agent), req("Dbtr", agent), opt("DbtrAcct", account), opt("DbtrAgt", agent),
			opt("DbtrAgtAcct", account), opt("CdtrAgt", agent), opt("CdtrAgtAcct", account), req("Cdtr", agent),
			opt("CdtrAcct", account), opt("UltmtCdtr", agent), many("InstrForCdtrAgt", anyContent),
			many("InstrForNxtAgt", anyContent), opt("Purp", purpose), opt("RmtInf", fiRmt),
			opt("UndrlygCstmrCdtTrf", anyContent), many("SplmtryData", anyContent)})}
	pacs009 = seq(req("GrpHdr", pacsGrpHdr), some("CdtTrfTxInf", pacs009Tx), many("SplmtryData", anyContent))

	// pain.001.001.10: GroupHeader95, PaymentInstruction34, CreditTransferTransaction40.
	painTx = seq(req("PmtId", seq(optS("InstrId", max35), reqS("EndToEndId", max35), optS("UETR", uuidv4))),
		opt("PmtTpInf", anyContent), req("Amt", choice(reqS("InstdAmt", amount), req("EqvtAmt", anyContent))),
		opt("XchgRateInf", anyContent), optS("ChrgBr", chargeBr), opt("MndtRltdInf", anyContent), opt("ChqInstr", anyContent),
		opt("UltmtDbtr", party),
		opt("IntrmyAgt1", agent), opt("IntrmyAgt1Acct", account), opt("IntrmyAgt2", agent), opt("IntrmyAgt2Acct", account),
		opt("IntrmyAgt3", agent), opt("IntrmyAgt3Acct", account), opt("CdtrAgt", agent), opt("CdtrAgtAcct", account),
		opt("Cdtr", party), opt("CdtrAcct", account), opt("UltmtCdtr", party), many("InstrForCdtrAgt", anyContent),
		opt("InstrForDbtrAgt", anyContent), opt("Purp", purpose), upToC("RgltryRptg", 10, anyContent), opt("Tax", anyContent),
		upToC("RltdRmtInf", 10, anyContent), opt("RmtInf", remittance), many("SplmtryData", anyContent))
	painPmtInf = seq(reqS("PmtInfId", max35), reqS("PmtMtd", pmtMtd), opt("ReqdAdvcTp", anyContent),
		optS("BtchBookg", boolean), optS("NbOfTxs", numeric15), optS("CtrlSum", decimal18), opt("PmtTpInf", anyContent),
		req("ReqdExctnDt", choice(reqS("Dt", isoDate), reqS("DtTm", isoDTime))), optS("PoolgAdjstmntDt", isoDate),
		req("Dbtr", party), req("DbtrAcct", account), req("DbtrAgt", agent), opt("DbtrAgtAcct", account),
		optS("InstrForDbtrAgt", max140), opt("UltmtDbtr", party), optS("ChrgBr", chargeBr), opt("ChrgsAcct", account),
		opt("ChrgsAcctAgt", agent), some("CdtTrfTxInf", painTx))
	pain001 = seq(req("GrpHdr", seq(reqS("MsgId", max35), reqS("CreDtTm", isoDTime), upToC("Authstn", 2, anyContent),
		reqS("NbOfTxs", numeric15), optS("CtrlSum", decimal18), req("InitgPty", party), opt("FwdgAgt", agent),
		opt("InitnSrc", anyContent))),
		some("PmtInf", painPmtInf), many("SplmtryData", anyContent))
)

// validate checks n against t and appends an error per violation, each named by its path.
func validate(n *node, t *ctype, errs *[]apperr.FieldError) {
	add := func(path, msg string) { *errs = append(*errs, apperr.FieldError{Field: path, Message: msg}) }
	if t.open || len(*errs) >= maxErrors {
		return
	}
	if n.text != "" {
		add(n.path, "must hold elements, not text")
	}
	if t.choice {
		if len(n.children) != 1 {
			add(n.path, "must hold exactly one of "+names(t.seq))
			return
		}
		c := n.children[0]
		for _, f := range t.seq {
			if f.name == c.name {
				check(c, f, errs)
				return
			}
		}
		add(c.path, "unexpected element: expected one of "+names(t.seq))
		return
	}
	i := 0 // the next child
	for _, f := range t.seq {
		count := 0
		for i < len(n.children) && n.children[i].name == f.name {
			c := n.children[i]
			count++
			if f.max >= 0 && count > f.max {
				add(c.path, occursMoreThan(f.max))
			} else {
				check(c, f, errs)
			}
			i++
		}
		if count < f.min {
			add(n.path+"/"+f.name, "required")
		}
	}
	if i < len(n.children) {
		c := n.children[i]
		add(c.path, "unexpected element here (out of order, repeated or unknown in this message definition)")
	}
}

// maxErrors bounds the errors reported for one message.
const maxErrors = 100

func check(c *node, f field, errs *[]apperr.FieldError) {
	if f.typ != nil {
		validate(c, f.typ, errs)
		return
	}
	if msg := checkSimple(c, f.simple); msg != "" {
		*errs = append(*errs, apperr.FieldError{Field: c.path, Message: msg})
	}
}

func checkSimple(c *node, s *stype) string {
	if len(c.children) > 0 {
		return "must hold text, not elements"
	}
	if s.check != nil {
		return s.check(c)
	}
	if n := len([]rune(c.text)); n < s.min || n > s.max {
		if n == 0 {
			return "required: must not be empty"
		}
		return fmt.Sprintf("must be %d to %d characters (%s)", s.min, s.max, s.name)
	}
	if s.pattern != nil && !s.pattern.MatchString(c.text) {
		return fmt.Sprintf("%q does not match %s (%s)", clip(c.text), s.pattern, s.name)
	}
	return ""
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func names(fs []field) string {
	n := make([]string, len(fs))
	for i, f := range fs {
		n[i] = f.name
	}
	return strings.Join(n, ", ")
}

var amountText = regexp.MustCompile(`^[0-9]{1,18}(\.[0-9]{1,5})?$`)

// checkAmount checks a decimal as the schema's ActiveCurrencyAndAmount (withCcy: the Ccy
// attribute, at most 18 digits of which 5 after the point, not negative) or DecimalNumber.
func checkAmount(withCcy bool) func(*node) string {
	return func(n *node) string {
		if !amountText.MatchString(n.text) {
			return fmt.Sprintf("%q is not a decimal amount of at most 18 digits, 5 after the point", clip(n.text))
		}
		if digits := strings.TrimLeft(strings.Replace(n.text, ".", "", 1), "0"); len(digits) > 18 {
			return "has more than 18 digits"
		}
		if _, err := decimal.NewFromString(n.text); err != nil {
			return "is not a decimal amount"
		}
		if withCcy {
			ccy := n.attr("Ccy")
			if ccy == "" {
				return "Ccy: required"
			}
			if !currency.pattern.MatchString(ccy) {
				return fmt.Sprintf("Ccy %q is not an ISO 4217 code", clip(ccy))
			}
		}
		return ""
	}
}

func checkDate(n *node) string {
	if _, err := time.Parse(time.DateOnly, n.text); err != nil {
		return fmt.Sprintf("%q is not an ISODate (YYYY-MM-DD)", clip(n.text))
	}
	return ""
}

// dateTimeLayouts are the xs:dateTime forms: with or without fraction, with a zone or without
// one (a local time, read as UTC: docs/guide/iso20022.md).
var dateTimeLayouts = []string{"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999"}

func parseDateTime(s string) (time.Time, bool) {
	for _, l := range dateTimeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

func checkDateTime(n *node) string {
	if _, ok := parseDateTime(n.text); !ok {
		return fmt.Sprintf("%q is not an ISODateTime (YYYY-MM-DDThh:mm:ss[.sss][zone])", clip(n.text))
	}
	return ""
}

// occursMoreThan is "occurs more than once" or "occurs more than 10 times".
func occursMoreThan(n int) string {
	if n == 1 {
		return "occurs more than once"
	}
	return fmt.Sprintf("occurs more than %d times", n)
}
