package kyc

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// VerifyOutcome is the answer of verify-bvn and verify-nin (spec 4.4) plus the charge.
type VerifyOutcome struct {
	Found          bool
	IsMatch        bool
	Confidence     float64
	Provider       string
	ProviderSource string
	NewStatus      string
	Tier           string
	ResultID       string
	Charged        decimal.Decimal
	Balance        decimal.Decimal
}

// VerifyBVN checks a BVN: see verify.
func (s *Service) VerifyBVN(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, c identity.PersonCheck) (VerifyOutcome, error) {
	return s.verify(ctx, tenantID, actor, id, identity.VerifyBVN, c)
}

// VerifyNIN checks a NIN: see verify.
func (s *Service) VerifyNIN(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, c identity.PersonCheck) (VerifyOutcome, error) {
	return s.verify(ctx, tenantID, actor, id, identity.VerifyNIN, c)
}

// verify runs a paid BVN or NIN check (docs/design/design-choices.md §6, docs/guide/wallet.md):
//
//  1. validate, load the application (NOT_FOUND; 409 on a terminal status), and refuse a
//     number that differs from the application's (edit it first);
//  2. select the provider chain (422 PROVIDER_TIER_UNSUPPORTED with kycFallbackMode NONE);
//  3. reserve the price (402 INSUFFICIENT_FUNDS: nothing called);
//  4. ask the chain outside any transaction (503 PROVIDER_UNAVAILABLE: released, not charged);
//  5. in one transaction: settle the charge, store the result, move the status to the milestone
//     on a match (never lowering it), raise the tier, audit, queue kyc.status_changed.
//
// A mismatch or an unknown number is a definite answer: charged, stored, status unchanged.
func (s *Service) verify(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string,
	v identity.VerificationType, c identity.PersonCheck) (VerifyOutcome, error) {
	field, milestone := "bvn", StatusBVNVerified
	if v == identity.VerifyNIN {
		field, milestone = "nin", StatusNINVerified
	}
	if err := c.Validate(field); err != nil {
		return VerifyOutcome{}, err
	}
	a, err := s.Store.Get(ctx, tenantID, id)
	if err != nil {
		return VerifyOutcome{}, err
	}
	if err := checkOpen(a, milestone); err != nil {
		return VerifyOutcome{}, err
	}
	if cur := numberOf(a, v); cur != "" && cur != c.Number {
		return VerifyOutcome{}, apperr.Invalid(field, "differs from the application's "+field+"; PATCH the application first")
	}
	chain, err := s.chain(ctx, tenantID, v, a.Tier)
	if err != nil {
		return VerifyOutcome{}, err
	}
	var out VerifyOutcome
	call := func(ctx context.Context) (identity.PersonResult, wallet.Charge, error) {
		check := chain.CheckNIN
		if v == identity.VerifyBVN {
			check = chain.CheckBVN
		}
		res, err := check(ctx, c)
		return res, res.Charge, err
	}
	_, err = wallet.Paid(ctx, s.Wallet, tenantID, fmt.Sprintf("KYC %s verification %s", v, id), call,
		func(ctx context.Context, h wallet.Hold, res identity.PersonResult) error {
			now := s.Now()
			r := Result{ID: newID(ResultIDPrefix), ApplicationID: id, IdentityType: v, Provider: res.Provider,
				ProviderSource: string(res.ProviderSource), Raw: res.Raw, Charged: h.Amount, VerifiedAt: now}
			app, err := s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
				if err := checkOpen(*a, milestone); err != nil {
					return Change{}, err
				}
				// The number must belong to this applicant: the registry's record is compared
				// with the application's own name and date of birth, not only with the
				// request's, which could be anyone's.
				match, mismatched := bind(res, *a, c)
				r.IsMatch, r.Confidence = match, res.Confidence
				switch {
				case !res.Found:
					r.ErrorMessage = "NOT_FOUND: the registry has no record of this " + field
				case !match:
					r.ErrorMessage = "MISMATCH: " + strings.Join(mismatched, ", ") + " do not match the registry"
				}
				res.IsMatch = match
				prior := *a
				// Once the registry has tied the number to this applicant, the applicant is
				// screened against the watchlists (in memory, no charge): a hit opens a
				// KYC_REVIEW case but does not undo the verification (docs/guide/kyc-review-cases.md).
				var hits []WatchlistHit
				if match {
					hits = s.screen(tenantID, *a)
				}
				if match {
					setNumber(a, v, c.Number, true)
					a.advance(milestone)
					// A tier rises only on a verification that succeeded.
					a.upgradeTier()
				}
				a.UpdatedAt = now
				return Change{Results: []Result{r}, Change: application.Change{Hold: &h, ChargeDescription: fmt.Sprintf("KYC %s verification %s", v, id),
					Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyc.verified_" + field, ResourceType: "kyc_application",
						ResourceID: a.ID, Before: snapshot(prior), After: map[string]any{"status": a.Status, "tier": a.Tier, "isMatch": match,
							"found": res.Found, "confidence": res.Confidence, "provider": res.Provider, "resultId": r.ID,
							"mismatchedFields": mismatched, "changedFields": changedFields(prior, *a), "watchlistHits": len(hits)}},
					OpenCase: ReviewCase(*a, []Result{r}, hits)}}, nil
			})
			if err != nil {
				return err
			}
			out = VerifyOutcome{Found: res.Found, IsMatch: res.IsMatch, Confidence: res.Confidence, Provider: res.Provider,
				ProviderSource: string(res.ProviderSource), NewStatus: app.Status, Tier: app.Tier, ResultID: r.ID, Charged: h.Amount}
			return nil
		})
	if err != nil {
		return VerifyOutcome{}, err
	}
	if w, err := s.Wallet.Wallet(ctx, tenantID); err == nil {
		out.Balance = w.Balance
	}
	return out, nil
}

// bind decides whether a provider's answer verifies this applicant: the provider must have found
// the number and matched the request, and its record must bear out the application's own first
// and last name and date of birth (the request's date when the application has none). It returns
// the fields that do not match, each named once.
func bind(res identity.PersonResult, a Application, c identity.PersonCheck) (bool, []string) {
	if !res.Found {
		return false, nil
	}
	seen := map[string]bool{}
	var fields []string
	add := func(fs ...string) {
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				fields = append(fields, f)
			}
		}
	}
	if res.Record == nil {
		// A provider that returns no record: its own comparison with the request is all there is.
		if !res.IsMatch {
			add("firstName", "lastName", "dateOfBirth")
		}
		return len(fields) == 0, fields
	}
	claim := identity.PersonCheck{FirstName: a.FirstName, LastName: a.LastName, DateOfBirth: c.DateOfBirth}
	if a.DateOfBirth != nil {
		claim.DateOfBirth = a.DateOfBirth.Format("2006-01-02")
	}
	m, _ := identity.Mismatches(claim, *res.Record, 0)
	add(m...)
	if !res.IsMatch {
		m, _ := identity.Mismatches(c, *res.Record, 0)
		if len(m) == 0 {
			m = []string{"firstName", "lastName", "dateOfBirth"}
		}
		add(m...)
	}
	return len(fields) == 0, fields
}

// chain returns the provider chain for v at tier. Errors: PROVIDER_TIER_UNSUPPORTED,
// PROVIDER_UNAVAILABLE.
func (s *Service) chain(ctx context.Context, tenantID tenancy.TenantID, v identity.VerificationType, tier string) (identity.Chain, error) {
	ps, cfg, err := s.Providers(ctx, tenantID)
	if err != nil {
		return identity.Chain{}, err
	}
	return ps.Chain(cfg, v, tier)
}

// checkOpen refuses verifications on a terminal application (409): APPROVED, REJECTED and
// EXPIRED are decisions a verification must not reopen (the Tier 2 upgrade reopens explicitly).
func checkOpen(a Application, to string) error { return lifecycle.CheckOpen(a.Base, to) }

func numberOf(a Application, v identity.VerificationType) string {
	if v == identity.VerifyBVN {
		return a.BVN
	}
	return a.NIN
}

func setNumber(a *Application, v identity.VerificationType, n string, verified bool) {
	if v == identity.VerifyBVN {
		a.BVN, a.BVNVerified = n, verified
		return
	}
	a.NIN, a.NINVerified = n, verified
}
