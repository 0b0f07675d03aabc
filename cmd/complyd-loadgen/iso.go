package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"strings"

	"github.com/shopspring/decimal"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// isoPath is the ISO 20022 route (docs/guide/iso20022.md).
const isoPath = "/api/v1/transactions/iso20022"

// isoSender screens each request as a one-transaction pacs.008.001.09 over POST
// /api/v1/transactions/iso20022 with the raw client (-proto iso): the same transaction the rest
// mode sends as JSON, so the two modes compare the cost of the XML path (parsing, validation,
// mapping, the extra parties, the pacs.002) on the same screenings. 200 answers true; a
// repeated EndToEndId is a 200 too (its item carries DUPLICATE_EXTERNAL_ID and the original
// status).
func isoSender(o options, c credential) (func(context.Context, *complydv1.ScreenTransactionRequest) (bool, error), error) {
	rc, err := newRawClientFor(o.url, c, isoPath, "application/xml")
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, r *complydv1.ScreenTransactionRequest) (bool, error) {
		status, b, err := rc.do(ctx, isoBody(r))
		if err != nil {
			return false, err
		}
		if status != http.StatusOK {
			return false, &statusError{status: status, body: string(b)}
		}
		// The message answers 200 whatever its transactions did: each item's error is counted
		// as the rest mode counts the status it would have had (a duplicate as a 409, a shed
		// screening as a 503), so that the two modes are compared on screenings stored.
		var out struct {
			Data struct {
				Items []struct {
					Error *struct {
						Code string `json:"code"`
					} `json:"error"`
				} `json:"items"`
			} `json:"data"`
		}
		if err := json.Unmarshal(b, &out); err != nil || len(out.Data.Items) != 1 {
			return false, &statusError{status: status, body: string(b)}
		}
		switch e := out.Data.Items[0].Error; {
		case e == nil:
			return true, nil
		case e.Code == "DUPLICATE_EXTERNAL_ID":
			return false, nil
		case e.Code == "SERVICE_UNAVAILABLE" || e.Code == "RATE_LIMITED":
			return false, &statusError{status: http.StatusServiceUnavailable, body: string(b)}
		default:
			return false, &statusError{status: http.StatusUnprocessableEntity, body: string(b)}
		}
	}, nil
}

// isoBody writes r as a pacs.008.001.09 with one credit transfer: debtor with its BVN, account
// and agent, creditor with its account, country and agent, and the narration as remittance.
func isoBody(r *complydv1.ScreenTransactionRequest) []byte {
	esc := func(s string) string {
		var b strings.Builder
		_ = xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	amt := decimal.NewFromFloat(r.Amount).StringFixed(2)
	ccy := r.GetCurrency()
	if ccy == "" {
		ccy = "NGN"
	}
	var b strings.Builder
	b.Grow(1600)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09"><FIToFICstmrCdtTrf><GrpHdr><MsgId>`)
	b.WriteString(esc(clip35(r.ExternalId)))
	b.WriteString(`</MsgId><CreDtTm>` + r.Timestamp + `</CreDtTm><NbOfTxs>1</NbOfTxs><SttlmInf><SttlmMtd>CLRG</SttlmMtd></SttlmInf></GrpHdr><CdtTrfTxInf><PmtId><EndToEndId>`)
	b.WriteString(esc(clip35(r.ExternalId)))
	b.WriteString(`</EndToEndId></PmtId><IntrBkSttlmAmt Ccy="` + ccy + `">` + amt + `</IntrBkSttlmAmt><ChrgBr>SLEV</ChrgBr><Dbtr><Nm>`)
	b.WriteString(esc(r.SenderName))
	b.WriteString(`</Nm>`)
	if bvn := r.GetSenderBvn(); bvn != "" {
		b.WriteString(`<Id><PrvtId><Othr><Id>` + bvn + `</Id><SchmeNm><Prtry>BVN</Prtry></SchmeNm></Othr></PrvtId></Id>`)
	}
	b.WriteString(`</Dbtr><DbtrAcct><Id><Othr><Id>` + r.SenderAccountNumber + `</Id></Othr></Id></DbtrAcct>`)
	b.WriteString(`<DbtrAgt><FinInstnId><BICFI>STCRNGLAXXX</BICFI><ClrSysMmbId><MmbId>000232</MmbId></ClrSysMmbId></FinInstnId></DbtrAgt>`)
	b.WriteString(`<CdtrAgt><FinInstnId><BICFI>LHBKNGLAXXX</BICFI></FinInstnId></CdtrAgt><Cdtr><Nm>`)
	b.WriteString(esc(firstNonEmpty(r.GetReceiverName(), "Unnamed Receiver")))
	b.WriteString(`</Nm>`)
	if c := r.GetReceiverCountry(); c != "" {
		b.WriteString(`<PstlAdr><Ctry>` + c + `</Ctry></PstlAdr>`)
	}
	b.WriteString(`</Cdtr>`)
	if a := r.GetReceiverAccountNumber(); a != "" {
		b.WriteString(`<CdtrAcct><Id><Othr><Id>` + a + `</Id></Othr></Id></CdtrAcct>`)
	}
	if n := r.GetNarration(); n != "" {
		b.WriteString(`<RmtInf><Ustrd>` + esc(n) + `</Ustrd></RmtInf>`)
	}
	b.WriteString(`</CdtTrfTxInf></FIToFICstmrCdtTrf></Document>`)
	return []byte(b.String())
}

func clip35(s string) string {
	if len(s) > 35 {
		return s[len(s)-35:] // the unique tail of the run's ids
	}
	return s
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
