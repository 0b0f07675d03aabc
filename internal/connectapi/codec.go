package connectapi

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// JSONCodec is the handlers' "json" codec: protojson with every field written out, default
// values included, and unknown fields ignored, as the /api/v1 facade's transcoder (vanguard's
// default JSON codec) writes and reads them.
//
// With the same codec on both sides the facade hands a request body that needs no rewriting (no
// path or query parameters: POST /api/v1/transactions/screen among them) to the handler as it
// came, and the handler's answer back as it went, instead of decoding the JSON, encoding it as
// protobuf for the handler and the same again on the way back (issue 15; BenchmarkFacadeScreen:
// 70-75 → 66-68 µs and 382 → 310 allocations per screening, the measurement log of docs/performance.md#history). Connect clients
// that speak JSON (the dashboard, buf curl) get the default values written out too, which the
// protobuf JSON mapping allows and every conforming reader accepts. restapi's
// TestFacadeJSONMatchesTranscoder keeps the two codecs' bytes the same.
type JSONCodec struct{}

// jsonOptions are the codec's protojson options: every field written out.
var jsonOptions = protojson.MarshalOptions{EmitUnpopulated: true}

// Name implements connect.Codec.
func (JSONCodec) Name() string { return "json" }

// Marshal implements connect.Codec.
func (JSONCodec) Marshal(m any) ([]byte, error) {
	if b, ok := appendFast(nil, m); ok {
		return b, nil
	}
	msg, ok := m.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("%T is not a proto.Message", m)
	}
	return jsonOptions.Marshal(msg)
}

// MarshalAppend appends m's JSON to dst: connect writes answers through it into a pooled buffer.
// A screening's answer is written without protojson's reflection (appendFast).
func (JSONCodec) MarshalAppend(dst []byte, m any) ([]byte, error) {
	if b, ok := appendFast(dst, m); ok {
		return b, nil
	}
	msg, ok := m.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("%T is not a proto.Message", m)
	}
	return jsonOptions.MarshalAppend(dst, msg)
}

// Unmarshal implements connect.Codec.
func (JSONCodec) Unmarshal(b []byte, m any) error {
	msg, ok := m.(proto.Message)
	if !ok {
		return fmt.Errorf("%T is not a proto.Message", m)
	}
	if len(b) == 0 { // an empty body is an empty message, as the facade's transcoder reads it
		return nil
	}
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, msg); err != nil {
		return fmt.Errorf("unmarshal into %T: %w", m, err) // connect's own codec's wording
	}
	return nil
}

// appendFast appends the screening answers' JSON without protojson's reflection
// (codec_result.go); ok is false for any other message, and for an answer only protojson writes.
func appendFast(dst []byte, m any) ([]byte, bool) {
	switch r := m.(type) {
	case *complydv1.ScreeningResult:
		return appendScreeningResult(dst, r)
	case *complydv1.ScreenTransactionsResponse:
		return appendScreenTransactionsResponse(dst, r)
	}
	return dst, false
}
