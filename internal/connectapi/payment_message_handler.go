package connectapi

import (
	"context"
	"fmt"
	"mime"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/iso20022"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// ScreenPaymentMessage implements TransactionService.ScreenPaymentMessage (docs/guide/iso20022.md):
// the message is parsed, validated and mapped whole (any error refuses it, nothing screened),
// then each credit transfer is screened as a batch item is (its own rate-limit request, its own
// answer) and the answers are gathered into the pacs.002 status report.
func (h *ScreeningHandler) ScreenPaymentMessage(ctx context.Context, req *connect.Request[complydv1.ScreenPaymentMessageRequest]) (*connect.Response[complydv1.ScreenPaymentMessageResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	body := req.Msg.GetMessage()
	if ct := body.GetContentType(); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || (mt != "application/xml" && mt != "text/xml") {
			return nil, apperr.Invalid("message.contentType", fmt.Sprintf("%q is not accepted: send the message as application/xml", ct))
		}
	}
	m, err := iso20022.Parse(body.GetData())
	if err != nil {
		return nil, err
	}
	txs := make([]*screening.Transaction, len(m.Transactions))
	var bad []apperr.FieldError
	for i, t := range m.Transactions {
		tx, err := m.Transaction(t)
		if e, ok := apperr.As(err); ok {
			bad = append(bad, e.Details...)
			continue
		}
		txs[i] = tx
	}
	if len(bad) > 0 {
		return nil, apperr.InvalidFields(bad...)
	}
	ctx, cancel, ours := h.budget.Apply(ctx)
	defer cancel()
	items := make([]*complydv1.ScreenPaymentMessageItem, len(txs))
	statuses := make([]iso20022.TxStatus, len(txs))
	admission.Batch(len(txs), func(i int) {
		items[i], statuses[i] = h.screenTransfer(ctx, ours, p.TenantID, m.Transactions[i], txs[i])
	})
	report := iso20022.StatusReport(m, screening.NewID("CMPLYD"), h.svc.Now(), statuses)
	return connect.NewResponse(&complydv1.ScreenPaymentMessageResponse{MessageType: m.Definition.Name, MessageId: m.ID,
		Items: items, StatusReport: string(report)}), nil
}

// screenTransfer screens one credit transfer and answers its item and its status line: the
// verdict's status, the original verdict's for a transfer already screened (the same
// idempotency as a JSON screening: nothing is screened twice), RJCT NARR for one not screened.
func (h *ScreeningHandler) screenTransfer(ctx context.Context, ours bool, tenant tenancy.TenantID, t iso20022.CreditTransfer, tx *screening.Transaction) (*complydv1.ScreenPaymentMessageItem, iso20022.TxStatus) {
	item := &complydv1.ScreenPaymentMessageItem{ExternalId: tx.ExternalID, EndToEndId: t.EndToEndID,
		InstructionId: t.InstructionID, TxId: t.TxID, Uetr: t.UETR}
	st := iso20022.TxStatus{Transfer: t}
	err := spend(h.limits, tenant, auth.ClassScreening)
	if err != nil {
		item.Error = rateLimitedInfo(ctx, h.log, err)
	} else {
		var out screening.Screened
		if out, err = h.svc.Screen(ctx, tenant, tx, admission.PaceOf(ctx)); err == nil {
			item.Result = screeningResultToProto(out)
			st.Status, st.Reason = iso20022.Status(out.Record.Result.Outcome)
			st.Info = []string{fmt.Sprintf("complyd %s, risk %s, score %.2f", out.Record.Result.Outcome,
				out.Record.Result.RiskLevel, out.Record.Result.Score)}
		} else {
			item.Error = errorInfoOf(ctx, h.log, admission.Over(ctx, ours, err))
		}
	}
	if item.Error != nil {
		if o, ok := duplicateOutcome(err); ok {
			st.Status, st.Reason = iso20022.Status(o)
			st.Info = []string{fmt.Sprintf("already screened: complyd %s", o)}
		} else {
			st.Status, st.Reason = iso20022.StatusRejected, iso20022.ReasonNarrative
			st.Info = []string{"not screened: " + item.Error.Code + ": " + item.Error.Message}
		}
	}
	item.Status, item.StatusReason = st.Status, st.Reason
	return item, st
}

// duplicateOutcome is the original outcome a DUPLICATE_EXTERNAL_ID carries.
func duplicateOutcome(err error) (rules.Outcome, bool) {
	e, ok := apperr.As(err)
	if !ok || e.Code != apperr.DuplicateExternalID {
		return "", false
	}
	o, _ := e.Data["outcome"].(string)
	return rules.Outcome(o), o != ""
}

// paymentToProto maps a stored transaction's payment message, marking each party that a list
// entry matched in its screening (the hits the sanctions engine stored under its label).
func paymentToProto(p *screening.Payment, r screening.Result) *complydv1.PaymentMessage {
	if p == nil {
		return nil
	}
	hit := map[string]bool{}
	for _, v := range r.Breakdown {
		for _, h := range v.Hits {
			hit[h.Party] = true
		}
	}
	out := &complydv1.PaymentMessage{MessageType: p.MessageType, MessageId: p.MessageID,
		PaymentInformationId: p.PaymentInformationID, EndToEndId: p.EndToEndID, InstructionId: p.InstructionID,
		TxId: p.TxID, Uetr: p.UETR, Amount: p.Amount, Currency: p.Currency, Purpose: p.Purpose,
		Remittance: nonNil(p.Remittance)}
	for _, pp := range p.Parties {
		q := &complydv1.PaymentParty{Role: pp.Role, Path: pp.Path, Name: pp.Name, Bic: pp.BIC, Lei: pp.LEI,
			Account: pp.Account, Country: pp.Country, Address: nonNil(pp.Address), ScreenedAs: pp.ScreenedAs,
			Hit: hit[pp.ScreenedAs]}
		for _, id := range pp.Identifiers {
			q.Identifiers = append(q.Identifiers, &complydv1.PaymentPartyIdentifier{Id: id.ID, Scheme: id.Scheme, Issuer: id.Issuer})
		}
		out.Parties = append(out.Parties, q)
	}
	return out
}
