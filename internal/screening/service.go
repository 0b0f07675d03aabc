package screening

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/ids"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/prose"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

// Transaction list paging (docs/reference/specification.md 8).
const (
	ListPageDefault = 20
	ListPageMax     = 100
)

// Settings are what a screening reads of its tenant on every call: the configuration (trust
// mode, tier limits, FX rates) and the custom rules. They are cached in memory per tenant.
type Settings struct {
	Config tenancy.Config
	Rules  []rules.Rule
	// Countries are the tenant's jurisdiction lists (docs/guide/countries.md); nil: the Decision
	// Engine's built-in lists.
	Countries *CountryRisk
	// Engines is the tenant's engine configuration in force (docs/design/engines.md); nil: built-in.
	Engines *EngineConfig
	// Shadows are the tenant's rule drafts running in shadow (docs/guide/rules.md "Shadow").
	Shadows []ShadowRule
}

// SettingsSource returns a tenant's Settings (implemented by a per-tenant cache over the store,
// invalidated on change across replicas). Errors: INTERNAL.
type SettingsSource interface {
	Settings(ctx context.Context, tenantID tenancy.TenantID) (Settings, error)
}

// Prefetch is what the store reads before the engines run, in one round trip: the stored
// transaction with the same externalId (idempotency), the sender account's history and
// behavioral profile, and the sender's stored KYC.
type Prefetch struct {
	Existing *Summary // non-nil when the externalId was already screened
	History  History
	Profile  Profile
	KYC      StoredKYC
}

// Summary is the original verdict of a replayed externalId (error.data of
// DUPLICATE_EXTERNAL_ID, docs/design/design-choices.md §2).
type Summary struct {
	TransactionID  string
	ExternalID     string
	Outcome        rules.Outcome
	RiskLevel      string
	AggregateScore float64
	TotalLatencyMs int64
}

// DuplicateError returns 409 DUPLICATE_EXTERNAL_ID carrying the original verdict.
func DuplicateError(s Summary) error {
	return apperr.Newf(apperr.DuplicateExternalID, "externalId %q was already screened", s.ExternalID).WithData(map[string]any{
		"transactionId": s.TransactionID, "externalId": s.ExternalID, "outcome": string(s.Outcome),
		"riskLevel": s.RiskLevel, "aggregateScore": s.AggregateScore,
	})
}

// Record is one screened transaction ready to store: the request, the NGN amount the rules
// evaluated, the verdict and the automatic case to open with it.
type Record struct {
	ID          string // transaction UUID
	VerdictID   string // vrd_…
	Tx          *Transaction
	AmountNGN   decimal.Decimal
	FXMissing   bool
	Result      Result
	ProcessedAt time.Time
	// Case is the automatic case to open in the same database transaction, nil for APPROVE.
	Case *CaseRequest
	// History is the sender account's history the verdict was computed on. The store stores
	// the record only if the account's history is still that one when it commits, and answers
	// ErrHistoryChanged otherwise (another replica stored one of the account's transactions in
	// between), so that the screening is run again on the new history.
	History History
	// EngineConfigID names the engine configuration the verdict was scored with (docs/design/engines.md).
	EngineConfigID string
	// RuleVersions are the versions of the enabled custom rules the verdict was evaluated with
	// (rule id to version; docs/design/engines.md "Rule versions").
	RuleVersions map[string]int
}

// ErrHistoryChanged is Store.Save's answer when the sender account's history is no longer the
// one the record was screened on: a screening of the same account on another replica was stored
// in between. Nothing was stored; Screen screens the transaction again.
var ErrHistoryChanged = errors.New("the account's history changed during the screening")

// maxHistoryRetries bounds the screenings of one transaction whose account keeps changing under
// it; each retry follows a commit of the same account elsewhere, so a few are enough for any
// burst of one account spread over a handful of replicas.
const maxHistoryRetries = 16

// CaseRequest is the automatic case of a screening (docs/design/design-choices.md §8).
type CaseRequest struct {
	Type        string
	Priority    string
	Title       string
	Description string
}

// Stored is a stored transaction with its verdict (GET /transactions/:id).
type Stored struct {
	Record
	CaseID    string
	CreatedAt time.Time
}

// ListParams filter GET /transactions.
type ListParams struct {
	Outcome string
	Type    string
	From    *time.Time
	To      *time.Time
	// Account matches the sender or the receiver account number.
	Account string
	// MinAmount and MaxAmount bound the amount (in the transaction's currency), when set.
	MinAmount, MaxAmount *decimal.Decimal
	// RiskLevel is the verdict's risk level (LOW, MEDIUM, HIGH, CRITICAL), when set.
	RiskLevel string
	// RuleID keeps the transactions on which that rule triggered, in any engine.
	RuleID string
}

// Store persists screenings (implemented by internal/postgres).
type Store interface {
	// Prefetch reads the idempotency check and the enrichment inputs of tx in one round trip;
	// withKYC says whether the stored KYC lookup is needed, pace which queue-wait limit the
	// store's admission holds the screening to (admission.Pace). Errors: SERVICE_UNAVAILABLE
	// (refused at admission); INTERNAL.
	Prefetch(ctx context.Context, tx *Transaction, withKYC bool, pace admission.Pace) (Prefetch, error)
	// Save stores rec, and in the same database transaction opens rec.Case (with its email,
	// dashboard notification and case.created webhook), queues the transaction.screened webhook
	// for outcomes other than APPROVE and the retro-screening job when an engine failed open.
	// It returns the case id ("" when none). Errors: DUPLICATE_EXTERNAL_ID (with the original
	// verdict) when the externalId is already stored; ErrHistoryChanged (nothing stored) when
	// the sender account's history is no longer rec.History; INTERNAL.
	Save(ctx context.Context, rec *Record) (caseID string, err error)
	// Get returns a stored transaction. Errors: NOT_FOUND; INTERNAL.
	Get(ctx context.Context, tenantID tenancy.TenantID, id string) (Stored, error)
	// List returns a page of stored transactions, newest transactionTimestamp first.
	List(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[Stored], error)
}

// KYBStore is the port to the service's KYB records (the KYB capability's store).
type KYBStore interface {
	// StoredKYB returns the KYB record of the company with registration number rcNumber; Found
	// is false when none exists. Errors: INTERNAL.
	StoredKYB(ctx context.Context, tenantID tenancy.TenantID, rcNumber string) (StoredKYB, error)
}

// ServiceDeps are the Service's collaborators; all are required but Now.
type ServiceDeps struct {
	Settings SettingsSource
	Store    Store
	KYB      KYBStore
	Pipeline *Pipeline
	Now      func() time.Time
	// Interdictions, when set, BLOCKs transactions on interdicted accounts (interdiction.go).
	Interdictions InterdictionSource
	// PacedAccountWait bounds how long a stream's screening (admission.Streamed) waits for its
	// account's previous screenings (admission.Accounts) before it is refused with
	// SERVICE_UNAVAILABLE and Retry-After; zero means 1s. A unary screening's own deadline bounds its wait instead, and
	// a batch's items wait for each other as long as the batch's context allows (a batch of
	// one account's transfers is screened one after the other by design).
	PacedAccountWait time.Duration
	// OnAccountShed, when set, is called for each stream screening refused because its wait for
	// its account's turn passed PacedAccountWait (complyd_screening_account_shed_total).
	OnAccountShed func()
	// Shadows, when set, takes the results of the tenant's shadowed rule drafts after each
	// stored screening (docs/guide/rules.md "Shadow"); without it no draft is evaluated.
	Shadows ShadowRecorder
}

// Service screens transactions: validation, idempotency, enrichment, the pipeline, and
// persistence with its side effects (docs/reference/specification.md 4.3).
type Service struct {
	d        ServiceDeps
	accounts *admission.Accounts
}

// NewService returns a Service; it panics on a missing dependency.
func NewService(d ServiceDeps) *Service {
	if d.Settings == nil || d.Store == nil || d.KYB == nil || d.Pipeline == nil {
		panic("screening.NewService: missing dependency")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.PacedAccountWait <= 0 {
		d.PacedAccountWait = time.Second
	}
	return &Service{d: d, accounts: admission.NewAccounts(d.PacedAccountWait, d.OnAccountShed)}
}

// Screened is a screening's answer.
type Screened struct {
	Record *Record
	CaseID string
}

// Screen runs pipeline steps 1 to 8 on tx for tenantID and stores the result. pace is how its
// caller waits for the answer (admission.Pace, decided by the transport): it picks how long the
// screening may wait for its account's turn and for the store's queues before it is refused.
//
// Errors: VALIDATION_ERROR (every bad field; trust-mode requirements); DUPLICATE_EXTERNAL_ID
// with the original verdict (nothing is re-screened); SERVICE_UNAVAILABLE with Retry-After
// (refused by admission); INTERNAL.
func (s *Service) Screen(ctx context.Context, tenantID tenancy.TenantID, tx *Transaction, pace admission.Pace) (Screened, error) {
	start := s.d.Now()
	tx.TenantID = tenantID
	tx.Normalize()
	set, err := s.d.Settings.Settings(ctx, tenantID)
	if err != nil {
		return Screened{}, err
	}
	mode := set.Config.KYCTrustMode
	if err := tx.Validate(mode); err != nil {
		return Screened{}, err
	}
	unlock, err := s.accounts.Lock(ctx, tenantID, tx.SenderAccountNumber, tx.Timestamp, pace)
	if err != nil {
		return Screened{}, err
	}
	defer unlock()
	// Within this process admission.Accounts makes one account's screenings take turns; across replicas
	// the store refuses a record whose account history changed since it was read, and the
	// screening runs again on the new history (docs/guide/operations.md "Replicas").
	for attempt := 1; ; attempt++ {
		out, err := s.screenOnce(ctx, tx, set, start, pace)
		if errors.Is(err, ErrHistoryChanged) && attempt < maxHistoryRetries {
			continue
		}
		if errors.Is(err, ErrHistoryChanged) {
			return Screened{}, apperr.New(apperr.Unavailable, "the account's history kept changing; retry the screening")
		}
		return out, err
	}
}

// AccountWaiting is the number of screenings waiting for their account's previous screening to
// be stored (admission.Accounts.Waiting), over every account
// (complyd_screening_account_wait_length).
func (s *Service) AccountWaiting() int { return s.accounts.Waiting() }

// screenOnce reads the account's history, runs the pipeline and stores the result (steps 2 to 8
// of Screen); the caller holds the account's turn.
func (s *Service) screenOnce(ctx context.Context, tx *Transaction, set Settings, start time.Time, pace admission.Pace) (Screened, error) {
	mode := set.Config.KYCTrustMode
	tenantID := tx.TenantID
	pre, err := s.d.Store.Prefetch(ctx, tx, NeedsStoredKYC(mode, tx), pace)
	if err != nil {
		return Screened{}, err
	}
	if pre.Existing != nil {
		return Screened{}, DuplicateError(*pre.Existing)
	}
	e := &Enrichment{Config: set.Config, History: pre.History, Profile: pre.Profile, Rules: set.Rules, Countries: set.Countries, Engines: set.Engines}
	if s.d.Shadows != nil && len(set.Shadows) > 0 {
		e.Shadows = activeShadows(set.Shadows, s.d.Now())
	}
	if e.KYC, err = ResolveKYC(mode, tx, pre.KYC); err != nil {
		return Screened{}, err
	}
	var kyb StoredKYB
	if NeedsStoredKYB(mode, tx) {
		if kyb, err = s.d.KYB.StoredKYB(ctx, tenantID, tx.SenderRCNumber); err != nil {
			return Screened{}, fmt.Errorf("stored kyb: %w", err)
		}
	}
	if e.KYB, err = ResolveKYB(mode, tx, kyb); err != nil {
		return Screened{}, err
	}
	res, err := s.d.Pipeline.Run(ctx, tx, e)
	if err != nil {
		return Screened{}, err
	}
	if err := s.checkInterdictions(ctx, tx, &res); err != nil {
		return Screened{}, err
	}
	now := s.d.Now()
	res.TotalLatencyMs = now.Sub(start).Milliseconds()
	rec := &Record{ID: NewTransactionID(), VerdictID: NewID("vrd_"), Tx: tx, AmountNGN: res.AmountNGN, FXMissing: res.FXMissing,
		Result: res, ProcessedAt: now.UTC(), History: pre.History, EngineConfigID: set.Engines.configID(),
		RuleVersions: ruleVersions(set.Rules)}
	if res.Case != nil {
		rec.Case = caseRequest(rec)
	}
	caseID, err := s.d.Store.Save(ctx, rec)
	if err != nil {
		return Screened{}, err
	}
	if len(res.shadow) > 0 {
		// After the screening is stored and decided: the shadow only watches (docs/guide/rules.md).
		s.d.Shadows.Record(shadowResults(rec, caseID, set.Engines))
	}
	return Screened{Record: rec, CaseID: caseID}, nil
}

// Get returns a stored transaction. Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (Stored, error) {
	return s.d.Store.Get(ctx, tenantID, id)
}

// List returns a page of the tenant's transactions. Errors: VALIDATION_ERROR when from > to.
func (s *Service) List(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[Stored], error) {
	if f.From != nil && f.To != nil && f.From.After(*f.To) {
		return paging.Result[Stored]{}, apperr.Invalid("from", "must not be after to")
	}
	return s.d.Store.List(ctx, tenantID, f, p)
}

// caseRequest builds the automatic case of rec (docs/design/design-choices.md §8): its type and priority from
// DecideCase, a title naming the transaction and a description listing the triggered rules.
func caseRequest(rec *Record) *CaseRequest {
	r, tx := rec.Result, rec.Tx
	title := fmt.Sprintf("%s on transaction %s", prose.Capital(prose.Enum(string(r.Outcome))), tx.ExternalID)
	var b strings.Builder
	// In words, as the case page shows it (issue 50 point 4): "Screening of the transfer of
	// ₦12,500,000.00 from Ada Obi (account 0123456789): outcome review, high risk, score 0.87."
	fmt.Fprintf(&b, "Screening of the %s of %s from %s (account %s): outcome %s, %s risk, score %.2f.",
		prose.Enum(tx.Type), prose.Money(tx.Amount, tx.Currency), tx.SenderName, tx.SenderAccountNumber,
		prose.Enum(string(r.Outcome)), prose.Enum(r.RiskLevel), r.Score)
	if len(r.TriggeredRules) > 0 {
		b.WriteString(" Triggered:")
		for i, t := range r.TriggeredRules {
			if i > 0 {
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " %s (%s, %d)", t.Name, t.Category, t.RiskScore)
		}
		b.WriteString(".")
	}
	return &CaseRequest{Type: r.Case.Type, Priority: r.Case.Priority, Title: title, Description: b.String()}
}

// NewTransactionID returns a time-ordered UUID (v7), which keeps the primary-key index
// append-only under high insert rates.
func NewTransactionID() string { return uuid.Must(uuid.NewV7()).String() }

// NewID returns prefix followed by 26 characters that sort by creation time (ids.New).
func NewID(prefix string) string { return ids.New(prefix) }

// Now is the service's clock (the status reports of payment messages are dated by it).
func (s *Service) Now() time.Time { return s.d.Now() }
