package iso20022

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
)

// Definition is one accepted message definition: its namespace, its root element and its
// schema (schema.go).
type Definition struct {
	// Name is the message identifier, e.g. "pacs.008.001.09".
	Name string
	// Root is the message element under Document, e.g. "FIToFICstmrCdtTrf".
	Root   string
	schema *ctype
	kind   kind
}

type kind int

const (
	kindPacs008 kind = iota
	kindPacs009
	kindPain001
)

// nsPrefix is the namespace prefix of every ISO 20022 message definition.
const nsPrefix = "urn:iso:std:iso:20022:tech:xsd:"

// Definitions are the accepted versions (docs/guide/iso20022.md "Versions accepted").
var Definitions = []Definition{
	{Name: "pacs.008.001.09", Root: "FIToFICstmrCdtTrf", schema: pacs008v09, kind: kindPacs008},
	{Name: "pacs.008.001.08", Root: "FIToFICstmrCdtTrf", schema: pacs008v08, kind: kindPacs008},
	{Name: "pacs.009.001.09", Root: "FICdtTrf", schema: pacs009, kind: kindPacs009},
	{Name: "pain.001.001.10", Root: "CstmrCdtTrfInitn", schema: pain001, kind: kindPain001},
}

func definitionNames() string {
	n := make([]string, len(Definitions))
	for i, d := range Definitions {
		n[i] = d.Name
	}
	return strings.Join(n, ", ")
}

// Message is a parsed and validated message.
type Message struct {
	Definition Definition
	// ID is GrpHdr/MsgId.
	ID string
	// Transactions are the credit transfers, in message order.
	Transactions []CreditTransfer
}

// CreditTransfer is one CdtTrfTxInf with what the mapping needs of its context (the pain.001
// payment information it belongs to, the group header).
type CreditTransfer struct {
	node   *node
	pmtInf *node // pain.001 only
	grpHdr *node
	// EndToEndID, InstructionID, TxID and UETR are the PmtId elements.
	EndToEndID, InstructionID, TxID, UETR string
}

// Parse reads, checks and validates one message. Every failure is VALIDATION_ERROR with the
// path of each error in details[].field; nothing of a failed message is screened.
func Parse(body []byte) (*Message, error) {
	root, err := parse(body)
	if err != nil {
		return nil, err
	}
	if root.name != "Document" {
		return nil, refuse(root.path, "must be Document: an ISO 20022 message document")
	}
	name := strings.TrimPrefix(root.space, nsPrefix)
	var def *Definition
	for i := range Definitions {
		if root.space == nsPrefix+Definitions[i].Name {
			def = &Definitions[i]
		}
	}
	if def == nil {
		if root.space == "" || name == root.space {
			return nil, refuse(root.path, fmt.Sprintf("namespace %q is not an ISO 20022 message definition; accepted: %s", root.space, definitionNames()))
		}
		return nil, refuse(root.path, fmt.Sprintf("message definition %s is not accepted; accepted: %s", name, definitionNames()))
	}
	if len(root.children) != 1 || root.children[0].name != def.Root {
		return nil, refuse(root.path, "must hold exactly one "+def.Root+" ("+def.Name+")")
	}
	msg := root.children[0]
	var errs []apperr.FieldError
	validate(msg, def.schema, &errs)
	if len(errs) > 0 {
		return nil, apperr.InvalidFields(errs...)
	}
	m := &Message{Definition: *def, ID: msg.get("GrpHdr/MsgId")}
	hdr := msg.child("GrpHdr")
	if def.kind == kindPain001 {
		for _, pi := range msg.all("PmtInf") {
			for _, tx := range pi.all("CdtTrfTxInf") {
				m.Transactions = append(m.Transactions, creditTransfer(tx, pi, hdr))
			}
		}
	} else {
		for _, tx := range msg.all("CdtTrfTxInf") {
			m.Transactions = append(m.Transactions, creditTransfer(tx, nil, hdr))
		}
	}
	if err := m.checkGroup(msg); err != nil {
		return nil, err
	}
	return m, nil
}

func creditTransfer(tx, pmtInf, hdr *node) CreditTransfer {
	return CreditTransfer{node: tx, pmtInf: pmtInf, grpHdr: hdr, EndToEndID: tx.get("PmtId/EndToEndId"),
		InstructionID: tx.get("PmtId/InstrId"), TxID: tx.get("PmtId/TxId"), UETR: tx.get("PmtId/UETR")}
}

// checkGroup applies the rules the schemes apply across elements: NbOfTxs and CtrlSum agree with
// the transactions, EndToEndIds are unique within the message (each is a screening's
// externalId), and a message holds at most MaxTransactions.
func (m *Message) checkGroup(msg *node) error {
	var errs []apperr.FieldError
	add := func(path, s string) { errs = append(errs, apperr.FieldError{Field: path, Message: s}) }
	hdr := msg.child("GrpHdr")
	n := len(m.Transactions)
	if n > MaxTransactions {
		add(msg.path, fmt.Sprintf("holds %d transactions; at most %d are accepted in one message", n, MaxTransactions))
	}
	if got := hdr.get("NbOfTxs"); got != fmt.Sprint(n) {
		add(hdr.child("NbOfTxs").path, fmt.Sprintf("is %s but the message holds %d transactions", got, n))
	}
	sum := decimal.Zero
	seen := map[string]string{}
	for _, t := range m.Transactions {
		sum = sum.Add(decimal.RequireFromString(t.amountNode().text))
		e := t.node.at("PmtId/EndToEndId")
		if first, dup := seen[t.EndToEndID]; dup && !strings.EqualFold(t.EndToEndID, notProvided) {
			add(e.path, fmt.Sprintf("%q is also the EndToEndId of %s: each transaction is screened under its own", t.EndToEndID, first))
		}
		seen[t.EndToEndID] = t.node.path
	}
	if cs := hdr.child("CtrlSum"); cs != nil && !decimal.RequireFromString(cs.text).Equal(sum) {
		add(cs.path, fmt.Sprintf("is %s but the transactions' amounts sum to %s", cs.text, sum.String()))
	}
	if tt := hdr.child("TtlIntrBkSttlmAmt"); tt != nil && !decimal.RequireFromString(tt.text).Equal(sum) {
		add(tt.path, fmt.Sprintf("is %s but the transactions' amounts sum to %s", tt.text, sum.String()))
	}
	for _, pi := range msg.all("PmtInf") {
		txs := pi.all("CdtTrfTxInf")
		if nb := pi.child("NbOfTxs"); nb != nil && nb.text != fmt.Sprint(len(txs)) {
			add(nb.path, fmt.Sprintf("is %s but the payment information holds %d transactions", nb.text, len(txs)))
		}
	}
	if len(errs) > 0 {
		return apperr.InvalidFields(errs...)
	}
	return nil
}

// notProvided is the EndToEndId a debtor that gave none is represented by.
const notProvided = "NOTPROVIDED"

// amountNode is the transaction's amount element: IntrBkSttlmAmt (pacs) or Amt/InstdAmt
// (pain.001; an EqvtAmt is refused by the mapping).
func (t CreditTransfer) amountNode() *node {
	if a := t.node.child("IntrBkSttlmAmt"); a != nil {
		return a
	}
	if a := t.node.at("Amt/InstdAmt"); a != nil {
		return a
	}
	return &node{text: "0"}
}
