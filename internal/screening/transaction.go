package screening

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// Entity types of metadata.entityType.
const (
	EntityIndividual = "INDIVIDUAL"
	EntityBusiness   = "BUSINESS"
)

// TransactionTypes are the accepted values of type (docs/reference/specification.md 4.3).
var TransactionTypes = []string{"CASH_DEPOSIT", "CASH_WITHDRAWAL", "TRANSFER", "INTERNATIONAL_TRANSFER",
	"POS", "ATM", "MOBILE", "USSD", "INTERNET_BANKING"}

// Channels are the accepted values of channel.
var Channels = []string{"BRANCH", "MOBILE_APP", "INTERNET_BANKING", "POS_TERMINAL", "ATM", "USSD", "AGENT", "API"}

// AssertedStatuses are the accepted values of senderKycStatus, senderKybStatus and receiverKycStatus.
var AssertedStatuses = []string{"VERIFIED", "PENDING", "IN_PROGRESS", "REJECTED", "EXPIRED", "NONE"}

// KYCTiers are the accepted values of senderKycTier.
var KYCTiers = []string{"TIER_1", "TIER_2", "TIER_3"}

// Transaction is the screening request (docs/reference/specification.md 4.3) as the core sees it: amounts are
// decimals in the transaction currency, times are time.Time, optional strings are "".
type Transaction struct {
	TenantID               tenancy.TenantID
	ExternalID             string
	Type                   string
	Channel                string
	Amount                 decimal.Decimal
	Currency               string // ISO 4217; Normalize defaults it to NGN
	SenderAccountNumber    string
	SenderBVN              string
	SenderKYCStatus        string // asserted: VERIFIED, PENDING, IN_PROGRESS, REJECTED, EXPIRED, NONE
	SenderKYCTier          string // TIER_1..TIER_3
	SenderKYCVerifiedAt    *time.Time
	SenderKYCExternalRef   string
	SenderKYBStatus        string // asserted, business transactions
	SenderName             string
	SenderBankCode         string
	ReceiverAccountNumber  string
	ReceiverName           string
	ReceiverBVN            string
	ReceiverKYCStatus      string
	ReceiverKYCVerifiedAt  *time.Time
	ReceiverKYCExternalRef string
	ReceiverBankCode       string
	ReceiverCountry        string // ISO 3166-1 alpha-2
	Narration              string
	DeviceID               string
	IPAddress              string
	Latitude               *float64
	Longitude              *float64
	Timestamp              time.Time
	Metadata               map[string]any

	// EntityType is metadata.entityType (INDIVIDUAL when absent); set by Normalize.
	EntityType string
	// SenderRCNumber is metadata.senderRcNumber; set by Normalize.
	SenderRCNumber string

	// Payment is the ISO 20022 message the transaction came from (payment.go), nil for JSON
	// screenings. Its extra parties are screened too; its account numbers need not be NUBANs.
	Payment *Payment
}

// Normalize defaults the currency to NGN, upper-cases codes and enum values, and derives
// EntityType and SenderRCNumber from the metadata. Call it once before Validate.
func (t *Transaction) Normalize() {
	t.Currency = strings.ToUpper(strings.TrimSpace(t.Currency))
	if t.Currency == "" {
		t.Currency = "NGN"
	}
	t.ReceiverCountry = strings.ToUpper(strings.TrimSpace(t.ReceiverCountry))
	t.SenderKYCStatus = strings.ToUpper(t.SenderKYCStatus)
	t.SenderKYBStatus = strings.ToUpper(t.SenderKYBStatus)
	t.SenderKYCTier = strings.ToUpper(t.SenderKYCTier)
	t.EntityType = EntityIndividual
	if s, ok := t.Metadata["entityType"].(string); ok && s != "" {
		t.EntityType = strings.ToUpper(s)
	}
	switch rc := t.Metadata["senderRcNumber"].(type) {
	case string:
		t.SenderRCNumber = strings.TrimSpace(rc)
	case float64: // a registration number sent as a JSON number (1234567): its digits
		if rc > 0 && rc == math.Trunc(rc) && rc < 1e15 {
			t.SenderRCNumber = strconv.FormatFloat(rc, 'f', -1, 64)
		}
	}
}

// IsBusiness reports whether the sender is a business (metadata.entityType BUSINESS).
func (t *Transaction) IsBusiness() bool { return t.EntityType == EntityBusiness }

// maxAmount bounds amounts to what is stored (numeric(20,2): 18 integer digits, 2 decimals);
// larger ones would fail to store or, worse, be scored as if meaningful.
var maxAmount = decimal.New(1, 18)

var accountNumber = regexp.MustCompile(`^[0-9]{10}$`)
var bvn = regexp.MustCompile(`^[0-9]{11}$`)
var paymentAccount = regexp.MustCompile(`^[A-Za-z0-9]{1,34}$`)

// Validate checks the request rules of docs/reference/specification.md 4.3 under the tenant's trust mode and
// returns one VALIDATION_ERROR listing every bad field, or nil.
func (t *Transaction) Validate(trustMode string) error {
	var errs []apperr.FieldError
	add := func(field, msg string) { errs = append(errs, apperr.FieldError{Field: field, Message: msg}) }
	oneOf := func(field, v string, allowed []string, required bool) {
		if v == "" {
			if required {
				add(field, "is required")
			}
			return
		}
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		add(field, "must be one of "+strings.Join(allowed, ", "))
	}
	// A blank id ("   ") is no idempotency key: every blank replay would collide on it, and an
	// examiner could not trace the transaction back to the bank's core (found by
	// FuzzScreenTransactionJSON).
	if strings.TrimSpace(t.ExternalID) == "" {
		add("externalId", "is required")
	}
	oneOf("type", t.Type, TransactionTypes, true)
	oneOf("channel", t.Channel, Channels, true)
	switch {
	case !t.Amount.IsPositive():
		add("amount", "must be positive")
	case t.Amount.GreaterThanOrEqual(maxAmount):
		add("amount", "must be below 1000000000000000000 (at most 18 integer digits)")
	case !t.Amount.Equal(t.Amount.Truncate(2)):
		add("amount", "must have at most 2 decimal places")
	}
	if len(t.Currency) != 3 {
		add("currency", "must be an ISO 4217 code")
	}
	switch {
	case t.Payment != nil:
		// An ISO 20022 account is an IBAN or any Othr/Id (Max34Text), a NUBAN or not.
		if !paymentAccount.MatchString(t.SenderAccountNumber) {
			add("senderAccountNumber", "must be 1 to 34 letters or digits")
		}
	case !accountNumber.MatchString(t.SenderAccountNumber):
		add("senderAccountNumber", "must be 10 digits")
	}
	if t.SenderBVN != "" && !bvn.MatchString(t.SenderBVN) {
		add("senderBvn", "must be 11 digits")
	}
	if t.ReceiverBVN != "" && !bvn.MatchString(t.ReceiverBVN) {
		add("receiverBvn", "must be 11 digits")
	}
	if strings.TrimSpace(t.SenderName) == "" {
		add("senderName", "is required")
	}
	if t.ReceiverCountry != "" && len(t.ReceiverCountry) != 2 {
		add("receiverCountry", "must be an ISO 3166-1 alpha-2 code")
	}
	if t.Timestamp.IsZero() {
		add("timestamp", "is required")
	}
	if (t.Latitude == nil) != (t.Longitude == nil) {
		add("latitude", "latitude and longitude go together")
	}
	external := trustMode == tenancy.TrustExternal
	oneOf("senderKycStatus", t.SenderKYCStatus, AssertedStatuses, external)
	oneOf("senderKycTier", t.SenderKYCTier, KYCTiers, external)
	oneOf("receiverKycStatus", t.ReceiverKYCStatus, AssertedStatuses, false)
	oneOf("metadata.entityType", t.EntityType, []string{EntityIndividual, EntityBusiness}, false)
	if t.IsBusiness() {
		if t.SenderRCNumber == "" {
			add("metadata.senderRcNumber", "is required for business transactions")
		}
		oneOf("senderKybStatus", t.SenderKYBStatus, AssertedStatuses, external)
	}
	if len(errs) > 0 {
		return apperr.InvalidFields(errs...)
	}
	return nil
}
