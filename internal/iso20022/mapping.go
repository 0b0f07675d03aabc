package iso20022

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/screening"
)

// Party roles of a payment message (screening.PaymentParty.Role).
const (
	RoleDebtor           = "DEBTOR"
	RoleCreditor         = "CREDITOR"
	RoleUltimateDebtor   = "ULTIMATE_DEBTOR"
	RoleUltimateCreditor = "ULTIMATE_CREDITOR"
	RoleInitiatingParty  = "INITIATING_PARTY"
	RoleDebtorAgent      = "DEBTOR_AGENT"
	RoleCreditorAgent    = "CREDITOR_AGENT"
	RoleInstructingAgent = "INSTRUCTING_AGENT"
	RoleInstructedAgent  = "INSTRUCTED_AGENT"
	RoleIntermediary     = "INTERMEDIARY_AGENT_" // 1, 2, 3
	RolePreviousAgent    = "PREVIOUS_INSTRUCTING_AGENT_"
)

// ExternalID is the externalId the transaction is screened under: its EndToEndId, or when the
// debtor gave none (NOTPROVIDED) its UETR, else its TxId, else its InstrId.
func (t CreditTransfer) ExternalID() string {
	if !strings.EqualFold(t.EndToEndID, notProvided) {
		return t.EndToEndID
	}
	for _, id := range []string{t.UETR, t.TxID, t.InstructionID} {
		if id != "" {
			return id
		}
	}
	return ""
}

// Transaction maps the credit transfer onto the screening input (docs/guide/iso20022.md "Mapping").
// Errors: VALIDATION_ERROR naming the element when the transfer lacks what a screening needs
// (an identifier, the debtor's account or name, an instructed amount).
func (m *Message) Transaction(t CreditTransfer) (*screening.Transaction, error) {
	tx, pay := t.node, t.pmtInf
	kind := m.Definition.kind
	var bad []apperr.FieldError
	add := func(path, msg string) { bad = append(bad, apperr.FieldError{Field: path, Message: msg}) }

	ext := t.ExternalID()
	if ext == "" {
		add(tx.path+"/PmtId/EndToEndId", "is NOTPROVIDED and the transaction has no UETR, TxId or InstrId to be screened under")
	}
	amt := t.amountNode()
	if kind == kindPain001 && tx.at("Amt/InstdAmt") == nil {
		add(tx.path+"/Amt/EqvtAmt", "is not screened: an equivalent amount has no amount in the transfer currency; send InstdAmt")
	}
	p := &screening.Payment{MessageType: m.Definition.Name, MessageID: m.ID, EndToEndID: t.EndToEndID,
		InstructionID: t.InstructionID, TxID: t.TxID, UETR: t.UETR, Amount: amt.text, Currency: amt.attr("Ccy"),
		Purpose: firstOf(tx.get("Purp/Cd"), tx.get("Purp/Prtry")), Remittance: remittanceLines(tx.child("RmtInf"))}
	if pay != nil {
		p.PaymentInformationID = pay.get("PmtInfId")
	}

	// The parties, in the order the dashboard lists them.
	debtorCtx, fi := tx, kind == kindPacs009
	if kind == kindPain001 {
		debtorCtx = pay // pain.001: the debtor, its account and agent are the payment information's
	}
	debtor := partyOf(debtorCtx.child("Dbtr"), RoleDebtor, fi)
	debtor.ScreenedAs = screening.PartySender
	debtor.Account = accountOf(debtorCtx.child("DbtrAcct"))
	creditor := partyOf(tx.child("Cdtr"), RoleCreditor, fi)
	creditor.ScreenedAs = screening.PartyReceiver
	creditor.Account = accountOf(tx.child("CdtrAcct"))
	parties := []screening.PaymentParty{debtor}
	if tx.child("Cdtr") != nil {
		parties = append(parties, creditor)
	}
	addParty := func(n *node, role string, fi bool) {
		if n != nil {
			pp := partyOf(n, role, fi)
			pp.ScreenedAs = role
			parties = append(parties, pp)
		}
	}
	ultimateDebtor := tx.child("UltmtDbtr")
	if ultimateDebtor == nil && pay != nil {
		ultimateDebtor = pay.child("UltmtDbtr")
	}
	addParty(ultimateDebtor, RoleUltimateDebtor, fi)
	addParty(tx.child("UltmtCdtr"), RoleUltimateCreditor, fi)
	if kind == kindPain001 {
		addParty(t.grpHdr.child("InitgPty"), RoleInitiatingParty, false)
	} else {
		addParty(tx.child("InitgPty"), RoleInitiatingParty, false)
	}
	debtorAgent := debtorCtx.child("DbtrAgt")
	addParty(debtorAgent, RoleDebtorAgent, true)
	addParty(tx.child("CdtrAgt"), RoleCreditorAgent, true)
	for i := 1; i <= 3; i++ {
		addParty(tx.child(fmt.Sprintf("IntrmyAgt%d", i)), fmt.Sprintf("%s%d", RoleIntermediary, i), true)
	}
	for i := 1; i <= 3; i++ {
		addParty(tx.child(fmt.Sprintf("PrvsInstgAgt%d", i)), fmt.Sprintf("%s%d", RolePreviousAgent, i), true)
	}
	addParty(firstNode(tx.child("InstgAgt"), t.grpHdr.child("InstgAgt")), RoleInstructingAgent, true)
	addParty(firstNode(tx.child("InstdAgt"), t.grpHdr.child("InstdAgt")), RoleInstructedAgent, true)
	p.Parties = parties

	// The debtor's account is the sender account (history, velocity); an institution that
	// names no account is keyed by its BIC.
	sender := firstOf(debtor.Account, debtor.BIC)
	if sender == "" {
		add(debtorCtx.path+"/DbtrAcct", "required for screening: the debtor's account (IBAN or Othr/Id) is the sender account")
	}
	senderName := firstOf(debtor.Name, debtor.BIC)
	if senderName == "" {
		add(debtorCtx.path+"/Dbtr/Nm", "required for screening: the debtor's name")
	}
	st := &screening.Transaction{ExternalID: ext, Type: "TRANSFER", Channel: "API", Currency: p.Currency,
		SenderAccountNumber: sender, SenderName: senderName, SenderBVN: bvnOf(debtor),
		SenderBankCode: agentCode(debtorAgent), ReceiverAccountNumber: creditor.Account,
		ReceiverName: firstOf(creditor.Name, creditor.BIC), ReceiverBVN: bvnOf(creditor),
		ReceiverBankCode: agentCode(tx.child("CdtrAgt")), ReceiverCountry: firstOf(creditor.Country, agentCountry(tx.child("CdtrAgt"))),
		Narration: clipText(strings.Join(p.Remittance, "; "), 500), Payment: p}
	if tx.child("Cdtr") == nil {
		st.ReceiverCountry = agentCountry(tx.child("CdtrAgt"))
	}
	if a, err := decimal.NewFromString(amt.text); err == nil {
		st.Amount = a // the schema's decimal text, exactly: never through a float
	}
	if !st.Amount.Equal(st.Amount.Truncate(2)) {
		add(amt.path, fmt.Sprintf("%s has more than 2 decimal places: complyd stores amounts to the minor unit", amt.text))
	}
	when := firstOf(tx.get("AccptncDtTm"), t.grpHdr.get("CreDtTm"))
	if ts, ok := parseDateTime(when); ok {
		st.Timestamp = ts
	}
	for _, pp := range parties {
		if pp.Country != "" && pp.Country != "NG" {
			st.Type = "INTERNATIONAL_TRANSFER"
		}
	}
	if st.Currency != "NGN" {
		st.Type = "INTERNATIONAL_TRANSFER"
	}
	if len(bad) > 0 {
		return nil, apperr.InvalidFields(bad...)
	}
	return st, nil
}

// partyOf reads a PartyIdentification135 (fi false) or a BranchAndFinancialInstitutionIdentification6.
func partyOf(n *node, role string, fi bool) screening.PaymentParty {
	p := screening.PaymentParty{Role: role}
	if n == nil {
		return p
	}
	p.Path = n.path
	if fi {
		f := n.child("FinInstnId")
		p.Name, p.BIC, p.LEI = f.get("Nm"), f.get("BICFI"), f.get("LEI")
		p.Address = addressOf(f.child("PstlAdr"))
		p.Country = firstOf(f.get("PstlAdr/Ctry"), bicCountry(p.BIC))
		if id := f.get("ClrSysMmbId/MmbId"); id != "" {
			p.Identifiers = append(p.Identifiers, screening.PartyIdentifier{ID: id,
				Scheme: firstOf(f.get("ClrSysMmbId/ClrSysId/Cd"), f.get("ClrSysMmbId/ClrSysId/Prtry"), "CLEARING_MEMBER")})
		}
		if o := f.child("Othr"); o != nil {
			p.Identifiers = append(p.Identifiers, identifierOf(o))
		}
		p.EntityType = screening.EntityBusiness
		return p
	}
	p.Name = n.get("Nm")
	p.Address = addressOf(n.child("PstlAdr"))
	p.Country = firstOf(n.get("PstlAdr/Ctry"), n.get("CtryOfRes"))
	if org := n.at("Id/OrgId"); org != nil {
		p.EntityType = screening.EntityBusiness
		p.BIC, p.LEI = org.get("AnyBIC"), org.get("LEI")
		for _, o := range org.all("Othr") {
			p.Identifiers = append(p.Identifiers, identifierOf(o))
		}
	}
	if prv := n.at("Id/PrvtId"); prv != nil {
		p.EntityType = screening.EntityIndividual
		for _, o := range prv.all("Othr") {
			p.Identifiers = append(p.Identifiers, identifierOf(o))
		}
	}
	if p.Country == "" {
		p.Country = bicCountry(p.BIC)
	}
	return p
}

func identifierOf(o *node) screening.PartyIdentifier {
	return screening.PartyIdentifier{ID: o.get("Id"), Scheme: firstOf(o.get("SchmeNm/Cd"), o.get("SchmeNm/Prtry")), Issuer: o.get("Issr")}
}

// bvnOf is the party's BVN: an Othr whose scheme is BVN (Prtry or Cd, any case) of 11 digits.
func bvnOf(p screening.PaymentParty) string {
	for _, id := range p.Identifiers {
		if strings.EqualFold(id.Scheme, "BVN") {
			return id.ID
		}
	}
	return ""
}

func accountOf(n *node) string {
	if n == nil {
		return ""
	}
	return firstOf(n.get("Id/IBAN"), n.get("Id/Othr/Id"))
}

// agentCode is the bank code of an agent: its clearing system member id (the NIBSS institution
// code in Nigeria), else its BIC.
func agentCode(n *node) string {
	if n == nil {
		return ""
	}
	return firstOf(n.get("FinInstnId/ClrSysMmbId/MmbId"), n.get("FinInstnId/BICFI"))
}

func agentCountry(n *node) string {
	if n == nil {
		return ""
	}
	return firstOf(n.get("FinInstnId/PstlAdr/Ctry"), bicCountry(n.get("FinInstnId/BICFI")))
}

// bicCountry is a BIC's country code (its fifth and sixth characters).
func bicCountry(bic string) string {
	if len(bic) < 6 {
		return ""
	}
	return bic[4:6]
}

// addressOf renders a PostalAddress24: the structured parts on one line, then each AdrLine.
func addressOf(n *node) []string {
	if n == nil {
		return nil
	}
	var parts []string
	for _, name := range []string{"Dept", "SubDept", "BldgNb", "StrtNm", "BldgNm", "Flr", "Room", "PstBx", "PstCd",
		"TwnNm", "TwnLctnNm", "DstrctNm", "CtrySubDvsn", "Ctry"} {
		if v := n.get(name); v != "" {
			parts = append(parts, v)
		}
	}
	var out []string
	if len(parts) > 0 {
		out = append(out, strings.Join(parts, ", "))
	}
	for _, l := range n.all("AdrLine") {
		out = append(out, l.text)
	}
	return out
}

// remittanceLines are each Ustrd, then for each Strd its document numbers, creditor reference
// and additional remittance information.
func remittanceLines(n *node) []string {
	if n == nil {
		return nil
	}
	var out []string
	for _, u := range n.all("Ustrd") {
		out = append(out, u.text)
	}
	for _, s := range n.all("Strd") {
		for _, d := range s.all("RfrdDocInf") {
			if nb := d.get("Nb"); nb != "" {
				out = append(out, "document "+nb)
			}
		}
		if ref := s.get("CdtrRefInf/Ref"); ref != "" {
			out = append(out, "reference "+ref)
		}
		for _, a := range s.all("AddtlRmtInf") {
			out = append(out, a.text)
		}
	}
	return out
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func firstNode(ns ...*node) *node {
	for _, n := range ns {
		if n != nil {
			return n
		}
	}
	return nil
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
