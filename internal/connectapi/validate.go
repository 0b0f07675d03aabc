package connectapi

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"buf.build/go/protovalidate"
	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/complyd/complyd/internal/apperr"
)

// validationInterceptor runs protovalidate on every request before the handler and turns
// violations into VALIDATION_ERROR with details naming the JSON (camelCase) field path.
func validationInterceptor(v protovalidate.Validator) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			if msg, ok := req.Any().(proto.Message); ok {
				if err := v.Validate(msg); err != nil {
					return nil, validationError(err)
				}
			}
			return next(ctx, req)
		}
	}
}

func validationError(err error) error {
	var ve *protovalidate.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	var details []apperr.FieldError
	for _, v := range ve.Violations {
		details = append(details, apperr.FieldError{Field: fieldPath(v), Message: v.Proto.GetMessage()})
	}
	return apperr.InvalidFields(details...)
}

// fieldPath renders a violation's path as JSON names, for example directors[0].name.
func fieldPath(v *protovalidate.Violation) string {
	var b strings.Builder
	for i, el := range v.Proto.GetField().GetElements() {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(JSONName(el.GetFieldName()))
		switch s := el.GetSubscript().(type) {
		case interface{ GetIndex() uint64 }:
			b.WriteString("[" + strconv.FormatUint(s.GetIndex(), 10) + "]")
		case interface{ GetStringKey() string }:
			b.WriteString("[" + strconv.Quote(s.GetStringKey()) + "]")
		}
	}
	if b.Len() == 0 {
		return "body"
	}
	return b.String()
}

// JSONName is the JSON (lowerCamelCase) name of a proto field name or dotted path:
// sender_rc_number → senderRcNumber, filter.page_size → filter.pageSize.
func JSONName(s string) string {
	var b strings.Builder
	up := false
	for _, r := range s {
		if r == '_' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}
