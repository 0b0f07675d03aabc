package kyb

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// CompanyMatchThreshold is the company-name similarity at or above which a found company is the
// applicant (the same 0.8 as person names, docs/design/design-choices.md §6).
const CompanyMatchThreshold = identity.MatchThreshold

// Reasons a check did not pass (kept on the evidence trail and returned).
const (
	ReasonNotFound      = "NOT_FOUND"
	ReasonNameMismatch  = "NAME_MISMATCH"
	ReasonInactive      = "COMPANY_NOT_ACTIVE"
	ReasonNoIdentifier  = "NO_IDENTIFIER"
	ReasonNotChecked    = "NOT_CHECKED"
	ReasonWatchlistHit  = "WATCHLIST_HIT"
	ReasonNoDirectors   = "NO_DIRECTORS"
	ReasonNoRegistryRec = "NOT_IN_REGISTRY"
)

// CACOutcome is the answer of verify-cac (spec 4.5) plus our verdict and the charge.
type CACOutcome struct {
	Found      bool
	Verified   bool
	Reason     string
	Confidence float64
	Company    *identity.Company
	Provider   string
	NewStatus  string
	Charged    decimal.Decimal
	Balance    decimal.Decimal
}

// DirectorResult is one director's check.
type DirectorResult struct {
	Name, BVN, NIN string
	Verified       bool
	Reason         string
	Confidence     float64
	Provider       string
	Charged        decimal.Decimal
}

// DirectorsOutcome is the answer of verify-directors.
type DirectorsOutcome struct {
	AllVerified bool
	Directors   []DirectorResult
	NewStatus   string
	Charged     decimal.Decimal
	Balance     decimal.Decimal
}

// OwnerResult is one owner's screening.
type OwnerResult struct {
	Name  string
	Clean bool
	Hits  []Hit
}

// OwnersOutcome is the answer of screen-beneficial-owners.
type OwnersOutcome struct {
	AllClean         bool
	BeneficialOwners []OwnerResult
	NewStatus        string
}

// ScreeningOutcome is the answer of run-screening: the three steps and the verdict.
type ScreeningOutcome struct {
	CAC              CACOutcome
	Directors        DirectorsOutcome
	BeneficialOwners OwnersOutcome
	Passed           bool
	NewStatus        string
	Charged          decimal.Decimal
	Balance          decimal.Decimal
}

// VerifyCAC looks the company up through the CAC chain (paid, docs/guide/wallet.md) and stores the
// result. CAC_VERIFIED (never lowering the status) when the company is found, ACTIVE (or the
// registry gives no status) and its registered name matches the application's at
// CompanyMatchThreshold; otherwise the status stays and the failed check is kept. A not-found
// answer is definite: charged. Errors: VALIDATION_ERROR (rcNumber, or differing from the
// application's), NOT_FOUND, INVALID_STATUS_TRANSITION (terminal), INSUFFICIENT_FUNDS,
// PROVIDER_UNAVAILABLE, PROVIDER_TIER_UNSUPPORTED.
func (s *Service) VerifyCAC(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, rc string) (CACOutcome, error) {
	out, err := s.verifyCAC(ctx, tenantID, actor, id, rc)
	if err != nil {
		return CACOutcome{}, err
	}
	out.Balance = s.balance(ctx, tenantID)
	return out, nil
}

func (s *Service) verifyCAC(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, rc string) (CACOutcome, error) {
	rc = strings.TrimSpace(rc)
	if err := (identity.CompanyLookup{RCNumber: rc}).Validate(); err != nil {
		return CACOutcome{}, err
	}
	a, err := s.Store.Get(ctx, tenantID, id)
	if err != nil {
		return CACOutcome{}, err
	}
	if err := checkOpen(a, StatusCACVerified); err != nil {
		return CACOutcome{}, err
	}
	chain, err := s.chain(ctx, tenantID, identity.VerifyCAC)
	if err != nil {
		return CACOutcome{}, err
	}
	var out CACOutcome
	desc := "KYB CAC lookup " + id
	_, err = wallet.Paid(ctx, s.Wallet, tenantID, desc,
		func(ctx context.Context) (identity.CompanyResult, wallet.Charge, error) {
			res, err := chain.LookupCAC(ctx, identity.CompanyLookup{RCNumber: rc})
			return res, res.Charge, err
		},
		func(ctx context.Context, h wallet.Hold, res identity.CompanyResult) error {
			now := s.Now()
			out = CACOutcome{Found: res.Found, Company: res.Company, Provider: res.Provider, Charged: h.Amount}
			switch {
			case !res.Found || res.Company == nil:
				out.Found, out.Reason = false, ReasonNotFound
			default:
				out.Confidence = identity.NameSimilarity(a.CompanyName, res.Company.CompanyName)
				switch {
				case res.Company.Status != "" && !strings.EqualFold(res.Company.Status, "ACTIVE"):
					out.Reason = ReasonInactive
				case out.Confidence < CompanyMatchThreshold:
					out.Reason = ReasonNameMismatch
				default:
					out.Verified = true
				}
			}
			c := Check{ID: newID(CheckIDPrefix), ApplicationID: id, Type: CheckCAC, Subject: rc, Passed: out.Verified,
				Confidence: out.Confidence, Provider: res.Provider, ProviderSource: string(res.ProviderSource), Charged: h.Amount,
				CheckedAt: now, Detail: map[string]any{"found": out.Found, "reason": out.Reason, "company": res.Company}}
			app, err := s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
				if err := checkOpen(*a, StatusCACVerified); err != nil {
					return Change{}, err
				}
				before := snapshot(*a)
				// The RC number of the body is the one looked up: when the registry knows it, it
				// becomes the application's (the change is in the audit record); when it does
				// not, the application keeps its own.
				rcChanged := res.Found && identity.NormalizeRC(a.RCNumber) != identity.NormalizeRC(rc)
				if a.RCNumber == "" || rcChanged {
					a.RCNumber = rc
				}
				if res.Found {
					a.Company = res.Company
				}
				a.CACVerified = out.Verified
				if out.Verified {
					a.advance(StatusCACVerified)
				}
				a.UpdatedAt = now
				return Change{Checks: []Check{c}, Change: application.Change{Hold: &h, ChargeDescription: desc, Audit: audit.Event{TenantID: tenantID, Actor: actor,
					Action: "kyb.verified_cac", ResourceType: "kyb_application", ResourceID: a.ID, Before: before,
					After: map[string]any{"status": a.Status, "found": out.Found, "verified": out.Verified, "reason": out.Reason,
						"confidence": out.Confidence, "checkId": c.ID, "rcNumber": a.RCNumber, "rcNumberChanged": rcChanged}}}}, nil
			})
			if err != nil {
				return err
			}
			out.NewStatus = app.Status
			return nil
		})
	return out, err
}

// VerifyDirectors checks each director of the body through the BVN chain (or the NIN chain when
// it has no BVN), one paid call per director with a number: a director is verified when the
// registry knows the number and its full name matches the director's name at
// identity.MatchThreshold (directors carry no date of birth). The caller's `verified` values are
// ignored: ours are authoritative. A director without a number is unverified (NO_IDENTIFIER,
// free); an application director missing from the body is reported unverified (NOT_CHECKED).
// allVerified → DIRECTORS_VERIFIED (never lowering); otherwise the status stays. The wallet must
// hold the price of every paid check before the first is made (402 otherwise); each check's
// charge commits with its stored result. Errors: VALIDATION_ERROR, NOT_FOUND,
// INVALID_STATUS_TRANSITION, INSUFFICIENT_FUNDS, PROVIDER_UNAVAILABLE (checks made before the
// outage stay charged and stored).
func (s *Service) VerifyDirectors(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, ds []Director) (DirectorsOutcome, error) {
	if len(ds) == 0 {
		return DirectorsOutcome{}, apperr.Invalid("directors", "at least one director is required")
	}
	ds, bad := cleanDirectors(ds)
	if len(bad) > 0 {
		return DirectorsOutcome{}, apperr.InvalidFields(bad...)
	}
	a, err := s.Store.Get(ctx, tenantID, id)
	if err != nil {
		return DirectorsOutcome{}, err
	}
	if err := checkOpen(a, StatusDirectorsVerified); err != nil {
		return DirectorsOutcome{}, err
	}
	if err := s.ensureFunds(ctx, tenantID, paidDirectors(ds)); err != nil {
		return DirectorsOutcome{}, err
	}
	out, err := s.verifyDirectors(ctx, tenantID, actor, id, ds)
	if err != nil {
		return DirectorsOutcome{}, err
	}
	out.Balance = s.balance(ctx, tenantID)
	return out, nil
}

func paidDirectors(ds []Director) int {
	n := 0
	for _, d := range ds {
		if d.BVN != "" || d.NIN != "" {
			n++
		}
	}
	return n
}

func (s *Service) verifyDirectors(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, ds []Director) (DirectorsOutcome, error) {
	out := DirectorsOutcome{Charged: decimal.Zero}
	var free []Check
	for _, d := range ds {
		r, c, err := s.checkDirector(ctx, tenantID, id, d)
		if err != nil {
			return DirectorsOutcome{}, err
		}
		if c != nil {
			free = append(free, *c)
		}
		out.Charged = out.Charged.Add(r.Charged)
		out.Directors = append(out.Directors, r)
	}
	// Directors are screened against the watchlists too (in memory, no call): a hit opens a
	// KYC_REVIEW case but does not unverify the director's identity (docs/guide/kyc-review-cases.md).
	hits := map[string][]Hit{}
	for _, r := range out.Directors {
		if hs := s.Screen(tenantID, r.Name); len(hs) > 0 {
			hits[r.Name] = hs
		}
	}
	now := s.Now()
	app, err := s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		if err := checkOpen(*a, StatusDirectorsVerified); err != nil {
			return Change{}, err
		}
		before := snapshot(*a)
		results := out.Directors
		// Merge into the application's directors by name; report those left out.
		for i := range a.Directors {
			j := indexByName(results, a.Directors[i].Name, func(r DirectorResult) string { return r.Name })
			if j < 0 {
				a.Directors[i].Verified = false
				out.Directors = append(out.Directors, DirectorResult{Name: a.Directors[i].Name, BVN: a.Directors[i].BVN,
					NIN: a.Directors[i].NIN, Reason: ReasonNotChecked, Charged: decimal.Zero})
				continue
			}
			a.Directors[i].Verified = results[j].Verified
			if a.Directors[i].BVN == "" {
				a.Directors[i].BVN = results[j].BVN
			}
			if a.Directors[i].NIN == "" {
				a.Directors[i].NIN = results[j].NIN
			}
		}
		out.AllVerified = true
		for _, r := range out.Directors {
			out.AllVerified = out.AllVerified && r.Verified
		}
		a.DirectorsVerified = out.AllVerified
		if out.AllVerified {
			a.advance(StatusDirectorsVerified)
		}
		a.UpdatedAt = now
		return Change{Checks: free, Change: application.Change{Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyb.verified_directors",
			ResourceType: "kyb_application", ResourceID: a.ID, Before: before, After: map[string]any{"status": a.Status,
				"allVerified": out.AllVerified, "directors": directorsAudit(out.Directors), "charged": out.Charged.StringFixed(2),
				"watchlistHits": len(hits)}},
			OpenCase: reviewCase(*a, directorFindings(out.Directors, hits))}}, nil
	})
	if err != nil {
		return DirectorsOutcome{}, err
	}
	out.NewStatus = app.Status
	return out, nil
}

// checkDirector runs one director's paid check (stored with its charge) or, without a number,
// returns the free NO_IDENTIFIER check for the caller to store.
func (s *Service) checkDirector(ctx context.Context, tenantID tenancy.TenantID, id string, d Director) (DirectorResult, *Check, error) {
	r := DirectorResult{Name: d.Name, BVN: d.BVN, NIN: d.NIN, Charged: decimal.Zero}
	v, number := identity.VerifyBVN, d.BVN
	if number == "" {
		v, number = identity.VerifyNIN, d.NIN
	}
	if number == "" {
		r.Reason = ReasonNoIdentifier
		return r, &Check{ID: newID(CheckIDPrefix), ApplicationID: id, Type: CheckDir, Subject: d.Name, Charged: decimal.Zero,
			CheckedAt: s.Now(), Detail: map[string]any{"reason": r.Reason}}, nil
	}
	chain, err := s.chain(ctx, tenantID, v)
	if err != nil {
		return r, nil, err
	}
	desc := fmt.Sprintf("KYB director %s check %s", v, id)
	_, err = wallet.Paid(ctx, s.Wallet, tenantID, desc,
		func(ctx context.Context) (identity.PersonResult, wallet.Charge, error) {
			lookup := chain.LookupNIN
			if v == identity.VerifyBVN {
				lookup = chain.LookupBVN
			}
			res, err := lookup(ctx, number)
			return res, res.Charge, err
		},
		func(ctx context.Context, h wallet.Hold, res identity.PersonResult) error {
			r.Provider, r.Charged = res.Provider, h.Amount
			switch {
			case !res.Found || res.Record == nil:
				r.Reason = ReasonNotFound
			default:
				r.Confidence = identity.NameSimilarity(d.Name, res.Record.FullName())
				r.Verified = r.Confidence >= identity.MatchThreshold
				if !r.Verified {
					r.Reason = ReasonNameMismatch
				}
			}
			c := Check{ID: newID(CheckIDPrefix), ApplicationID: id, Type: CheckDir, Subject: d.Name, Passed: r.Verified,
				Confidence: r.Confidence, Provider: res.Provider, ProviderSource: string(res.ProviderSource), Charged: h.Amount,
				CheckedAt: s.Now(), Detail: map[string]any{"verification": string(v), "number": number, "found": res.Found, "reason": r.Reason}}
			return s.Store.AddCheck(ctx, tenantID, c, h, desc)
		})
	return r, nil, err
}

// ScreenOwners screens each owner of the body, and every application owner left out of it, with
// the sanctions matcher: the global sanctions and PEP lists and the tenant's watchlists, at the
// REVIEW threshold of docs/design/design-choices.md §8 (0.75). Any hit (sanctions, PEP or internal) makes the
// owner not clean: PEP exposure needs an officer too. The caller's `clean` and `hits` are
// ignored: ours are authoritative. allClean → BENEFICIAL_OWNERS_VERIFIED (never lowering).
// Free (in-house). Errors: VALIDATION_ERROR, NOT_FOUND, INVALID_STATUS_TRANSITION.
func (s *Service) ScreenOwners(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, names []string) (OwnersOutcome, error) {
	if len(names) == 0 {
		return OwnersOutcome{}, apperr.Invalid("beneficialOwners", "at least one beneficial owner is required")
	}
	for i, n := range names {
		if strings.TrimSpace(n) == "" {
			return OwnersOutcome{}, apperr.Invalid(fmt.Sprintf("beneficialOwners[%d].name", i), "is required")
		}
	}
	return s.screenOwners(ctx, tenantID, actor, id, names)
}

func (s *Service) screenOwners(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, names []string) (OwnersOutcome, error) {
	var out OwnersOutcome
	now := s.Now()
	app, err := s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		if err := checkOpen(*a, StatusBeneficialOwnersVerified); err != nil {
			return Change{}, err
		}
		before := snapshot(*a)
		all := make([]string, 0, len(names)+len(a.Owners))
		for _, n := range names {
			all = append(all, strings.TrimSpace(n))
		}
		for _, o := range a.Owners {
			if indexByName(all, o.Name, func(s string) string { return s }) < 0 {
				all = append(all, o.Name)
			}
		}
		out = OwnersOutcome{AllClean: true}
		var checks []Check
		for _, n := range all {
			r := OwnerResult{Name: n, Hits: s.Screen(tenantID, n)}
			r.Clean = len(r.Hits) == 0
			out.AllClean = out.AllClean && r.Clean
			out.BeneficialOwners = append(out.BeneficialOwners, r)
			best := 0.0
			if len(r.Hits) > 0 {
				best = r.Hits[0].Score
			}
			reason := ""
			if !r.Clean {
				reason = ReasonWatchlistHit
			}
			checks = append(checks, Check{ID: newID(CheckIDPrefix), ApplicationID: id, Type: CheckOwner, Subject: n, Passed: r.Clean,
				Confidence: best, Provider: "complyd-matcher", ProviderSource: "LOCAL", Charged: decimal.Zero, CheckedAt: now,
				Detail: map[string]any{"hits": r.Hits, "reason": reason}})
			if i := indexByName(a.Owners, n, func(o Owner) string { return o.Name }); i >= 0 {
				clean := r.Clean
				a.Owners[i].Clean, a.Owners[i].Hits = &clean, r.Hits
			}
		}
		a.OwnersClean = out.AllClean
		if out.AllClean {
			a.advance(StatusBeneficialOwnersVerified)
		}
		a.UpdatedAt = now
		return Change{Checks: checks, Change: application.Change{Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyb.screened_beneficial_owners",
			ResourceType: "kyb_application", ResourceID: a.ID, Before: before, After: map[string]any{"status": a.Status,
				"allClean": out.AllClean, "owners": ownersAudit(out.BeneficialOwners)}},
			OpenCase: reviewCase(*a, ownerFindings(out.BeneficialOwners))}}, nil
	})
	if err != nil {
		return OwnersOutcome{}, err
	}
	out.NewStatus = app.Status
	return out, nil
}

// Screen returns the watchlist hits of one name (global sanctions/PEP lists and the tenant's
// watchlists) at the REVIEW threshold, best first.
func (s *Service) Screen(tenantID tenancy.TenantID, name string) []Hit {
	ms := s.Matcher.Search(tenantID, sanctions.Query{Name: name, Threshold: sanctions.DefaultThreshold, Limit: sanctions.DefaultLimit})
	hits := make([]Hit, 0, len(ms))
	for _, m := range ms {
		hits = append(hits, Hit{List: m.List, ListType: string(m.ListType), EntryID: m.EntryID, SourceID: m.SourceID, Name: m.Name,
			MatchedName: m.MatchedName, Score: m.Score, Band: sanctions.Band(m.Score)})
	}
	return hits
}

// RunScreening runs the three steps on the application's own data: the CAC lookup of its
// rcNumber, the director checks of its directors and the screening of its owners (the CAC
// record's owners when the application declares none). It ends in SCREENING_PASSED when the
// company is verified, every director verified and every owner clean; otherwise each step has
// moved the status as far as it earned. The price of every paid call is needed before the first
// (402). Errors: VALIDATION_ERROR (no rcNumber), NOT_FOUND, INVALID_STATUS_TRANSITION,
// INSUFFICIENT_FUNDS, PROVIDER_UNAVAILABLE.
func (s *Service) RunScreening(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (ScreeningOutcome, error) {
	a, err := s.Store.Get(ctx, tenantID, id)
	if err != nil {
		return ScreeningOutcome{}, err
	}
	if err := checkOpen(a, StatusScreeningPassed); err != nil {
		return ScreeningOutcome{}, err
	}
	if a.RCNumber == "" {
		return ScreeningOutcome{}, apperr.Invalid("rcNumber", "the application has no rcNumber; PATCH it first")
	}
	if err := s.ensureFunds(ctx, tenantID, 1+paidDirectors(a.Directors)); err != nil {
		return ScreeningOutcome{}, err
	}
	var out ScreeningOutcome
	if out.CAC, err = s.verifyCAC(ctx, tenantID, actor, id, a.RCNumber); err != nil {
		return ScreeningOutcome{}, err
	}
	if len(a.Directors) == 0 {
		out.Directors = DirectorsOutcome{Directors: []DirectorResult{}, NewStatus: out.CAC.NewStatus, Charged: decimal.Zero}
	} else if out.Directors, err = s.verifyDirectors(ctx, tenantID, actor, id, a.Directors); err != nil {
		return ScreeningOutcome{}, err
	}
	names := make([]string, 0, len(a.Owners))
	for _, o := range a.Owners {
		names = append(names, o.Name)
	}
	if len(names) == 0 && out.CAC.Company != nil {
		for _, o := range out.CAC.Company.BeneficialOwners {
			names = append(names, o.Name)
		}
	}
	if out.BeneficialOwners, err = s.screenOwners(ctx, tenantID, actor, id, names); err != nil {
		return ScreeningOutcome{}, err
	}
	out.Passed = out.CAC.Verified && out.Directors.AllVerified && out.BeneficialOwners.AllClean
	out.Charged = out.CAC.Charged.Add(out.Directors.Charged)
	now := s.Now()
	app, err := s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		if err := checkOpen(*a, StatusScreeningPassed); err != nil {
			return Change{}, err
		}
		before := snapshot(*a)
		// The facts must still hold under the lock (an edit in between clears them).
		passed := out.Passed && a.CACVerified && a.DirectorsVerified && a.OwnersClean
		out.Passed = passed
		if passed {
			a.advance(StatusScreeningPassed)
		}
		a.UpdatedAt = now
		return change(application.Change{Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyb.screening_run", ResourceType: "kyb_application",
			ResourceID: a.ID, Before: before, After: map[string]any{"status": a.Status, "passed": passed, "cacVerified": out.CAC.Verified,
				"allVerified": out.Directors.AllVerified, "allClean": out.BeneficialOwners.AllClean, "charged": out.Charged.StringFixed(2)}}}), nil
	})
	if err != nil {
		return ScreeningOutcome{}, err
	}
	out.NewStatus = app.Status
	out.Balance = s.balance(ctx, tenantID)
	return out, nil
}

// ensureFunds answers 402 before any call when the available balance cannot pay n calls. It is
// a courtesy check (each call still reserves); n = 0 needs nothing.
func (s *Service) ensureFunds(ctx context.Context, tenantID tenancy.TenantID, n int) error {
	if n == 0 {
		return nil
	}
	w, err := s.Wallet.Wallet(ctx, tenantID)
	if err != nil {
		return err
	}
	need := s.Wallet.Price().Mul(decimal.NewFromInt(int64(n)))
	if w.Available().LessThan(need) {
		return apperr.Newf(apperr.InsufficientFunds, "wallet balance is below the price of the %d paid checks this step needs (%s NGN); nothing was called or charged",
			n, need.StringFixed(2)).WithData(map[string]any{"balance": w.Balance.StringFixed(2), "available": w.Available().StringFixed(2),
			"price": s.Wallet.Price().StringFixed(2), "required": need.StringFixed(2), "currency": wallet.Currency})
	}
	return nil
}

func (s *Service) balance(ctx context.Context, tenantID tenancy.TenantID) decimal.Decimal {
	w, err := s.Wallet.Wallet(ctx, tenantID)
	if err != nil {
		return decimal.Zero
	}
	return w.Balance
}

func (s *Service) chain(ctx context.Context, tenantID tenancy.TenantID, v identity.VerificationType) (identity.Chain, error) {
	ps, cfg, err := s.Providers(ctx, tenantID)
	if err != nil {
		return identity.Chain{}, err
	}
	return ps.Chain(cfg, v, "")
}

func indexByName[T any](xs []T, name string, key func(T) string) int {
	n := normName(name)
	for i, x := range xs {
		if normName(key(x)) == n {
			return i
		}
	}
	return -1
}

func normName(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func directorsAudit(rs []DirectorResult) []map[string]any {
	out := make([]map[string]any, 0, len(rs))
	for _, r := range rs {
		out = append(out, map[string]any{"name": r.Name, "verified": r.Verified, "reason": r.Reason, "confidence": r.Confidence})
	}
	return out
}

func ownersAudit(rs []OwnerResult) []map[string]any {
	out := make([]map[string]any, 0, len(rs))
	for _, r := range rs {
		out = append(out, map[string]any{"name": r.Name, "clean": r.Clean, "hits": len(r.Hits)})
	}
	return out
}
