package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// WalletStore implements wallet.Store. Amounts cross the driver as text (numeric::text in, a
// decimal string cast to numeric out), so no float ever touches money.
type WalletStore struct{ db *DB }

// NewWalletStore returns the wallet store over db.
func NewWalletStore(db *DB) *WalletStore { return &WalletStore{db: db} }

var _ wallet.Store = (*WalletStore)(nil)

func dec(s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		panic(fmt.Sprintf("postgres: numeric %q: %v", s, err)) // numeric::text always parses
	}
	return d
}

// Wallet implements wallet.Store.
func (s *WalletStore) Wallet(ctx context.Context, tenantID tenancy.TenantID) (wallet.Wallet, error) {
	var w wallet.Wallet
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		w, err = getWallet(ctx, tx, tenantID)
		return err
	})
	return w, err
}

func getWallet(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID) (wallet.Wallet, error) {
	w := wallet.Wallet{TenantID: tenantID}
	var bal, held string
	err := tx.QueryRow(ctx, `select balance::text, held::text, updated_at from wallets where tenant_id = $1`, string(tenantID)).
		Scan(&bal, &held, &w.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return w, nil
	}
	if err != nil {
		return w, fmt.Errorf("read wallet: %w", err)
	}
	w.Balance, w.Held = dec(bal), dec(held)
	return w, nil
}

// Credit implements wallet.Store.
func (s *WalletStore) Credit(ctx context.Context, tenantID tenancy.TenantID, c wallet.Credit, ev audit.Event) (wallet.Wallet, error) {
	var w wallet.Wallet
	now := s.db.now()
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		// Serialise top-ups of one tenant so a replayed reference is seen by the second caller.
		if _, err := tx.Exec(ctx, `insert into wallets (tenant_id, updated_at) values ($1, $2) on conflict (tenant_id) do nothing`,
			string(tenantID), now); err != nil {
			return mapErr(err, "tenant")
		}
		var bal string
		if err := tx.QueryRow(ctx, `select balance::text from wallets where tenant_id = $1 for update`, string(tenantID)).Scan(&bal); err != nil {
			return fmt.Errorf("lock wallet: %w", err)
		}
		var prev string
		err := tx.QueryRow(ctx, `select amount::text from wallet_ledger where tenant_id = $1 and type = 'CREDIT' and reference = $2`,
			string(tenantID), c.Reference).Scan(&prev)
		switch {
		case err == nil:
			if !dec(prev).Equal(c.Amount) {
				return apperr.Newf(apperr.Conflict, "reference %q was already used for a credit of %s", c.Reference, dec(prev).StringFixed(2)).
					WithData(map[string]any{"reference": c.Reference, "amount": dec(prev).StringFixed(2)})
			}
			w, err = getWallet(ctx, tx, tenantID)
			return err
		case !errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("find credit: %w", err)
		}
		if err := tx.QueryRow(ctx, `update wallets set balance = balance + $2::numeric, updated_at = $3 where tenant_id = $1
			returning balance::text`, string(tenantID), c.Amount.String(), now).Scan(&bal); err != nil {
			return fmt.Errorf("credit wallet: %w", err)
		}
		if err := insertEntry(ctx, tx, wallet.Entry{TenantID: tenantID, Type: wallet.EntryCredit, Amount: c.Amount,
			BalanceAfter: dec(bal), Reference: c.Reference, Description: c.Description, ActorID: ev.Actor.ID, CreatedAt: now}); err != nil {
			return err
		}
		if err := s.db.rearmLowBalance(ctx, tx, tenantID, dec(bal)); err != nil {
			return err
		}
		ev.After = map[string]any{"amount": c.Amount.StringFixed(2), "reference": c.Reference, "balance": dec(bal).StringFixed(2)}
		if err := insertAudit(ctx, tx, ev, now); err != nil {
			return err
		}
		w, err = getWallet(ctx, tx, tenantID)
		return err
	})
	return w, err
}

func insertEntry(ctx context.Context, tx pgx.Tx, e wallet.Entry) error {
	_, err := tx.Exec(ctx, `insert into wallet_ledger (id, tenant_id, type, amount, balance_after, reference, description, actor_id, created_at)
		values ($1, $2, $3, $4::numeric, $5::numeric, $6, $7, $8, $9)`,
		uuid.NewString(), string(e.TenantID), string(e.Type), e.Amount.String(), e.BalanceAfter.String(), e.Reference,
		e.Description, nullIfEmpty(e.ActorID), e.CreatedAt)
	if err != nil {
		return fmt.Errorf("insert ledger entry: %w", err)
	}
	return nil
}

type entryRow struct {
	ID           string    `db:"id"`
	Type         string    `db:"type"`
	Amount       string    `db:"amount"`
	BalanceAfter string    `db:"balance_after"`
	Reference    string    `db:"reference"`
	Description  string    `db:"description"`
	ActorID      *string   `db:"actor_id"`
	CreatedAt    time.Time `db:"created_at"`
}

// Entries implements wallet.Store.
func (s *WalletStore) Entries(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[wallet.Entry], error) {
	res := paging.Result[wallet.Entry]{Page: p.Page, Limit: p.Limit, Items: []wallet.Entry{}}
	where := sq.Eq{"tenant_id": string(tenantID)}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := count(ctx, tx, psql.Select("count(*)").From("wallet_ledger").Where(where))
		if err != nil {
			return err
		}
		rows, err := collect[entryRow](ctx, tx, psql.Select("id", "type", "amount::text AS amount", "balance_after::text AS balance_after",
			"reference", "description", "actor_id::text AS actor_id", "created_at").From("wallet_ledger").Where(where).
			OrderBy("seq DESC").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, wallet.Entry{ID: r.ID, TenantID: tenantID, Type: wallet.EntryType(r.Type),
				Amount: dec(r.Amount), BalanceAfter: dec(r.BalanceAfter), Reference: r.Reference, Description: r.Description,
				ActorID: deref(r.ActorID), CreatedAt: r.CreatedAt})
		}
		return nil
	})
	return res, err
}

// Reserve implements wallet.Store: the conditional UPDATE … WHERE balance − held ≥ price is the
// one statement that decides, so concurrent reservations can never overdraw.
func (s *WalletStore) Reserve(ctx context.Context, tenantID tenancy.TenantID, amount decimal.Decimal, purpose string, staleAfter time.Duration) (wallet.Hold, error) {
	h := wallet.Hold{ID: uuid.NewString(), TenantID: tenantID, Amount: amount, Purpose: purpose}
	now := s.db.now()
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if err := releaseStaleHolds(ctx, tx, tenantID, now.Add(-staleAfter), now); err != nil {
			return err
		}
		var bal string
		err := tx.QueryRow(ctx, `update wallets set held = held + $2::numeric, updated_at = $3
			where tenant_id = $1 and balance - held >= $2::numeric returning balance::text`,
			string(tenantID), amount.String(), now).Scan(&bal)
		if errors.Is(err, pgx.ErrNoRows) {
			w, werr := getWallet(ctx, tx, tenantID)
			if werr != nil {
				return werr
			}
			return apperr.Newf(apperr.InsufficientFunds, "wallet balance is below the price of this call (%s NGN); nothing was called or charged",
				amount.StringFixed(2)).WithData(map[string]any{"balance": w.Balance.StringFixed(2),
				"available": w.Available().StringFixed(2), "price": amount.StringFixed(2), "currency": wallet.Currency})
		}
		if err != nil {
			return fmt.Errorf("reserve: %w", err)
		}
		_, err = tx.Exec(ctx, `insert into wallet_holds (id, tenant_id, amount, purpose, created_at) values ($1, $2, $3::numeric, $4, $5)`,
			h.ID, string(tenantID), amount.String(), purpose, now)
		return err
	})
	return h, err
}

func releaseStaleHolds(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, before, now time.Time) error {
	_, err := tx.Exec(ctx, `with stale as (
			update wallet_holds set status = 'RELEASED', closed_at = $3
			where tenant_id = $1 and status = 'HELD' and created_at < $2 returning amount)
		update wallets set held = held - (select coalesce(sum(amount), 0) from stale)
		where tenant_id = $1 and exists (select 1 from stale)`, string(tenantID), before, now)
	if err != nil {
		return fmt.Errorf("release stale holds: %w", err)
	}
	return nil
}

// Release implements wallet.Store.
func (s *WalletStore) Release(ctx context.Context, h wallet.Hold) error {
	if h.ID == "" {
		return nil // the zero hold of a waived call (wallet.Paid): nothing is held
	}
	now := s.db.now()
	return s.db.inTenant(ctx, h.TenantID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `with rel as (
				update wallet_holds set status = 'RELEASED', closed_at = $3
				where tenant_id = $1 and id = $2 and status = 'HELD' returning amount)
			update wallets set held = held - rel.amount, updated_at = $3 from rel where wallets.tenant_id = $1`,
			string(h.TenantID), h.ID, now)
		if err != nil {
			return fmt.Errorf("release hold: %w", err)
		}
		return nil
	})
}

// settleHold books the charge of h in tx: the hold closes, the conditional debit
// (balance ≥ amount) runs and a CHARGE entry is appended. Capabilities call it in the same
// transaction that stores what was paid for (docs/guide/wallet.md). It returns the balance after.
// A hold that is no longer held (released as stale) is charged directly if the available
// balance still allows it; otherwise INSUFFICIENT_FUNDS and the caller's transaction rolls back.
func (db *DB) settleHold(ctx context.Context, tx pgx.Tx, h wallet.Hold, description string) (decimal.Decimal, error) {
	if h.ID == "" {
		// A waived call (wallet.Waive): nothing to settle; the balance is as it was.
		var bal string
		if err := tx.QueryRow(ctx, `select balance::text from wallets where tenant_id = $1`, string(h.TenantID)).Scan(&bal); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return decimal.Zero, nil
			}
			return decimal.Decimal{}, fmt.Errorf("read balance: %w", err)
		}
		return dec(bal), nil
	}
	now := db.now()
	var amt string
	err := tx.QueryRow(ctx, `update wallet_holds set status = 'SETTLED', closed_at = $3
		where tenant_id = $1 and id = $2 and status = 'HELD' returning amount::text`, string(h.TenantID), h.ID, now).Scan(&amt)
	var q string
	switch {
	case err == nil:
		q = `update wallets set balance = balance - $2::numeric, held = held - $2::numeric, updated_at = $3
			where tenant_id = $1 and balance >= $2::numeric and held >= $2::numeric returning balance::text`
	case errors.Is(err, pgx.ErrNoRows):
		amt = h.Amount.String()
		q = `update wallets set balance = balance - $2::numeric, updated_at = $3
			where tenant_id = $1 and balance - held >= $2::numeric returning balance::text`
	default:
		return decimal.Decimal{}, fmt.Errorf("settle hold: %w", err)
	}
	var bal string
	err = tx.QueryRow(ctx, q, string(h.TenantID), amt, now).Scan(&bal)
	if errors.Is(err, pgx.ErrNoRows) {
		return decimal.Decimal{}, apperr.New(apperr.InsufficientFunds, "wallet balance is below the price of this call; nothing was charged")
	}
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("debit wallet: %w", err)
	}
	if err := insertEntry(ctx, tx, wallet.Entry{TenantID: h.TenantID, Type: wallet.EntryCharge, Amount: dec(amt).Neg(),
		BalanceAfter: dec(bal), Reference: h.ID, Description: description, CreatedAt: now}); err != nil {
		return decimal.Decimal{}, err
	}
	if err := db.warnLowBalance(ctx, tx, h.TenantID, dec(bal)); err != nil {
		return decimal.Decimal{}, err
	}
	return dec(bal), nil
}

// SetLowBalanceThreshold sets the default low-balance warning threshold
// (COMPLYD_LOW_BALANCE_THRESHOLD) for tenants without their own; zero turns the default off.
// Call it once while wiring, before serving.
func (db *DB) SetLowBalanceThreshold(d decimal.Decimal) { db.lowBalance = d }

// lowBalanceThreshold is the tenant's threshold (tenant_settings.low_balance_threshold), else the
// default; zero means no warning.
func (db *DB) lowBalanceThreshold(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID) (decimal.Decimal, error) {
	var t *string
	err := tx.QueryRow(ctx, `select low_balance_threshold::text from tenant_settings where tenant_id = $1`, string(tenantID)).Scan(&t)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return decimal.Zero, fmt.Errorf("read low-balance threshold: %w", err)
	}
	if t != nil {
		return dec(*t), nil
	}
	return db.lowBalance, nil
}

// warnLowBalance runs in the transaction of a charge that left balance: when balance is below
// the threshold and this crossing was not mailed yet, it marks the wallet notified and queues
// the warning to every active BANK_ADMIN, in that same transaction (the wallet row is locked by
// the debit, so concurrent charges cannot both mail). A credit back to the threshold re-arms it.
func (db *DB) warnLowBalance(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, balance decimal.Decimal) error {
	th, err := db.lowBalanceThreshold(ctx, tx, tenantID)
	if err != nil || !th.IsPositive() || !balance.LessThan(th) {
		return err
	}
	tag, err := tx.Exec(ctx, `update wallets set low_balance_notified = true where tenant_id = $1 and not low_balance_notified`, string(tenantID))
	if err != nil {
		return fmt.Errorf("mark low balance: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, `select first_name, email from users where tenant_id = $1 and role = 'BANK_ADMIN' and is_active
		order by created_at, id`, string(tenantID))
	if err != nil {
		return fmt.Errorf("list bank admins: %w", err)
	}
	type admin struct{ first, email string }
	admins, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (admin, error) {
		var a admin
		return a, r.Scan(&a.first, &a.email)
	})
	if err != nil {
		return fmt.Errorf("list bank admins: %w", err)
	}
	for _, a := range admins {
		m := notify.LowBalance(a.first, a.email, balance.StringFixed(2), th.StringFixed(2))
		m.TenantID = tenantID
		if err := db.queueEmail(ctx, tx, m); err != nil {
			return err
		}
	}
	return nil
}

// rearmLowBalance clears the notified mark once a credit brings the balance back to the
// threshold, so the next crossing warns again.
func (db *DB) rearmLowBalance(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, balance decimal.Decimal) error {
	th, err := db.lowBalanceThreshold(ctx, tx, tenantID)
	if err != nil {
		return err
	}
	if balance.LessThan(th) {
		return nil
	}
	if _, err := tx.Exec(ctx, `update wallets set low_balance_notified = false where tenant_id = $1 and low_balance_notified`,
		string(tenantID)); err != nil {
		return fmt.Errorf("re-arm low balance: %w", err)
	}
	return nil
}

// SetTenantLowBalanceThreshold sets (or, with nil, clears back to the default) the tenant's own
// low-balance warning threshold, audited.
func (s *WalletStore) SetTenantLowBalanceThreshold(ctx context.Context, tenantID tenancy.TenantID, th *decimal.Decimal, actor audit.Actor) error {
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var v *string
		if th != nil {
			str := th.String()
			v = &str
		}
		tag, err := tx.Exec(ctx, `update tenant_settings set low_balance_threshold = $2::numeric, updated_at = $3 where tenant_id = $1`,
			string(tenantID), v, s.db.now())
		if err != nil {
			return mapErr(err, "tenant")
		}
		if tag.RowsAffected() == 0 {
			return mapErr(pgx.ErrNoRows, "tenant settings")
		}
		after := map[string]any{"lowBalanceThreshold": nil}
		if th != nil {
			after["lowBalanceThreshold"] = th.StringFixed(2)
		}
		return insertAudit(ctx, tx, audit.Event{TenantID: tenantID, Actor: actor, Action: "wallet.low_balance_threshold_set",
			ResourceType: "wallet", ResourceID: string(tenantID), After: after}, s.db.now())
	})
}

// LedgerSum returns the sum of the tenant's ledger entries (tests check it equals the balance).
func (s *WalletStore) LedgerSum(ctx context.Context, tenantID tenancy.TenantID) (decimal.Decimal, error) {
	var sum string
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `select coalesce(sum(amount), 0)::text from wallet_ledger where tenant_id = $1`, string(tenantID)).Scan(&sum)
	})
	if err != nil {
		return decimal.Decimal{}, err
	}
	return dec(sum), nil
}
