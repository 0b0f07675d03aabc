package screening_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

func TestResolveKYC(t *testing.T) {
	t.Parallel()
	stored := screening.StoredKYC{Found: true, Status: "PENDING", Tier: "TIER_2", ExternalRef: "kyc_1"}
	tests := []struct {
		name, mode, payloadStatus, payloadTier string
		stored                                 screening.StoredKYC
		want                                   screening.KYC
		errField                               string
	}{
		{name: "strict ignores payload", mode: tenancy.TrustStrict, payloadStatus: "VERIFIED", payloadTier: "TIER_3", stored: stored,
			want: screening.KYC{Status: "PENDING", Tier: "TIER_2", Source: "DATABASE", ExternalRef: "kyc_1", Found: true}},
		{name: "strict without record", mode: tenancy.TrustStrict, payloadStatus: "VERIFIED",
			want: screening.KYC{Status: "NONE", Source: "DATABASE"}},
		{name: "unknown mode is strict", mode: "", stored: stored,
			want: screening.KYC{Status: "PENDING", Tier: "TIER_2", Source: "DATABASE", ExternalRef: "kyc_1", Found: true}},
		{name: "hybrid payload wins", mode: tenancy.TrustHybrid, payloadStatus: "VERIFIED", payloadTier: "TIER_1", stored: stored,
			want: screening.KYC{Status: "VERIFIED", Tier: "TIER_1", Source: "PAYLOAD", ExternalRef: "ext-ref", Found: true}},
		{name: "hybrid payload without tier takes stored tier", mode: tenancy.TrustHybrid, payloadStatus: "VERIFIED", stored: stored,
			want: screening.KYC{Status: "VERIFIED", Tier: "TIER_2", Source: "PAYLOAD", ExternalRef: "ext-ref", Found: true}},
		{name: "hybrid falls back to store", mode: tenancy.TrustHybrid, stored: stored,
			want: screening.KYC{Status: "PENDING", Tier: "TIER_2", Source: "DATABASE", ExternalRef: "kyc_1", Found: true}},
		{name: "external payload only", mode: tenancy.TrustExternal, payloadStatus: "REJECTED", payloadTier: "TIER_1", stored: stored,
			want: screening.KYC{Status: "REJECTED", Tier: "TIER_1", Source: "PAYLOAD", ExternalRef: "ext-ref", Found: true}},
		{name: "external needs status", mode: tenancy.TrustExternal, payloadTier: "TIER_1", errField: "senderKycStatus"},
		{name: "external needs tier", mode: tenancy.TrustExternal, payloadStatus: "VERIFIED", errField: "senderKycTier"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tx := baseTx()
			tx.SenderKYCStatus, tx.SenderKYCTier, tx.SenderKYCExternalRef = tc.payloadStatus, tc.payloadTier, "ext-ref"
			got, err := screening.ResolveKYC(tc.mode, tx, tc.stored)
			if tc.errField != "" {
				ae, ok := apperr.As(err)
				require.True(t, ok)
				require.Equal(t, tc.errField, ae.Details[0].Field)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	t.Run("lookups needed", func(t *testing.T) {
		t.Parallel()
		tx := baseTx()
		require.True(t, screening.NeedsStoredKYC(tenancy.TrustStrict, tx))
		require.True(t, screening.NeedsStoredKYC(tenancy.TrustHybrid, tx))
		require.False(t, screening.NeedsStoredKYC(tenancy.TrustExternal, tx))
		tx.SenderKYCStatus, tx.SenderKYCTier = "VERIFIED", "TIER_1"
		require.False(t, screening.NeedsStoredKYC(tenancy.TrustHybrid, tx))
	})
}

func businessTx(kyb string) *screening.Transaction {
	tx := baseTx()
	tx.Metadata = map[string]any{"entityType": "business", "senderRcNumber": "RC123456"}
	tx.SenderKYBStatus = kyb
	tx.Normalize()
	return tx
}

func TestResolveKYB(t *testing.T) {
	t.Parallel()
	stored := screening.StoredKYB{Found: true, Status: "CAC_VERIFIED"}
	tests := []struct {
		name, mode, payload string
		stored              screening.StoredKYB
		individual          bool
		want                screening.KYB
		errField            string
	}{
		{name: "individual needs none", mode: tenancy.TrustStrict, individual: true, want: screening.KYB{}},
		{name: "strict stored", mode: tenancy.TrustStrict, payload: "VERIFIED", stored: stored,
			want: screening.KYB{Required: true, Status: "CAC_VERIFIED", Source: "DATABASE", Found: true}},
		{name: "strict no record", mode: tenancy.TrustStrict,
			want: screening.KYB{Required: true, Status: "NONE", Source: "DATABASE"}},
		{name: "hybrid payload bypasses store", mode: tenancy.TrustHybrid, payload: "VERIFIED", stored: stored,
			want: screening.KYB{Required: true, Status: "VERIFIED", Source: "PAYLOAD", Found: true}},
		{name: "hybrid store", mode: tenancy.TrustHybrid, stored: stored,
			want: screening.KYB{Required: true, Status: "CAC_VERIFIED", Source: "DATABASE", Found: true}},
		{name: "external requires", mode: tenancy.TrustExternal, errField: "senderKybStatus"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tx := businessTx(tc.payload)
			if tc.individual {
				tx = baseTx()
			}
			got, err := screening.ResolveKYB(tc.mode, tx, tc.stored)
			if tc.errField != "" {
				ae, ok := apperr.As(err)
				require.True(t, ok)
				require.Equal(t, tc.errField, ae.Details[0].Field)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestIdentityEngine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kyc, kyb  string
		business  bool
		wantScore int
		want      []string
	}{
		{kyc: "APPROVED", wantScore: 0, want: []string{}},
		{kyc: "LIVENESS_PASSED", wantScore: 0, want: []string{}},
		{kyc: "VERIFIED", wantScore: 0, want: []string{}},
		{kyc: "PENDING", wantScore: 100, want: []string{"KYC_STATUS"}},
		{kyc: "DOCUMENT_UPLOADED", wantScore: 100, want: []string{"KYC_STATUS"}},
		{kyc: "NIN_VERIFIED", wantScore: 100, want: []string{"KYC_STATUS"}},
		{kyc: "BVN_VERIFIED", wantScore: 100, want: []string{"KYC_STATUS"}},
		{kyc: "EXPIRED", wantScore: 100, want: []string{"KYC_STATUS"}},
		{kyc: "REJECTED", wantScore: 100, want: []string{"KYC_STATUS"}},
		{kyc: "IN_PROGRESS", wantScore: 100, want: []string{"KYC_STATUS"}},
		{kyc: "NONE", wantScore: 100, want: []string{"KYC_STATUS"}},
		{kyc: "", wantScore: 100, want: []string{"KYC_STATUS"}},
		{kyc: "APPROVED", kyb: "APPROVED", business: true, wantScore: 0, want: []string{}},
		{kyc: "APPROVED", kyb: "VERIFIED", business: true, wantScore: 0, want: []string{}},
		{kyc: "APPROVED", kyb: "SCREENING_PASSED", business: true, wantScore: 100, want: []string{"KYB_STATUS"}},
		{kyc: "APPROVED", kyb: "DIRECTORS_VERIFIED", business: true, wantScore: 100, want: []string{"KYB_STATUS"}},
		{kyc: "APPROVED", kyb: "NONE", business: true, wantScore: 100, want: []string{"KYB_STATUS"}},
		{kyc: "PENDING", kyb: "REJECTED", business: true, wantScore: 100, want: []string{"KYC_STATUS", "KYB_STATUS"}},
		{kyc: "APPROVED", kyb: "NONE", business: false, wantScore: 0, want: []string{}},
	}
	eng := screening.NewIdentityEngine()
	for _, tc := range tests {
		t.Run(tc.kyc+"/"+tc.kyb, func(t *testing.T) {
			t.Parallel()
			e := baseEnrichment()
			e.KYC = screening.KYC{Status: tc.kyc, Source: screening.SourcePayload, ExternalRef: "bank-ref-9", Found: true}
			e.KYB = screening.KYB{Required: tc.business, Status: tc.kyb, Source: screening.SourceDatabase}
			tx := baseTx()
			if tc.business {
				tx = businessTx("")
			}
			v, err := eng.Evaluate(context.Background(), tx, e)
			require.NoError(t, err)
			require.Equal(t, tc.want, ids(v))
			require.Equal(t, tc.wantScore, v.Score)
			if tc.wantScore == 100 {
				require.Equal(t, rules.Block, v.Outcome)
			} else {
				require.Equal(t, rules.Approve, v.Outcome)
			}
			if len(v.RulesTriggered) > 0 && v.RulesTriggered[0].ID == "KYC_STATUS" {
				require.Equal(t, "PAYLOAD", v.RulesTriggered[0].KYCSource)
				require.Equal(t, "bank-ref-9", v.RulesTriggered[0].KYCExternalRef)
			}
		})
	}
}

func TestTransactionValidate(t *testing.T) {
	t.Parallel()
	require.NoError(t, baseTx().Validate(tenancy.TrustStrict))
	require.Equal(t, screening.EntityIndividual, baseTx().EntityType)
	require.Equal(t, "NGN", baseTx().Currency)

	tx := businessTx("")
	tx.SenderRCNumber = ""
	err := tx.Validate(tenancy.TrustExternal)
	ae, ok := apperr.As(err)
	require.True(t, ok)
	fields := []string{}
	for _, d := range ae.Details {
		fields = append(fields, d.Field)
	}
	require.Equal(t, []string{"senderKycStatus", "senderKycTier", "metadata.senderRcNumber", "senderKybStatus"}, fields)

	// A registration number sent as a JSON number is its digits; a fraction is no number.
	for in, want := range map[any]string{float64(1234567): "1234567", " RC 98 ": "RC 98", 12.5: "", true: ""} {
		num := baseTx()
		num.Metadata = map[string]any{"entityType": "BUSINESS", "senderRcNumber": in}
		num.Normalize()
		require.Equal(t, want, num.SenderRCNumber, "%v", in)
	}

	bad := baseTx()
	bad.Amount = dec("0")
	bad.SenderAccountNumber = "123"
	bad.Type = "WIRE"
	err = bad.Validate(tenancy.TrustStrict)
	ae, _ = apperr.As(err)
	require.Len(t, ae.Details, 3)
}
