package screening

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/tenancy"
)

// BaseCurrency is the currency of every regulatory threshold and tier limit.
const BaseCurrency = "NGN"

// FX is the conversion applied to a non-NGN transaction (docs/design/design-choices.md §11: the screening's fx
// object {currency, rateToNgn, amount, amountNgn, rateUpdatedAt}).
type FX struct {
	Currency      string
	RateToNGN     decimal.Decimal
	Amount        decimal.Decimal
	AmountNGN     decimal.Decimal
	RateUpdatedAt time.Time
}

// ConvertToNGN converts amount in currency to NGN with the tenant's rates (docs/reference/specification.md 4.3
// rule 3). NGN (or "") needs no conversion and returns fx nil. With a positive rate it returns
// amount × rate rounded to the kobo and the applied fx. Without a rate it returns the raw amount,
// fx nil and missing true: the caller evaluates the raw amount and adds FX_RATE_MISSING; a
// foreign currency is never taken as 1:1.
func ConvertToNGN(amount decimal.Decimal, currency string, rates map[string]tenancy.FXRate) (amountNGN decimal.Decimal, fx *FX, missing bool) {
	cur := strings.ToUpper(currency)
	if cur == "" || cur == BaseCurrency {
		return amount, nil, false
	}
	rate, ok := rates[cur]
	if !ok || !rate.RateToNGN.IsPositive() {
		return amount, nil, true
	}
	ngn := amount.Mul(rate.RateToNGN).Round(2)
	return ngn, &FX{Currency: cur, RateToNGN: rate.RateToNGN, Amount: amount, AmountNGN: ngn, RateUpdatedAt: rate.UpdatedAt}, false
}

// maxKoboNaira is the largest naira amount whose kobo count fits an int64.
var maxKoboNaira = decimal.NewFromInt(90_000_000_000_000_000)

// toMinor returns d in hundredths (kobo for NGN), rounded half away from zero and saturated
// at ±9e18 so that CEL integers never overflow.
func toMinor(d decimal.Decimal) int64 {
	switch {
	case d.GreaterThan(maxKoboNaira):
		return maxKoboNaira.IntPart() * 100
	case d.LessThan(maxKoboNaira.Neg()):
		return -maxKoboNaira.IntPart() * 100
	}
	return d.Shift(2).Round(0).IntPart()
}
