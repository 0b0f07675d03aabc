// Package wallet owns the tenant's prepaid NGN wallet (docs/design/design-choices.md §6, docs/guide/wallet.md): the
// balance, the append-only ledger whose entries always sum to the balance, top-up credits that
// are idempotent on their reference, and the reserve → call → settle-or-release rule that paid
// identity calls (KYC verifications, direct lookups) follow so that the balance never goes
// negative, a provider outage is never charged and no transaction is held open across a network
// call.
//
// wallet is core: it imports apperr, audit, paging and tenancy only; never pgx, river, connect,
// net/http or an adapter.
package wallet

import (
	"context"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Currency is the wallet's only currency.
const Currency = "NGN"

// Ledger page sizes (docs/design/design-choices.md §7 list defaults).
const (
	PageDefault = 20
	PageMax     = 100
)

// MaxCredit bounds one top-up (a typo guard, not a business limit).
var MaxCredit = decimal.NewFromInt(1_000_000_000)

// EntryType is the kind of a ledger entry.
type EntryType string

// Ledger entry types: a top-up (positive) and a paid call (negative, or zero when the price is 0).
const (
	EntryCredit EntryType = "CREDIT"
	EntryCharge EntryType = "CHARGE"
)

// Wallet is a tenant's wallet. Held is the part of Balance reserved by paid calls in flight;
// Available = Balance − Held is what a new paid call may reserve.
type Wallet struct {
	TenantID  tenancy.TenantID
	Balance   decimal.Decimal
	Held      decimal.Decimal
	UpdatedAt time.Time
}

// Available is Balance − Held.
func (w Wallet) Available() decimal.Decimal { return w.Balance.Sub(w.Held) }

// Entry is one ledger line. Amount is signed (credits positive, charges negative or zero);
// BalanceAfter is the balance right after it. Entries are never changed or removed.
type Entry struct {
	ID           string
	TenantID     tenancy.TenantID
	Type         EntryType
	Amount       decimal.Decimal
	BalanceAfter decimal.Decimal
	// Reference is the top-up reference of a credit, or the hold id of a charge.
	Reference   string
	Description string
	ActorID     string
	CreatedAt   time.Time
}

// Hold is a reservation of Amount for one paid call in flight. It is settled (the charge is
// booked, in the transaction that stores what was paid for) or released (nothing is charged).
type Hold struct {
	ID       string
	TenantID tenancy.TenantID
	Amount   decimal.Decimal
	Purpose  string
}

// Credit is a top-up.
type Credit struct {
	Amount      decimal.Decimal
	Reference   string
	Description string
}

// Validate checks the amount (> 0, at most two decimals, at most MaxCredit) and the reference
// (1 to 100 characters). Errors: VALIDATION_ERROR.
func (c Credit) Validate() error {
	var d []apperr.FieldError
	switch {
	case !c.Amount.IsPositive():
		d = append(d, apperr.FieldError{Field: "amount", Message: "must be greater than 0"})
	case !c.Amount.Equal(c.Amount.Round(2)):
		d = append(d, apperr.FieldError{Field: "amount", Message: "must have at most 2 decimal places"})
	case c.Amount.GreaterThan(MaxCredit):
		d = append(d, apperr.FieldError{Field: "amount", Message: "must be at most " + MaxCredit.String()})
	}
	if r := strings.TrimSpace(c.Reference); r == "" || len(r) > 100 {
		d = append(d, apperr.FieldError{Field: "reference", Message: "is required (at most 100 characters)"})
	}
	if len(d) > 0 {
		return apperr.InvalidFields(d...)
	}
	return nil
}

// ParseAmount parses a decimal amount string. Errors: VALIDATION_ERROR on field.
func ParseAmount(field, s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return decimal.Decimal{}, apperr.Invalid(field, "must be a decimal number")
	}
	return d, nil
}

// Store is the wallet's persistence port (internal/postgres.WalletStore). Settling a hold is not
// here: it happens inside the store transaction of the capability that stores what was paid for
// (for example the KYC verification result), so the charge and the result commit together.
type Store interface {
	// Wallet returns the tenant's wallet; a tenant never credited has a zero wallet.
	Wallet(ctx context.Context, tenantID tenancy.TenantID) (Wallet, error)
	// Credit adds c to the balance with a CREDIT entry and an audit event, idempotently on
	// c.Reference: replaying a reference with the same amount changes nothing and returns the
	// wallet. Errors: CONFLICT when the reference was used with another amount.
	Credit(ctx context.Context, tenantID tenancy.TenantID, c Credit, ev audit.Event) (Wallet, error)
	// Entries pages the ledger, newest first.
	Entries(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[Entry], error)
	// Reserve holds amount if Available ≥ amount (a conditional UPDATE), first releasing the
	// tenant's holds older than staleAfter (left by a crashed process). Errors:
	// INSUFFICIENT_FUNDS with data {balance, available, price}.
	Reserve(ctx context.Context, tenantID tenancy.TenantID, amount decimal.Decimal, purpose string, staleAfter time.Duration) (Hold, error)
	// Release gives a hold back without charging. Releasing a settled or released hold is a no-op.
	Release(ctx context.Context, h Hold) error
}
