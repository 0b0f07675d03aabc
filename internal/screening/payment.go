package screening

import "strings"

// Payment is the ISO 20022 message a transaction was screened from (docs/guide/iso20022.md): the
// message's identifiers, what the rules read of it (remittance, purpose) and every party and
// agent as the message named them. JSON screenings have none. It is stored with the
// transaction (transactions.payment_message).
type Payment struct {
	MessageType          string         `json:"messageType"` // e.g. pacs.008.001.09
	MessageID            string         `json:"messageId"`
	PaymentInformationID string         `json:"paymentInformationId,omitempty"`
	EndToEndID           string         `json:"endToEndId"`
	InstructionID        string         `json:"instructionId,omitempty"`
	TxID                 string         `json:"txId,omitempty"`
	UETR                 string         `json:"uetr,omitempty"`
	Amount               string         `json:"amount"` // as the message wrote it
	Currency             string         `json:"currency"`
	Purpose              string         `json:"purpose,omitempty"`
	Remittance           []string       `json:"remittance,omitempty"`
	Parties              []PaymentParty `json:"parties"`
}

// PaymentParty is one party or agent of a payment message.
type PaymentParty struct {
	Role        string            `json:"role"` // DEBTOR, CREDITOR, ULTIMATE_CREDITOR, DEBTOR_AGENT, …
	Path        string            `json:"path"` // the element's path in the message
	Name        string            `json:"name,omitempty"`
	BIC         string            `json:"bic,omitempty"`
	LEI         string            `json:"lei,omitempty"`
	Account     string            `json:"account,omitempty"`
	Country     string            `json:"country,omitempty"`
	Address     []string          `json:"address,omitempty"`
	Identifiers []PartyIdentifier `json:"identifiers,omitempty"`
	EntityType  string            `json:"entityType,omitempty"` // INDIVIDUAL, BUSINESS or "" (unknown)
	// ScreenedAs is the Party its sanctions hits carry: SENDER for the debtor, RECEIVER for the
	// creditor (the sanctions engine screens those two from the transaction's own fields), the
	// role for every other party.
	ScreenedAs string `json:"screenedAs"`
}

// PartyIdentifier is one identifier of a party (an Othr with its scheme, a clearing member id).
type PartyIdentifier struct {
	ID     string `json:"id"`
	Scheme string `json:"scheme,omitempty"`
	Issuer string `json:"issuer,omitempty"`
}

// extraParties are the parties of tx's payment message beyond its sender and receiver, which
// the sanctions engine screens too.
func (t *Transaction) extraParties() []PaymentParty {
	if t.Payment == nil {
		return nil
	}
	var out []PaymentParty
	for _, p := range t.Payment.Parties {
		if p.ScreenedAs != PartySender && p.ScreenedAs != PartyReceiver {
			out = append(out, p)
		}
	}
	return out
}

// senderEntityType is the entity type the sender's name is screened as: the transaction's
// (metadata.entityType) for a JSON screening; for a payment message the debtor's as the message
// identifies it (BUSINESS for a pacs.009 institution or an OrgId, INDIVIDUAL for a PrvtId, ""
// when the message says neither), so that a BUSINESS list entry matches an institution debtor
// without the KYB requirements of a business sender.
func (t *Transaction) senderEntityType() string {
	if t.Payment == nil {
		return t.EntityType
	}
	for _, p := range t.Payment.Parties {
		if p.ScreenedAs == PartySender {
			return p.EntityType
		}
	}
	return t.EntityType
}

// bicOfSenderAndReceiver are the debtor and creditor of tx's payment message that carry a BIC
// other than the name they are screened by.
func (t *Transaction) bicOfSenderAndReceiver() []PaymentParty {
	if t.Payment == nil {
		return nil
	}
	var out []PaymentParty
	for _, p := range t.Payment.Parties {
		switch {
		case p.BIC == "":
		case p.ScreenedAs == PartySender && p.BIC != t.SenderName, p.ScreenedAs == PartyReceiver && p.BIC != t.ReceiverName:
			out = append(out, p)
		}
	}
	return out
}

// Countries returns the countries the transaction touches: the receiver's, and every party's
// and agent's of its payment message (AML-005 and HEUR-JURISDICTION read them all).
func (t *Transaction) Countries() []string {
	var out []string
	seen := map[string]bool{}
	add := func(c string) {
		c = strings.ToUpper(strings.TrimSpace(c))
		if c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	add(t.ReceiverCountry)
	if t.Payment != nil {
		for _, p := range t.Payment.Parties {
			add(p.Country)
		}
	}
	return out
}

// remittanceText is tx.remittance for the rules: the message's remittance lines, one per line.
func (t *Transaction) remittanceText() string {
	if t.Payment == nil {
		return ""
	}
	return strings.Join(t.Payment.Remittance, "\n")
}

func (t *Transaction) purposeCode() string {
	if t.Payment == nil {
		return ""
	}
	return t.Payment.Purpose
}
