package iso20022

import (
	"bytes"
	"encoding/xml"
	"time"

	"github.com/complyd/complyd/internal/rules"
)

// StatusReportDefinition is the status report answered: pacs.002.001.10, the version that
// answers the 2019 generation of pacs.008/pacs.009 (CBPR+ and the Nigerian ISO 20022 rollout).
const StatusReportDefinition = "pacs.002.001.10"

// Transaction statuses of the report (ExternalPaymentTransactionStatus1Code).
const (
	// StatusAccepted answers APPROVE: ACCP, "accepted customer profile": the checks before
	// settlement (here: the screening) passed. ACSC is not claimed: complyd settles nothing.
	StatusAccepted = "ACCP"
	// StatusPending answers REVIEW and ESCALATE: a compliance officer decides.
	StatusPending = "PDNG"
	// StatusRejected answers BLOCK, and a transaction that was not screened.
	StatusRejected = "RJCT"
)

// Status reasons of a RJCT (ExternalStatusReason1Code).
const (
	// ReasonRegulatory (RR04, "regulatory reason") answers BLOCK.
	ReasonRegulatory = "RR04"
	// ReasonNarrative (NARR) answers a transaction that was not screened; AddtlInf says why.
	ReasonNarrative = "NARR"
)

// Status is the report's answer for one outcome.
func Status(o rules.Outcome) (status, reason string) {
	switch o {
	case rules.Approve:
		return StatusAccepted, ""
	case rules.Review, rules.Escalate:
		return StatusPending, ""
	default:
		return StatusRejected, ReasonRegulatory
	}
}

// TxStatus is one transaction's line of the report.
type TxStatus struct {
	Transfer CreditTransfer
	Status   string
	Reason   string
	// Info is the additional information (each at most 105 characters): the outcome, or why the
	// transaction was not screened.
	Info []string
}

// StatusReport writes the pacs.002.001.10 answering m: one TxInfAndSts per transaction, in
// message order; GrpSts is set when every transaction has the same status. id is the report's
// MsgId.
func StatusReport(m *Message, id string, at time.Time, txs []TxStatus) []byte {
	type code struct {
		Cd string `xml:"Cd"`
	}
	type reason struct {
		// Rsn is a choice (Cd or Prtry): absent, never empty, when there is no reason code.
		Rsn      *code    `xml:"Rsn,omitempty"`
		AddtlInf []string `xml:"AddtlInf,omitempty"`
	}
	type txInf struct {
		OrgnlInstrID    string  `xml:"OrgnlInstrId,omitempty"`
		OrgnlEndToEndID string  `xml:"OrgnlEndToEndId"`
		OrgnlTxID       string  `xml:"OrgnlTxId,omitempty"`
		OrgnlUETR       string  `xml:"OrgnlUETR,omitempty"`
		TxSts           string  `xml:"TxSts"`
		StsRsnInf       *reason `xml:"StsRsnInf,omitempty"`
	}
	type doc struct {
		XMLName  xml.Name `xml:"Document"`
		NS       string   `xml:"xmlns,attr"`
		MsgID    string   `xml:"FIToFIPmtStsRpt>GrpHdr>MsgId"`
		CreDtTm  string   `xml:"FIToFIPmtStsRpt>GrpHdr>CreDtTm"`
		OrgMsgID string   `xml:"FIToFIPmtStsRpt>OrgnlGrpInfAndSts>OrgnlMsgId"`
		OrgMsgNm string   `xml:"FIToFIPmtStsRpt>OrgnlGrpInfAndSts>OrgnlMsgNmId"`
		GrpSts   string   `xml:"FIToFIPmtStsRpt>OrgnlGrpInfAndSts>GrpSts,omitempty"`
		Txs      []txInf  `xml:"FIToFIPmtStsRpt>TxInfAndSts"`
	}
	d := doc{NS: nsPrefix + StatusReportDefinition, MsgID: id, CreDtTm: at.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		OrgMsgID: m.ID, OrgMsgNm: m.Definition.Name}
	same := len(txs) > 0
	for _, t := range txs {
		ti := txInf{OrgnlInstrID: t.Transfer.InstructionID, OrgnlEndToEndID: t.Transfer.EndToEndID,
			OrgnlTxID: t.Transfer.TxID, OrgnlUETR: t.Transfer.UETR, TxSts: t.Status}
		if t.Reason != "" || len(t.Info) > 0 {
			r := &reason{}
			if t.Reason != "" {
				r.Rsn = &code{Cd: t.Reason}
			}
			for _, s := range t.Info {
				r.AddtlInf = append(r.AddtlInf, clipText(s, 105))
			}
			ti.StsRsnInf = r
		}
		d.Txs = append(d.Txs, ti)
		same = same && t.Status == txs[0].Status
	}
	if same {
		d.GrpSts = txs[0].Status
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	_ = enc.Encode(d) // a struct of strings always encodes
	b.WriteString("\n")
	return b.Bytes()
}
