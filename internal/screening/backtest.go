package screening

import (
	"context"
	"errors"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

// Backtest bounds (docs/guide/dashboard.md "Rules"): a draft rule is run over at most this many
// stored transactions, for at most this long; a scan stopped by either is reported truncated.
const (
	BacktestMaxRows     = 100_000
	BacktestTimeout     = 10 * time.Second
	BacktestMaxExamples = 50
	backtestExamples    = 10
)

// BacktestRow is one stored transaction as the backtest evaluates it: the transaction, its
// stored NGN amount (the one its screening evaluated, at the rate of that day), the KYC and KYB
// the screening resolved, and the sender's history before it, computed by the store.
type BacktestRow struct {
	TransactionID string
	Tx            Transaction
	AmountNGN     decimal.Decimal
	FXMissing     bool
	History       History
	KYC           KYC
	KYB           KYB
	Outcome       string // the outcome the transaction got when it was screened
}

// BacktestQuery is the period and row bound of a scan.
type BacktestQuery struct {
	TenantID tenancy.TenantID
	From, To time.Time
	Limit    int
}

// BacktestSource streams stored transactions for a backtest (postgres.BacktestStore).
type BacktestSource interface {
	// Config returns the tenant's current configuration (tier limits for ctx.tierLimitNgnKobo).
	Config(ctx context.Context, tenant tenancy.TenantID) (tenancy.Config, error)
	// Stream calls fn for each transaction of the tenant with From <= timestamp < To, newest
	// first, at most q.Limit rows, until fn returns an error or ctx is done. The row is reused
	// between calls. Errors: ctx's error when it ends the scan; INTERNAL.
	Stream(ctx context.Context, q BacktestQuery, fn func(*BacktestRow) error) error
}

// BacktestExample is a transaction the draft rule would have triggered on.
type BacktestExample struct {
	TransactionID string
	ExternalID    string
	Amount        decimal.Decimal
	Currency      string
	SenderName    string
	Outcome       string
	Timestamp     time.Time
}

// BacktestResult counts what the draft rule would have triggered.
type BacktestResult struct {
	Scanned, Matched, Errors int
	Truncated                bool
	Examples                 []BacktestExample
	Oldest                   *time.Time
	Elapsed                  time.Duration
	// Comparison is the draft against the stored verdicts (DraftOutcome set): the shadow
	// report's shape (comparison.go), Evaluated and Matched being Scanned and Matched.
	Comparison Comparison
}

// BacktestParams are the inputs of Backtest.
type BacktestParams struct {
	Query       BacktestQuery
	Program     rules.Program
	MaxExamples int
	// DraftOutcome is the outcome of the draft rule back-tested; when set, Comparison is filled.
	DraftOutcome rules.Outcome
	// Timeout bounds the scan (BacktestTimeout when zero); reaching it ends the scan with the
	// counts so far and Truncated set, not with an error.
	Timeout time.Duration
}

// Backtest evaluates a compiled draft rule over the tenant's stored transactions, as the Custom
// Rules engine would have at screening time (RuleInput), except for what a stored row cannot
// tell: ctx.pep is false (PEP hits are not stored per transaction) and the tier limit is today's.
// An evaluation error counts in Errors and as not matched, as in screening.
// Codes: VALIDATION_ERROR (period), INTERNAL.
func Backtest(ctx context.Context, src BacktestSource, p BacktestParams, now func() time.Time) (BacktestResult, error) {
	q := p.Query
	if !q.From.Before(q.To) {
		return BacktestResult{}, apperr.Invalid("to", "must be after from")
	}
	if q.Limit <= 0 || q.Limit > BacktestMaxRows {
		q.Limit = BacktestMaxRows
	}
	if p.MaxExamples < 0 || p.MaxExamples > BacktestMaxExamples {
		p.MaxExamples = backtestExamples
	}
	if p.Timeout <= 0 {
		p.Timeout = BacktestTimeout
	}
	cfg, err := src.Config(ctx, q.TenantID)
	if err != nil {
		return BacktestResult{}, err
	}
	start := now()
	scanCtx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	res := BacktestResult{Examples: []BacktestExample{}}
	e := &Enrichment{Config: cfg}
	limit := q.Limit
	q.Limit++ // one row more than the bound tells a full period from a cut one
	err = src.Stream(scanCtx, q, func(r *BacktestRow) error {
		if res.Scanned == limit {
			res.Truncated = true
			return errStop
		}
		res.Scanned++
		ts := r.Tx.Timestamp
		res.Oldest = &ts
		e.History, e.KYC, e.KYB = r.History, r.KYC, r.KYB
		e.ngn = &ngnConversion{amount: r.AmountNGN, missing: r.FXMissing}
		hit, err := p.Program.Eval(scanCtx, RuleInput(&r.Tx, e))
		switch {
		case scanCtx.Err() != nil:
			return scanCtx.Err()
		case err != nil:
			res.Errors++
		}
		if p.DraftOutcome != "" {
			res.Comparison.Evaluated++
			if err != nil {
				res.Comparison.Errors++
			}
			matched := err == nil && hit
			o, opens := res.Comparison.countBacktest(matched, r.Outcome, p.DraftOutcome)
			if matched {
				res.Comparison.Matched++
			}
			if (matched || opens) && len(res.Comparison.Examples) < p.MaxExamples {
				res.Comparison.Examples = append(res.Comparison.Examples, ComparisonExample{TransactionID: r.TransactionID,
					ExternalID: r.Tx.ExternalID, At: ts, Matched: matched, LiveOutcome: r.Outcome, DraftOutcome: string(o),
					LiveCase: rules.Outcome(r.Outcome) != rules.Approve, DraftCase: o != rules.Approve})
			}
			if res.Comparison.Newest == nil {
				res.Comparison.Newest = &ts
			}
			res.Comparison.Oldest = &ts
		}
		switch {
		case err != nil || !hit:
		default:
			res.Matched++
			if len(res.Examples) < p.MaxExamples {
				res.Examples = append(res.Examples, BacktestExample{TransactionID: r.TransactionID, ExternalID: r.Tx.ExternalID,
					Amount: r.Tx.Amount, Currency: r.Tx.Currency, SenderName: r.Tx.SenderName, Outcome: r.Outcome, Timestamp: ts})
			}
		}
		return nil
	})
	res.Elapsed = now().Sub(start)
	switch {
	case errors.Is(err, errStop):
	case err != nil && scanCtx.Err() != nil && ctx.Err() == nil:
		res.Truncated = true // the time bound, not the caller, ended the scan
	case err != nil:
		return BacktestResult{}, err
	}
	return res, nil
}

// errStop is returned by a Stream callback to end a scan early; it is never surfaced.
var errStop = errors.New("stop")
