package connectapi

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"connectrpc.com/connect"
	"github.com/shopspring/decimal"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/complyd/complyd/internal/apperr"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/screening"
)

// ScreeningHandler serves complyd.v1.TransactionService.
type ScreeningHandler struct {
	svc *screening.Service
	log *slog.Logger
}

// NewScreeningHandler returns the handler.
func NewScreeningHandler(svc *screening.Service, log *slog.Logger) *ScreeningHandler {
	return &ScreeningHandler{svc: svc, log: log}
}

// ScreenTransaction implements TransactionService.ScreenTransaction.
func (h *ScreeningHandler) ScreenTransaction(ctx context.Context, req *connect.Request[complydv1.ScreenTransactionRequest]) (*connect.Response[complydv1.ScreeningResult], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := transactionFromProto(req.Msg)
	if err != nil {
		return nil, err
	}
	out, err := h.svc.Screen(ctx, p.TenantID, tx)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(screeningResultToProto(out)), nil
}

// batchParallelism bounds the screenings of one batch in flight at once; they share group
// commits, so a batch of 500 costs a handful of database transactions.
const batchParallelism = 64

// ScreenTransactions implements TransactionService.ScreenTransactions: the items are screened
// concurrently and answered in request order, each with its result or its error.
func (h *ScreeningHandler) ScreenTransactions(ctx context.Context, req *connect.Request[complydv1.ScreenTransactionsRequest]) (*connect.Response[complydv1.ScreenTransactionsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	in := req.Msg.Transactions
	items := make([]*complydv1.ScreenTransactionsItem, len(in))
	sem := make(chan struct{}, batchParallelism)
	var wg sync.WaitGroup
	for i, m := range in {
		items[i] = &complydv1.ScreenTransactionsItem{ExternalId: m.ExternalId}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			tx, err := transactionFromProto(m)
			if err == nil {
				var out screening.Screened
				if out, err = h.svc.Screen(ctx, p.TenantID, tx); err == nil {
					items[i].Result = screeningResultToProto(out)
					return
				}
			}
			items[i].Error = errorInfoOf(ctx, h.log, err)
		}()
	}
	wg.Wait()
	return connect.NewResponse(&complydv1.ScreenTransactionsResponse{Items: items}), nil
}

// errorInfoOf renders err as the ErrorInfo a failed call would carry.
func errorInfoOf(ctx context.Context, log *slog.Logger, err error) *complydv1.ErrorInfo {
	ce := ToConnect(ctx, log, err)
	for _, d := range ce.Details() {
		if v, e := d.Value(); e == nil {
			if info, ok := v.(*complydv1.ErrorInfo); ok {
				return info
			}
		}
	}
	return &complydv1.ErrorInfo{Code: string(apperr.Internal), Message: ce.Message()}
}

// ListTransactions implements TransactionService.ListTransactions.
func (h *ScreeningHandler) ListTransactions(ctx context.Context, req *connect.Request[complydv1.ListTransactionsRequest]) (*connect.Response[complydv1.ListTransactionsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	pg, err := paging.New(m.Page, m.Limit, screening.ListPageDefault, screening.ListPageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.List(ctx, p.TenantID, screening.ListParams{Outcome: m.GetOutcome(), Type: m.GetType(),
		From: timePtr(m.From), To: timePtr(m.To)}, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListTransactionsResponse{Items: make([]*complydv1.TransactionListItem, 0, len(res.Items)),
		Total: int32(res.Total), Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, s := range res.Items {
		t := s.Tx
		out.Items = append(out.Items, &complydv1.TransactionListItem{Id: s.ID, ExternalId: t.ExternalID, Type: t.Type,
			Channel: t.Channel, Amount: t.Amount.String(), Currency: t.Currency,
			SenderAccountNumber: nullString(t.SenderAccountNumber), SenderName: nullString(t.SenderName),
			ReceiverName: nullString(t.ReceiverName), ReceiverCountry: nullString(t.ReceiverCountry),
			TransactionTimestamp: ts(t.Timestamp), Verdict: verdictSummary(s.Result), CreatedAt: ts(s.CreatedAt)})
	}
	return connect.NewResponse(out), nil
}

// GetTransaction implements TransactionService.GetTransaction.
func (h *ScreeningHandler) GetTransaction(ctx context.Context, req *connect.Request[complydv1.GetTransactionRequest]) (*connect.Response[complydv1.Transaction], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	s, err := h.svc.Get(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	t := s.Tx
	out := &complydv1.Transaction{Id: s.ID, TenantId: string(t.TenantID), ExternalId: t.ExternalID, Type: t.Type,
		Channel: t.Channel, Amount: t.Amount.String(), Currency: t.Currency,
		SenderAccountNumber: nullString(t.SenderAccountNumber), SenderBvn: nullString(t.SenderBVN),
		SenderName: nullString(t.SenderName), SenderBankCode: nullString(t.SenderBankCode),
		ReceiverAccountNumber: nullString(t.ReceiverAccountNumber), ReceiverBvn: nullString(t.ReceiverBVN),
		ReceiverName: nullString(t.ReceiverName), ReceiverBankCode: nullString(t.ReceiverBankCode),
		ReceiverCountry: nullString(t.ReceiverCountry), Narration: nullString(t.Narration),
		DeviceId: nullString(t.DeviceID), IpAddress: nullString(t.IPAddress), Latitude: nullDouble(t.Latitude),
		Longitude: nullDouble(t.Longitude), TransactionTimestamp: ts(t.Timestamp), CreatedAt: ts(s.CreatedAt)}
	if t.Metadata != nil {
		if out.Metadata, err = toStruct(t.Metadata); err != nil {
			return nil, err
		}
	}
	r := s.Result
	v := &complydv1.Verdict{Id: s.VerdictID, TransactionId: s.ID, Outcome: string(r.Outcome), RiskLevel: r.RiskLevel,
		AggregateScore: r.Score, Actions: nonNil(r.Actions), TotalLatencyMs: int32(r.TotalLatencyMs),
		ProcessedAt: ts(s.ProcessedAt), TriggeredRules: triggeredToProto(r.TriggeredRules), CaseId: nullString(s.CaseID)}
	for _, e := range r.Breakdown {
		b := breakdownToProto(e)
		v.EngineVerdicts = append(v.EngineVerdicts, &complydv1.EngineVerdict{EngineName: b.Category, Score: b.Score,
			Outcome: b.Outcome, RulesTriggered: b.RulesTriggered, LatencyMs: b.LatencyMs, Fx: b.Fx, Skipped: b.Skipped,
			SkipReason: b.SkipReason})
	}
	out.Verdict = v
	return connect.NewResponse(out), nil
}

func nullDouble(f *float64) *wrapperspb.DoubleValue {
	if f == nil {
		return nil
	}
	return wrapperspb.Double(*f)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func verdictSummary(r screening.Result) *complydv1.VerdictSummary {
	return &complydv1.VerdictSummary{Outcome: string(r.Outcome), RiskLevel: r.RiskLevel, AggregateScore: r.Score,
		TotalLatencyMs: int32(r.TotalLatencyMs)}
}

// parseISO parses an ISO 8601 date-time with a zone (the proto pattern admits the shape; this
// rejects impossible dates such as month 13).
func parseISO(field, s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return nil, apperr.Invalid(field, "must be an ISO 8601 date-time")
	}
	t = t.UTC()
	return &t, nil
}

// transactionFromProto maps the request; amounts become exact decimals from the number's
// shortest text (a JSON number such as 1500.75 is the decimal 1500.75).
func transactionFromProto(m *complydv1.ScreenTransactionRequest) (*screening.Transaction, error) {
	tx := &screening.Transaction{ExternalID: m.ExternalId, Type: m.Type, Channel: m.Channel,
		Amount: decimal.NewFromFloat(m.Amount), Currency: m.GetCurrency(), SenderAccountNumber: m.SenderAccountNumber,
		SenderBVN: m.GetSenderBvn(), SenderKYCStatus: m.GetSenderKycStatus(), SenderKYCTier: m.GetSenderKycTier(),
		SenderKYCExternalRef: m.GetSenderKycExternalRef(), SenderKYBStatus: m.GetSenderKybStatus(), SenderName: m.SenderName,
		SenderBankCode: m.GetSenderBankCode(), ReceiverAccountNumber: m.GetReceiverAccountNumber(),
		ReceiverName: m.GetReceiverName(), ReceiverBVN: m.GetReceiverBvn(), ReceiverKYCStatus: m.GetReceiverKycStatus(),
		ReceiverKYCExternalRef: m.GetReceiverKycExternalRef(), ReceiverBankCode: m.GetReceiverBankCode(),
		ReceiverCountry: m.GetReceiverCountry(), Narration: m.GetNarration(), DeviceID: m.GetDeviceId(),
		IPAddress: m.GetIpAddress(), Latitude: m.Latitude, Longitude: m.Longitude}
	var bad []apperr.FieldError
	ts, err := parseISO("timestamp", m.Timestamp)
	if err != nil || ts == nil {
		bad = append(bad, apperr.FieldError{Field: "timestamp", Message: "must be an ISO 8601 date-time"})
	} else {
		tx.Timestamp = *ts
	}
	if tx.SenderKYCVerifiedAt, err = parseISO("senderKycVerifiedAt", m.GetSenderKycVerifiedAt()); err != nil {
		bad = append(bad, apperr.FieldError{Field: "senderKycVerifiedAt", Message: "must be an ISO 8601 date-time"})
	}
	if tx.ReceiverKYCVerifiedAt, err = parseISO("receiverKycVerifiedAt", m.GetReceiverKycVerifiedAt()); err != nil {
		bad = append(bad, apperr.FieldError{Field: "receiverKycVerifiedAt", Message: "must be an ISO 8601 date-time"})
	}
	if len(bad) > 0 {
		return nil, apperr.InvalidFields(bad...)
	}
	if m.Metadata != nil {
		tx.Metadata = m.Metadata.AsMap()
	}
	return tx, nil
}

func fxToProto(f *screening.FX) *complydv1.FxConversion {
	if f == nil {
		return nil
	}
	return &complydv1.FxConversion{Currency: f.Currency, RateToNgn: f.RateToNGN.String(), Amount: f.Amount.String(),
		AmountNgn: f.AmountNGN.StringFixed(2), RateUpdatedAt: ts(f.RateUpdatedAt)}
}

func breakdownToProto(v screening.EngineVerdict) *complydv1.RiskBreakdown {
	b := &complydv1.RiskBreakdown{Category: v.Category, Score: int32(v.Score), Outcome: string(v.Outcome),
		RulesTriggered: make([]string, 0, len(v.RulesTriggered)), LatencyMs: int32(v.LatencyMs), Fx: fxToProto(v.FX),
		Skipped: v.Skipped, SkipReason: nullString(v.SkipReason)}
	for _, r := range v.RulesTriggered {
		b.RulesTriggered = append(b.RulesTriggered, r.Name)
	}
	return b
}

func triggeredToProto(rs []screening.TriggeredRule) []*complydv1.TriggeredRule {
	out := make([]*complydv1.TriggeredRule, 0, len(rs))
	for _, r := range rs {
		createdBy := r.CreatedBy
		if createdBy == "" {
			createdBy = "system"
		}
		out = append(out, &complydv1.TriggeredRule{Name: r.Name, Category: r.Category, RiskScore: int32(r.RiskScore),
			Details: r.Details, CreatedBy: createdBy, KycSource: nullString(r.KYCSource),
			KycExternalRef: nullString(r.KYCExternalRef), Outcome: string(r.Outcome)})
	}
	return out
}

func screeningResultToProto(s screening.Screened) *complydv1.ScreeningResult {
	rec := s.Record
	r := rec.Result
	out := &complydv1.ScreeningResult{TransactionId: rec.ID, ExternalId: rec.Tx.ExternalID, Outcome: string(r.Outcome),
		RiskLevel: r.RiskLevel, AggregateScore: r.Score, Actions: nonNil(r.Actions),
		RiskBreakdown: make([]*complydv1.RiskBreakdown, 0, len(r.Breakdown)), TriggeredRules: triggeredToProto(r.TriggeredRules),
		TotalLatencyMs: int32(r.TotalLatencyMs), CaseId: nullString(s.CaseID)}
	for _, v := range r.Breakdown {
		out.RiskBreakdown = append(out.RiskBreakdown, breakdownToProto(v))
	}
	return out
}
