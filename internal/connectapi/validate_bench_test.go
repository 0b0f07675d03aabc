package connectapi

import (
	"testing"

	"buf.build/go/protovalidate"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

func BenchmarkValidateScreenRequest(b *testing.B) {
	v, err := protovalidate.New()
	if err != nil {
		b.Fatal(err)
	}
	s := func(x string) *string { return &x }
	m := &complydv1.ScreenTransactionRequest{ExternalId: "grpc-1-12345", Type: "TRANSFER", Channel: "MOBILE_APP", Amount: 12345.5,
		SenderAccountNumber: "1000012345", SenderBvn: s("20000012345"), SenderName: "Customer 12345 Adeyemi",
		ReceiverName: s("Chidi Okeke"), ReceiverAccountNumber: s("1000054321"), Timestamp: "2026-11-22T02:00:00.123456Z",
		DeviceId: s("dev-12345"), IpAddress: s("10.1.2.3"), Currency: s("USD"), ReceiverCountry: s("GB")}
	b.ReportAllocs()
	for b.Loop() {
		if err := v.Validate(m); err != nil {
			b.Fatal(err)
		}
	}
}
