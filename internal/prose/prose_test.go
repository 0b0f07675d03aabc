package prose_test

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/prose"
)

func TestMoney(t *testing.T) {
	t.Parallel()
	tests := []struct{ amount, currency, want string }{
		{"12500000", "NGN", "₦12,500,000.00"},
		{"1500.75", "ngn", "₦1,500.75"},
		{"999.5", "NGN", "₦999.50"},
		{"1000", "USD", "$1,000.00"},
		{"0", "NGN", "₦0.00"},
		{"-5", "GBP", "−£5.00"},
		{"123456789012.345", "EUR", "€123,456,789,012.35"},
		{"1500.5", "XOF", "1,500.50 XOF"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, prose.Money(decimal.RequireFromString(tc.amount), tc.currency), "%s %s", tc.amount, tc.currency)
	}
	require.Equal(t, "₦10,000,000.00", prose.Naira(decimal.NewFromInt(10_000_000)))
}

func TestEnum(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"IN_PROGRESS":             "in progress",
		"OPEN":                    "open",
		"TIER_1":                  "tier 1",
		"POST_NO_DEBIT":           "post no debit",
		"KYC_STATUS":              "KYC status",
		"INTERNATIONAL_TRANSFER":  "international transfer",
		"RESOLVED_FALSE_POSITIVE": "resolved false positive",
		"":                        "",
	}
	for in, want := range tests {
		require.Equal(t, want, prose.Enum(in), in)
	}
	require.Equal(t, "Post no debit requested", prose.Capital("post no debit requested"))
	require.Equal(t, "", prose.Capital(""))
}
