package rules

// Input is everything a rule can read: the transaction (tx.*) and its enriched context (ctx.*).
// The screening package fills it from its Transaction and Enrichment; field comments give the
// CEL name. Amounts are exact decimal strings plus integer minor units, never doubles.
type Input struct {
	Tx  TxInput
	Ctx ContextInput
}

// TxInput is the transaction as the payload gave it.
type TxInput struct {
	Type                  string         // tx.type
	Channel               string         // tx.channel
	Currency              string         // tx.currency (ISO 4217, default NGN)
	Amount                string         // tx.amount: decimal string in tx.currency, e.g. "1500.50"
	AmountMinor           int64          // tx.amountMinor: amount × 100, rounded half away from zero
	Narration             string         // tx.narration
	SenderAccountNumber   string         // tx.senderAccountNumber
	SenderName            string         // tx.senderName
	SenderBankCode        string         // tx.senderBankCode
	ReceiverAccountNumber string         // tx.receiverAccountNumber
	ReceiverName          string         // tx.receiverName
	ReceiverBankCode      string         // tx.receiverBankCode
	ReceiverCountry       string         // tx.receiverCountry (ISO 3166-1 alpha-2)
	DeviceID              string         // tx.deviceId
	IPAddress             string         // tx.ipAddress
	EntityType            string         // tx.entityType: INDIVIDUAL or BUSINESS
	Hour                  int64          // tx.hour: hour of day of the timestamp, UTC, 0..23
	Metadata              map[string]any // tx.metadata (map(string, dyn)); never nil when evaluated
	// Remittance is tx.remittance: an ISO 20022 message's remittance lines (each Ustrd, and the
	// references of each Strd), one per line; "" for JSON screenings (docs/guide/iso20022.md).
	Remittance string
	// Purpose is tx.purpose: an ISO 20022 message's purpose code (Purp/Cd or Purp/Prtry), or "".
	Purpose string
}

// ContextInput is the enrichment computed before the engines run, all NGN amounts converted
// with the tenant's FX rates (spec 4.3 rule 3).
type ContextInput struct {
	AmountNgn        string // ctx.amountNgn: NGN-equivalent decimal string (raw amount when fxMissing)
	AmountNgnKobo    int64  // ctx.amountNgnKobo
	FXMissing        bool   // ctx.fxMissing: no rate for tx.currency
	Count24h         int64  // ctx.count24h: prior transactions of the sender account in 24 h (excluding this one)
	Sum24hNgn        string // ctx.sum24hNgn: NGN sum of those prior transactions
	Sum24hNgnKobo    int64  // ctx.sum24hNgnKobo
	Count60m         int64  // ctx.count60m: prior transactions in 60 minutes (excluding this one)
	DormantDays      int64  // ctx.dormantDays: whole days since the last activity, 0 without history
	KYCStatus        string // ctx.kycStatus: resolved by trust mode, NONE when absent
	KYCTier          string // ctx.kycTier: TIER_1..TIER_3 or ""
	KYCSource        string // ctx.kycSource: DATABASE or PAYLOAD
	KYBStatus        string // ctx.kybStatus: resolved KYB status, "" for individuals
	TierLimitNgnKobo int64  // ctx.tierLimitNgnKobo: the sender tier's limit, 0 when unknown
	ThresholdNgnKobo int64  // ctx.thresholdNgnKobo: the CTR threshold for tx.type (cash or transfer)
	PEP              bool   // ctx.pep: the sanctions stage found the sender on a PEP list
}
