package connectapi

import (
	"context"
	"errors"
	"log/slog"
	"strconv"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/complyd/complyd/internal/apperr"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/requestid"
)

// connectCodes maps every apperr code to its Connect code (docs/design/design-choices.md §2).
var connectCodes = map[apperr.Code]connect.Code{
	apperr.Validation:              connect.CodeInvalidArgument,
	apperr.Unauthenticated:         connect.CodeUnauthenticated,
	apperr.InvalidCredentials:      connect.CodeUnauthenticated,
	apperr.InvalidRefreshToken:     connect.CodeUnauthenticated,
	apperr.AccountDisabled:         connect.CodePermissionDenied,
	apperr.Forbidden:               connect.CodePermissionDenied,
	apperr.NotFound:                connect.CodeNotFound,
	apperr.UserAlreadyExists:       connect.CodeAlreadyExists,
	apperr.DuplicateExternalID:     connect.CodeAlreadyExists,
	apperr.InvalidStatusTransition: connect.CodeFailedPrecondition,
	apperr.Conflict:                connect.CodeFailedPrecondition,
	apperr.InsufficientFunds:       connect.CodeFailedPrecondition,
	apperr.PayloadTooLarge:         connect.CodeResourceExhausted,
	apperr.UnsupportedMediaType:    connect.CodeInvalidArgument,
	apperr.ProviderTierUnsupported: connect.CodeFailedPrecondition,
	apperr.RateLimited:             connect.CodeResourceExhausted,
	apperr.ProviderUnavailable:     connect.CodeUnavailable,
	apperr.Unavailable:             connect.CodeUnavailable,
	apperr.Internal:                connect.CodeInternal,
}

// internalMessage is all a caller learns of an unexpected failure.
const internalMessage = "internal error; quote the request id to support"

// ToConnect converts any error into a *connect.Error carrying ErrorInfo. Errors that are not
// *apperr.Error become INTERNAL: the cause is logged with the request id, never returned.
// Handlers do not call it: they return their errors as they are and the error interceptor
// (errorInterceptor) maps them, once per call. It is called directly only where no handler
// runs: authentication's refusals (Authenticator.fail), the REST facade's own refusals
// (restapi/refusals.go) and the per-item results of a screening batch or stream (errorInfoOf).
func ToConnect(ctx context.Context, log *slog.Logger, err error) *connect.Error {
	if err == nil {
		return nil
	}
	var ce *connect.Error
	if errors.As(err, &ce) {
		return ce
	}
	e, ok := apperr.As(err)
	if !ok {
		if errors.Is(err, context.Canceled) {
			return connect.NewError(connect.CodeCanceled, errors.New("request cancelled"))
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return connect.NewError(connect.CodeDeadlineExceeded, errors.New("deadline exceeded"))
		}
		log.ErrorContext(ctx, "internal error", "err", err)
		e = apperr.New(apperr.Internal, internalMessage+" ("+requestid.From(ctx)+")")
	}
	code, ok := connectCodes[e.Code]
	if !ok {
		code = connect.CodeInternal
	}
	out := connect.NewError(code, errors.New(e.Message))
	if d, err := connect.NewErrorDetail(infoOf(ctx, log, e)); err == nil {
		out.AddDetail(d)
	}
	if e.RetryAfter > 0 {
		out.Meta().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds()+0.999)))
	}
	return out
}

// infoOf renders e as the ErrorInfo detail (docs/design/design-choices.md §2: code, details, data).
func infoOf(ctx context.Context, log *slog.Logger, e *apperr.Error) *complydv1.ErrorInfo {
	info := &complydv1.ErrorInfo{Code: string(e.Code), Message: e.Message}
	for _, d := range e.Details {
		info.Details = append(info.Details, &complydv1.FieldViolation{Field: d.Field, Message: d.Message})
	}
	if e.Data != nil {
		if s, err := structpb.NewStruct(normalizeData(e.Data)); err == nil {
			info.Data = s
		} else {
			log.ErrorContext(ctx, "error data not representable", "err", err)
		}
	}
	return info
}

// normalizeData converts typed slices to []any so structpb accepts them.
func normalizeData(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch t := v.(type) {
		case []string:
			a := make([]any, len(t))
			for i, s := range t {
				a[i] = s
			}
			out[k] = a
		case map[string]any:
			out[k] = normalizeData(t)
		default:
			out[k] = v
		}
	}
	return out
}

// errorInterceptor is the single place where handler and interceptor errors become Connect
// errors with the typed ErrorInfo detail: handlers return their errors as they are (apperr or
// not) and every unary and streaming call maps them here, once, through ToConnect.
type errorInterceptor struct{ log *slog.Logger }

var _ connect.Interceptor = errorInterceptor{}

func newErrorInterceptor(log *slog.Logger) errorInterceptor { return errorInterceptor{log: log} }

// WrapUnary maps the error of a unary call.
func (i errorInterceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		res, err := next(ctx, req)
		if err != nil {
			return nil, ToConnect(ctx, i.log, err)
		}
		return res, nil
	}
}

// WrapStreamingClient passes client streams through: the mapping is the handler side's.
func (errorInterceptor) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

// WrapStreamingHandler maps the error a streaming handler returns.
func (i errorInterceptor) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) error {
		if err := next(ctx, conn); err != nil {
			return ToConnect(ctx, i.log, err)
		}
		return nil
	}
}
