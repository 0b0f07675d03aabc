package rules

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// FuzzCompileEval is the fuzz target of custom rules: a compliance officer's expression is
// compiled when the rule is saved, and evaluated on every screened transaction against values
// the bank's payload controls (names, narration, metadata). Seeds, the expressions of the docs
// and tests, are in testdata/fuzz/FuzzCompileEval/.

// evalWallBudget bounds one compile plus evaluation in wall time: the cost limit stops
// comprehensions and regexes long before this on an idle core; the slack is for a shared
// machine.
const evalWallBudget = 5 * time.Second

// FuzzCompileEval compiles expr and, when it compiles, evaluates it against an Input whose
// strings and metadata come from the fuzzer. Properties: a refused expression is a
// VALIDATION_ERROR naming "expression" (always so above MaxExpressionLength); a compiled one
// evaluates to a bool or an error, never a panic, within evalWallBudget, and evaluates the same
// way twice (programs are pure).
func FuzzCompileEval(f *testing.F) {
	f.Add(`tx.amountMinor > naira(5000000) && ctx.count24h >= 3`, "school fees", "k", "v", int64(150000))
	c, err := NewCompiler()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, expr, narration, metaKey, metaVal string, amountMinor int64) {
		start := time.Now()
		p, err := c.Compile(expr)
		if err != nil {
			if e, ok := apperr.As(err); !ok || e.Code != apperr.Validation || len(e.Details) != 1 || e.Details[0].Field != "expression" {
				t.Fatalf("Compile(%q) refused with %#v, want a VALIDATION_ERROR naming expression", expr, err)
			}
			return
		}
		if len(expr) > MaxExpressionLength || strings.TrimSpace(expr) == "" {
			t.Fatalf("Compile accepted a %d-byte expression", len(expr))
		}
		in := &Input{
			Tx: TxInput{Type: "TRANSFER", Channel: "MOBILE_APP", Currency: "NGN", Amount: "1500.50", AmountMinor: amountMinor,
				Narration: narration, SenderName: metaVal, ReceiverName: narration, ReceiverCountry: "GB", Hour: 23,
				Metadata: map[string]any{metaKey: metaVal, "n": amountMinor, "f": 1.5, "b": true, "l": []any{metaVal, int64(1)},
					"m": map[string]any{metaKey: metaVal}}},
			Ctx: ContextInput{AmountNgn: "1500.50", AmountNgnKobo: amountMinor, Count24h: 3, Count60m: 1, DormantDays: 0,
				KYCStatus: "VERIFIED", KYCTier: "TIER_2", KYCSource: "PAYLOAD", ThresholdNgnKobo: 500_000_000},
		}
		ctx, cancel := context.WithTimeout(context.Background(), evalWallBudget)
		defer cancel()
		got, err := p.Eval(ctx, in)
		again, err2 := p.Eval(ctx, in)
		if elapsed := time.Since(start); elapsed > evalWallBudget {
			t.Fatalf("compile and two evaluations of %q took %v", expr, elapsed)
		}
		if (err == nil) != (err2 == nil) || got != again {
			t.Fatalf("%q evaluated to %v, %v then %v, %v", expr, got, err, again, err2)
		}
	})
}
