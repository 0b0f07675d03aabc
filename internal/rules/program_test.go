package rules_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/rules"
)

func sampleInput() *rules.Input {
	return &rules.Input{
		Tx: rules.TxInput{
			Type: "TRANSFER", Channel: "MOBILE_APP", Currency: "USD", Amount: "1000.50", AmountMinor: 100050,
			Narration: "school fees", SenderAccountNumber: "0123456789", ReceiverCountry: "GB", EntityType: "INDIVIDUAL",
			Hour: 23, Metadata: map[string]any{"channelRef": "abc", "retries": 2},
		},
		Ctx: rules.ContextInput{
			AmountNgn: "1550775.00", AmountNgnKobo: 155077500, Count24h: 4, Sum24hNgn: "200000", Sum24hNgnKobo: 20000000,
			Count60m: 1, DormantDays: 0, KYCStatus: "APPROVED", KYCTier: "TIER_2", KYCSource: "DATABASE",
			TierLimitNgnKobo: 20000000, ThresholdNgnKobo: 1000000000,
		},
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	c, err := rules.NewCompiler()
	require.NoError(t, err)

	tests := []struct {
		name, expr, wantMsg string
	}{
		{"empty", "  ", "is required"},
		{"syntax", "tx.amountMinor >", "Syntax error"},
		{"undeclared field", "tx.amountt > 5", "undeclared reference"},
		{"undeclared root", "foo == 1", "undeclared reference"},
		{"type mismatch", `tx.amountMinor > "5"`, "no matching overload"},
		{"money is not a double", "tx.amountMinor > 5.0", "no matching overload"},
		{"not bool", "tx.amountMinor + 1", "must evaluate to bool"},
		{"too long", strings.Repeat("true && ", 600) + "true", "at most"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.Compile(tc.expr)
			require.Error(t, err)
			ae, ok := apperr.As(err)
			require.True(t, ok)
			require.Equal(t, apperr.Validation, ae.Code)
			require.Len(t, ae.Details, 1)
			require.Equal(t, "expression", ae.Details[0].Field)
			require.Contains(t, ae.Details[0].Message, tc.wantMsg)
		})
	}
}

func TestEval(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		want bool
	}{
		{`tx.type == "TRANSFER" && tx.channel == "MOBILE_APP"`, true},
		{`ctx.amountNgnKobo >= naira(1550775)`, true},
		{`ctx.amountNgnKobo > naira(1550775)`, false},
		{`tx.amountMinor == 100050 && tx.amount == "1000.50"`, true},
		{`ctx.count24h >= 3 && ctx.sum24hNgnKobo < naira(250000)`, true},
		{`tx.receiverCountry in ["GB", "US"] && tx.currency != "NGN"`, true},
		{`tx.narration.contains("fees")`, true},
		{`tx.narration.matches("(?i)^SCHOOL")`, true},
		{`"channelRef" in tx.metadata && tx.metadata.channelRef == "abc"`, true},
		{`tx.hour >= 22 || tx.hour < 5`, true},
		{`ctx.kycStatus == "APPROVED" && ctx.kycTier == "TIER_2" && !ctx.pep && !ctx.fxMissing`, true},
		{`ctx.amountNgnKobo * 100 >= ctx.tierLimitNgnKobo * 80`, true},
		{`naira(9223372036854775807) == 9223372036854775807`, true}, // saturates, no overflow error
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			t.Parallel()
			p, err := rules.Compile(tc.expr)
			require.NoError(t, err)
			require.Equal(t, tc.expr, p.Expression())
			got, err := p.Eval(context.Background(), sampleInput())
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestEvalBounded(t *testing.T) {
	t.Parallel()

	t.Run("runtime error", func(t *testing.T) {
		t.Parallel()
		p, err := rules.Compile("1 / ctx.dormantDays > 0")
		require.NoError(t, err)
		_, err = p.Eval(context.Background(), sampleInput())
		require.ErrorContains(t, err, "division by zero")
	})
	t.Run("cost limit", func(t *testing.T) {
		t.Parallel()
		expr := `[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, a+b+c+d+e > 0)))))`
		p, err := rules.Compile(expr)
		require.NoError(t, err)
		_, err = p.Eval(context.Background(), sampleInput())
		require.ErrorContains(t, err, "cost limit")
	})
	t.Run("cancelled context", func(t *testing.T) {
		t.Parallel()
		p, err := rules.Compile(`[1,2,3].exists(x, x == 3)`)
		require.NoError(t, err)
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		_, err = p.Eval(ctx, sampleInput())
		require.Error(t, err)
	})
	t.Run("zero program", func(t *testing.T) {
		t.Parallel()
		_, err := rules.Program{}.Eval(context.Background(), sampleInput())
		require.Error(t, err)
	})
}

func TestCache(t *testing.T) {
	t.Parallel()
	c, err := rules.NewCompiler()
	require.NoError(t, err)
	cache := rules.NewCache(c, 2)

	p1, err := cache.Program("ctx.count60m > 1")
	require.NoError(t, err)
	p2, err := cache.Program("ctx.count60m > 1")
	require.NoError(t, err)
	require.Equal(t, p1.Expression(), p2.Expression())
	require.Equal(t, 1, cache.Len())

	_, err = cache.Program("ctx.count60m >")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	require.Equal(t, 1, cache.Len())

	_, err = cache.Program("ctx.count60m > 2")
	require.NoError(t, err)
	_, err = cache.Program("ctx.count60m > 3") // full: emptied, then stored
	require.NoError(t, err)
	require.Equal(t, 1, cache.Len())
}

func TestRuleValidate(t *testing.T) {
	t.Parallel()
	c, err := rules.NewCompiler()
	require.NoError(t, err)
	good := rules.Rule{Name: "night transfers", Expression: "tx.hour < 5", Score: 40, Outcome: rules.Review}

	tests := []struct {
		name  string
		edit  func(r *rules.Rule)
		field string
	}{
		{"ok", func(*rules.Rule) {}, ""},
		{"no name", func(r *rules.Rule) { r.Name = "" }, "name"},
		{"score high", func(r *rules.Rule) { r.Score = 101 }, "score"},
		{"score low", func(r *rules.Rule) { r.Score = -1 }, "score"},
		{"outcome", func(r *rules.Rule) { r.Outcome = "DENY" }, "outcome"},
		{"expression", func(r *rules.Rule) { r.Expression = "tx.hour <" }, "expression"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := good
			tc.edit(&r)
			err := r.Validate(c)
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			ae, ok := apperr.As(err)
			require.True(t, ok)
			require.Equal(t, tc.field, ae.Details[0].Field)
		})
	}
}

func TestOutcomeOrder(t *testing.T) {
	t.Parallel()
	require.Equal(t, rules.Block, rules.Review.Max(rules.Block))
	require.Equal(t, rules.Escalate, rules.Escalate.Max(rules.Review))
	require.Equal(t, rules.Review, rules.Approve.Max(rules.Review))
	require.Less(t, rules.Approve.Severity(), rules.Review.Severity())
	require.Less(t, rules.Review.Severity(), rules.Escalate.Severity())
	require.Less(t, rules.Escalate.Severity(), rules.Block.Severity())
	require.False(t, rules.Outcome("X").Valid())
}
