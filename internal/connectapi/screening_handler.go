package connectapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"buf.build/go/protovalidate"
	"connectrpc.com/connect"
	"github.com/shopspring/decimal"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// ScreeningHandler serves complyd.v1.TransactionService.
type ScreeningHandler struct {
	svc       *screening.Service
	validator protovalidate.Validator
	limits    *auth.TenantLimiter
	log       *slog.Logger
	// budget is the deadline of a unary screening whose caller set none (admission.Budget).
	budget admission.Budget
}

// WithDefaultDeadline sets the budget of unary screenings that arrive without a deadline of
// their own (admission.Budget: past it, SERVICE_UNAVAILABLE with Retry-After).
func (h *ScreeningHandler) WithDefaultDeadline(d time.Duration) *ScreeningHandler {
	h.budget = admission.Budget(d)
	return h
}

// NewScreeningHandler returns the handler. v validates each message of a stream (the
// validation interceptor validates unary requests, batches included, but sees no stream
// message); limits (nil: unlimited) are spent once per streamed message and per batch item,
// the procedures the permission table marks perMessage.
func NewScreeningHandler(svc *screening.Service, v protovalidate.Validator, limits *auth.TenantLimiter, log *slog.Logger) *ScreeningHandler {
	if svc == nil || v == nil || log == nil {
		panic("connectapi: NewScreeningHandler needs a service, a validator and a logger")
	}
	return &ScreeningHandler{svc: svc, validator: v, limits: limits, log: log}
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
	ctx, cancel, ours := h.budget.Apply(ctx)
	defer cancel()
	out, err := h.svc.Screen(ctx, p.TenantID, tx, admission.PaceOf(ctx))
	if err != nil {
		return nil, admission.Over(ctx, ours, err)
	}
	return connect.NewResponse(screeningResultToProto(out)), nil
}

// ScreenTransactions implements TransactionService.ScreenTransactions: the items are screened
// concurrently (admission.Batch) and answered in request order, each with its result or its
// error. Each item counts against the tenant's screening rate limit, as a streamed message
// does; an item over it is answered RATE_LIMITED. The batch carries no default deadline (a
// batch of 500 legitimately takes longer): its items' pace is the caller's (admission.PaceOf).
func (h *ScreeningHandler) ScreenTransactions(ctx context.Context, req *connect.Request[complydv1.ScreenTransactionsRequest]) (*connect.Response[complydv1.ScreenTransactionsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	in := req.Msg.Transactions
	items := make([]*complydv1.ScreenTransactionsItem, len(in))
	pace := admission.PaceOf(ctx)
	admission.Batch(len(in), func(i int) { items[i] = h.screenItem(ctx, p.TenantID, in[i], pace, false) })
	return connect.NewResponse(&complydv1.ScreenTransactionsResponse{Items: items}), nil
}

// screenItem answers one batch item or streamed message: it spends one request of the
// tenant's screening rate limit, validates m when validate is set (stream messages; a batch
// was validated whole by the interceptor), then maps and screens it at pace. Every failure is
// the item's error, as the unary call would have answered it.
func (h *ScreeningHandler) screenItem(ctx context.Context, tenant tenancy.TenantID, m *complydv1.ScreenTransactionRequest, pace admission.Pace, validate bool) *complydv1.ScreenTransactionsItem {
	item := &complydv1.ScreenTransactionsItem{ExternalId: m.ExternalId}
	err := spend(h.limits, tenant, auth.ClassScreening)
	if err != nil {
		item.Error = rateLimitedInfo(ctx, h.log, err)
		return item
	}
	if validate {
		if verr := h.validator.Validate(m); verr != nil {
			item.Error = errorInfoOf(ctx, h.log, validationError(verr))
			return item
		}
	}
	tx, err := transactionFromProto(m)
	if err == nil {
		var out screening.Screened
		if out, err = h.svc.Screen(ctx, tenant, tx, pace); err == nil {
			item.Result = screeningResultToProto(out)
			return item
		}
	}
	item.Error = errorInfoOf(ctx, h.log, err)
	return item
}

// rateLimitedInfo is the RATE_LIMITED item error. An item has no Retry-After header, so the
// wait rides in data as retryAfterMs.
func rateLimitedInfo(ctx context.Context, log *slog.Logger, err error) *complydv1.ErrorInfo {
	info := errorInfoOf(ctx, log, err)
	if e, ok := apperr.As(err); ok && e.RetryAfter > 0 {
		info.Data = &structpb.Struct{Fields: map[string]*structpb.Value{
			"retryAfterMs": structpb.NewNumberValue(float64(e.RetryAfter.Milliseconds() + 1))}}
	}
	return info
}

// errorInfoOf renders err as the ErrorInfo a failed call would carry. An application error is
// rendered directly (no round trip through a marshalled Connect detail: streams and batches
// answer duplicates and refusals with it at full rate).
func errorInfoOf(ctx context.Context, log *slog.Logger, err error) *complydv1.ErrorInfo {
	if e, ok := apperr.As(err); ok {
		return infoOf(ctx, log, e)
	}
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

// streamInFlight bounds the screenings of one stream in flight at once (admission.StreamInFlight:
// when they are all taken the handler stops reading, so HTTP/2 flow control holds the sender
// back).
const streamInFlight = admission.StreamInFlight

// ScreenTransactionStream implements TransactionService.ScreenTransactionStream: messages are
// read in this goroutine and each is screened in its own; answers are sent as they complete
// (the externalId correlates them). The stream ends when the client closes its side and every
// screening in flight has been answered. Per-message failures are items, never stream errors.
func (h *ScreeningHandler) ScreenTransactionStream(ctx context.Context, stream *connect.BidiStream[complydv1.ScreenTransactionRequest, complydv1.ScreenTransactionsItem]) error {
	p, err := principalOf(ctx)
	if err != nil {
		return err
	}
	s := &screeningStream{h: h, ctx: ctx, tenant: p.TenantID, stream: stream, slots: make(chan struct{}, streamInFlight),
		work: make(chan *complydv1.ScreenTransactionRequest, streamInFlight)}
	err = s.read()
	close(s.work)
	// Every screening in flight answers before the handler returns: Send after the return
	// would write to a finished response. After a cancellation they still finish (a screening
	// queued for commit is stored whatever happens to its caller); their answers are dropped.
	s.wg.Wait()
	if err == nil {
		s.mu.Lock()
		err = s.sendErr
		s.mu.Unlock()
	}
	if err != nil {
		return err
	}
	return nil
}

// screeningStream is the state of one ScreenTransactionStream call.
type screeningStream struct {
	h      *ScreeningHandler
	ctx    context.Context
	tenant tenancy.TenantID
	stream *connect.BidiStream[complydv1.ScreenTransactionRequest, complydv1.ScreenTransactionsItem]
	slots  chan struct{} // one per screening in flight
	wg     sync.WaitGroup
	// work feeds the stream's workers: goroutines started as the load needs them (up to
	// streamInFlight) that live as long as the stream, so that a message costs no goroutine
	// and no stack growth of its own.
	work    chan *complydv1.ScreenTransactionRequest
	workers int         // started (read's goroutine only)
	broken  atomic.Bool // a Send failed: the client is gone, stop reading

	mu      sync.Mutex // serialises Send (a stream's Send is not safe for concurrent use)
	sendErr error      // first failed Send
}

// read receives messages until the client closes its side (nil), the stream fails or ctx ends.
// A slot is taken before each read, so at most streamInFlight screenings run at once.
func (s *screeningStream) read() error {
	for {
		select {
		case s.slots <- struct{}{}:
		case <-s.ctx.Done():
			return s.ctx.Err()
		}
		if s.broken.Load() {
			return nil // sendErr says why
		}
		m, err := s.stream.Receive()
		if err != nil {
			<-s.slots
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		s.wg.Add(1)
		s.work <- m // never blocks: the slot taken above bounds what is queued
		// There are always at least as many workers as messages in flight (slots taken), so a
		// message never waits for another's screening to finish. (Counting busy workers instead
		// raced: a worker that had taken a message but not yet counted itself busy left the
		// next message queued behind screenings that may take seconds.)
		if s.workers < len(s.slots) {
			s.workers++
			go s.worker()
		}
	}
}

// worker screens messages until the stream's work channel is closed.
func (s *screeningStream) worker() {
	for m := range s.work {
		s.screen(m)
	}
}

// screen answers one message and frees its slot.
func (s *screeningStream) screen(m *complydv1.ScreenTransactionRequest) {
	defer func() {
		<-s.slots
		s.wg.Done()
	}()
	item := s.h.screenItem(s.ctx, s.tenant, m, admission.Streamed, true)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sendErr != nil {
		return
	}
	if err := s.stream.Send(item); err != nil {
		s.sendErr = err
		s.broken.Store(true)
	}
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
	f := screening.ListParams{Outcome: m.GetOutcome(), Type: m.GetType(), From: timePtr(m.From), To: timePtr(m.To), Account: m.GetAccount(),
		RiskLevel: m.GetRiskLevel(), RuleID: m.GetRuleId()}
	// The patterns were validated, so the amounts parse.
	if m.MinAmount != nil {
		d := decimal.RequireFromString(m.GetMinAmount())
		f.MinAmount = &d
	}
	if m.MaxAmount != nil {
		d := decimal.RequireFromString(m.GetMaxAmount())
		f.MaxAmount = &d
	}
	res, err := h.svc.List(ctx, p.TenantID, f, pg)
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
		ProcessedAt: ts(s.ProcessedAt), TriggeredRules: triggeredToProto(r.TriggeredRules), CaseId: nullString(s.CaseID),
		RuleVersions: make(map[string]int32, len(s.RuleVersions))}
	for id, n := range s.RuleVersions {
		v.RuleVersions[id] = int32(n)
	}
	fx := fxToProto(r.FX)
	for _, e := range r.Breakdown {
		b := breakdownToProto(e, fx)
		v.EngineVerdicts = append(v.EngineVerdicts, &complydv1.EngineVerdict{EngineName: b.Category, Score: b.Score,
			Outcome: b.Outcome, RulesTriggered: b.RulesTriggered, LatencyMs: b.LatencyMs, Fx: b.Fx, Skipped: b.Skipped,
			SkipReason: b.SkipReason})
	}
	out.Verdict = v
	out.PaymentMessage = paymentToProto(t.Payment, r)
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

// isoLayouts are the ISO 8601 extended date-time forms with a zone that the proto pattern
// admits: seconds and fraction optional (a decimal comma too), zone Z, ±hh:mm, ±hhmm or ±hh.
var isoLayouts = func() []string {
	var out []string
	for _, clock := range []string{"15:04:05.999999999", "15:04"} {
		for _, zone := range []string{"Z07:00", "Z0700", "Z07"} {
			out = append(out, "2006-01-02T"+clock+zone)
		}
	}
	return out
}()

// parseISO parses an ISO 8601 date-time with a zone (the proto pattern admits the shape; this
// rejects impossible dates such as month 13).
func parseISO(field, s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	v := strings.Replace(s, ",", ".", 1) // 10:00:00,5 is 10:00:00.5 in ISO 8601
	for _, layout := range isoLayouts {
		if t, err := time.Parse(layout, v); err == nil {
			t = t.UTC()
			// Year 0000 with a positive offset is year -1 in UTC: RFC 3339 and protobuf's
			// Timestamp (0001-01-01 to 9999-12-31) cannot carry it, so the stored transaction
			// could never be answered again. 0001-01-01T00:00:00Z itself is Go's zero time,
			// which the service reads as "not given" (screening's validation answered "is
			// required" for it), so the range starts just after it.
			if !t.After(time.Time{}) || t.Year() > 9999 {
				return nil, apperr.Invalid(field, "must be after 0001-01-01T00:00:00Z and before 10000-01-01 in UTC")
			}
			return &t, nil
		}
	}
	return nil, apperr.Invalid(field, "must be an ISO 8601 date-time with a time zone")
}

// isoFieldError is the field error of a date-time parseISO refused (its own, which says whether
// the text or the range was wrong), or of one that is missing (err nil).
func isoFieldError(field string, err error) apperr.FieldError {
	if e, ok := apperr.As(err); ok && len(e.Details) == 1 {
		return e.Details[0]
	}
	return apperr.FieldError{Field: field, Message: "must be an ISO 8601 date-time"}
}

// maxExactAmount is 2^46 (70,368,744,177,664): below it a float64's spacing is at most 2^-7,
// less than a cent, so every amount of at most two decimals is a distinct double whose shortest
// text (decimal.NewFromFloat) is that amount again: the double of the proto (and the JSON number
// of /api/v1, decoded into it) keeps the amount to the cent. From 2^46 the spacing is 2^-6,
// more than a cent: 80000000000000.01 reads back as 80000000000000.02, so the number stored would
// not be the number sent; refused (issue 48 point 7c). 2^53/100, the bound of "cents as an
// integer", let that through: the double holds the amount, not the cents.
const maxExactAmount = float64(1 << 46)

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
	if m.Amount >= maxExactAmount {
		bad = append(bad, apperr.FieldError{Field: "amount", Message: fmt.Sprintf("must be below %.2f: a larger number "+
			"cannot be held exactly to the cent (80000000000000.01 would become 80000000000000.02)", maxExactAmount)})
	}
	ts, err := parseISO("timestamp", m.Timestamp)
	if err != nil || ts == nil {
		bad = append(bad, isoFieldError("timestamp", err))
	} else {
		tx.Timestamp = *ts
	}
	if tx.SenderKYCVerifiedAt, err = parseISO("senderKycVerifiedAt", m.GetSenderKycVerifiedAt()); err != nil {
		bad = append(bad, isoFieldError("senderKycVerifiedAt", err))
	}
	if tx.ReceiverKYCVerifiedAt, err = parseISO("receiverKycVerifiedAt", m.GetReceiverKycVerifiedAt()); err != nil {
		bad = append(bad, isoFieldError("receiverKycVerifiedAt", err))
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

// breakdownToProto maps one engine's verdict; fx is the screening's applied conversion, which
// every entry of a non-NGN transaction carries (spec 4.3: "fx (present for non-NGN
// transactions)"), whichever engine computed it.
func breakdownToProto(v screening.EngineVerdict, fx *complydv1.FxConversion) *complydv1.RiskBreakdown {
	b := &complydv1.RiskBreakdown{Category: v.Category, Score: int32(v.Score), Outcome: string(v.Outcome),
		RulesTriggered: make([]string, 0, len(v.RulesTriggered)), LatencyMs: int32(v.LatencyMs), Fx: fx,
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
		t := &complydv1.TriggeredRule{Name: r.Name, Category: r.Category, RiskScore: int32(r.RiskScore),
			Details: r.Details, CreatedBy: createdBy, KycSource: nullString(r.KYCSource),
			KycExternalRef: nullString(r.KYCExternalRef), Outcome: string(r.Outcome)}
		if r.RuleVersion > 0 { // a custom rule: which version fired (docs/design/engines.md "Rule versions")
			t.RuleId, t.RuleVersion = r.ID, int32(r.RuleVersion)
		}
		out = append(out, t)
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
	fx := fxToProto(r.FX)
	for _, v := range r.Breakdown {
		out.RiskBreakdown = append(out.RiskBreakdown, breakdownToProto(v, fx))
	}
	return out
}
