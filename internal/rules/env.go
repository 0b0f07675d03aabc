package rules

import (
	"math"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// variable is one declared CEL variable and how to read it from an Input.
type variable struct {
	name string
	typ  *cel.Type
	get  func(*Input) ref.Val
}

// variables declares the CEL environment. Names are qualified ("tx.amount") so the checker
// rejects any field that is not listed here, and evaluation reads plain struct fields
// without building maps.
var variables = []variable{
	{"tx.type", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.Type) }},
	{"tx.channel", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.Channel) }},
	{"tx.currency", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.Currency) }},
	{"tx.amount", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.Amount) }},
	{"tx.amountMinor", cel.IntType, func(in *Input) ref.Val { return types.Int(in.Tx.AmountMinor) }},
	{"tx.narration", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.Narration) }},
	{"tx.senderAccountNumber", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.SenderAccountNumber) }},
	{"tx.senderName", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.SenderName) }},
	{"tx.senderBankCode", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.SenderBankCode) }},
	{"tx.receiverAccountNumber", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.ReceiverAccountNumber) }},
	{"tx.receiverName", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.ReceiverName) }},
	{"tx.receiverBankCode", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.ReceiverBankCode) }},
	{"tx.receiverCountry", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.ReceiverCountry) }},
	{"tx.deviceId", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.DeviceID) }},
	{"tx.ipAddress", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.IPAddress) }},
	{"tx.entityType", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.EntityType) }},
	{"tx.hour", cel.IntType, func(in *Input) ref.Val { return types.Int(in.Tx.Hour) }},
	{"tx.remittance", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.Remittance) }},
	{"tx.purpose", cel.StringType, func(in *Input) ref.Val { return types.String(in.Tx.Purpose) }},
	{"tx.metadata", cel.MapType(cel.StringType, cel.DynType), func(in *Input) ref.Val {
		return types.DefaultTypeAdapter.NativeToValue(in.Tx.Metadata)
	}},
	{"ctx.amountNgn", cel.StringType, func(in *Input) ref.Val { return types.String(in.Ctx.AmountNgn) }},
	{"ctx.amountNgnKobo", cel.IntType, func(in *Input) ref.Val { return types.Int(in.Ctx.AmountNgnKobo) }},
	{"ctx.fxMissing", cel.BoolType, func(in *Input) ref.Val { return types.Bool(in.Ctx.FXMissing) }},
	{"ctx.count24h", cel.IntType, func(in *Input) ref.Val { return types.Int(in.Ctx.Count24h) }},
	{"ctx.sum24hNgn", cel.StringType, func(in *Input) ref.Val { return types.String(in.Ctx.Sum24hNgn) }},
	{"ctx.sum24hNgnKobo", cel.IntType, func(in *Input) ref.Val { return types.Int(in.Ctx.Sum24hNgnKobo) }},
	{"ctx.count60m", cel.IntType, func(in *Input) ref.Val { return types.Int(in.Ctx.Count60m) }},
	{"ctx.dormantDays", cel.IntType, func(in *Input) ref.Val { return types.Int(in.Ctx.DormantDays) }},
	{"ctx.kycStatus", cel.StringType, func(in *Input) ref.Val { return types.String(in.Ctx.KYCStatus) }},
	{"ctx.kycTier", cel.StringType, func(in *Input) ref.Val { return types.String(in.Ctx.KYCTier) }},
	{"ctx.kycSource", cel.StringType, func(in *Input) ref.Val { return types.String(in.Ctx.KYCSource) }},
	{"ctx.kybStatus", cel.StringType, func(in *Input) ref.Val { return types.String(in.Ctx.KYBStatus) }},
	{"ctx.tierLimitNgnKobo", cel.IntType, func(in *Input) ref.Val { return types.Int(in.Ctx.TierLimitNgnKobo) }},
	{"ctx.thresholdNgnKobo", cel.IntType, func(in *Input) ref.Val { return types.Int(in.Ctx.ThresholdNgnKobo) }},
	{"ctx.pep", cel.BoolType, func(in *Input) ref.Val { return types.Bool(in.Ctx.PEP) }},
}

// variableIndex maps a qualified name to its reader; it is built once and never written.
var variableIndex = func() map[string]func(*Input) ref.Val {
	m := make(map[string]func(*Input) ref.Val, len(variables))
	for _, v := range variables {
		m[v.name] = v.get
	}
	return m
}()

// VariableNames returns the declared CEL variable names, for documentation and the API.
func VariableNames() []string {
	names := make([]string, len(variables))
	for i, v := range variables {
		names[i] = v.name
	}
	return names
}

// nairaFunc declares naira(int) -> int: whole naira to kobo, saturating instead of overflowing.
func nairaFunc() cel.EnvOption {
	return cel.Function("naira",
		cel.Overload("naira_int", []*cel.Type{cel.IntType}, cel.IntType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				n := int64(v.(types.Int))
				switch {
				case n > math.MaxInt64/100:
					return types.Int(math.MaxInt64)
				case n < math.MinInt64/100:
					return types.Int(math.MinInt64)
				}
				return types.Int(n * 100)
			})))
}

// newEnv builds the CEL environment shared by every rule.
func newEnv() (*cel.Env, error) {
	opts := make([]cel.EnvOption, 0, len(variables)+1)
	for _, v := range variables {
		opts = append(opts, cel.Variable(v.name, v.typ))
	}
	opts = append(opts, nairaFunc())
	return cel.NewEnv(opts...)
}
