package kyc

import (
	"context"
	"encoding/base64"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// Reference photo kinds of a biometric verify.
const (
	ReferenceDocument      = "DOCUMENT"
	ReferenceRegistryPhoto = "BVN_REGISTRY_PHOTO"
	ReferenceNone          = "NONE"
)

// BiometricInput is the body of liveness-check and biometric-verify (base64 images).
type BiometricInput struct {
	Selfie   string
	Document string // optional
}

// BiometricOutcome is the answer of liveness-check and biometric-verify.
type BiometricOutcome struct {
	Decision       string
	ReasonCode     string
	IsLive         bool
	Confidence     float64
	FaceMatch      *identity.FaceMatchResult
	Provider       string
	ProviderSource string
	Reference      string
	NewStatus      string
	Tier           string
	Charged        decimal.Decimal
}

// LivenessCheck is liveness-check: the biometric rule of BiometricVerify with the document
// image as the only possible reference. isLive moves the status to LIVENESS_PASSED unless the
// document face match failed.
func (s *Service) LivenessCheck(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, in BiometricInput) (BiometricOutcome, error) {
	return s.biometric(ctx, tenantID, actor, id, in, false)
}

// BiometricVerify is biometric-verify (spec 4.4, docs/guide/kyc.md): faces are counted locally first
// (NO_FACE, MULTIPLE_FACES: free, no provider asked), then the liveness chain, and only for a
// live selfie the face match against the document image or, without one, the registry photo of
// the application's verified BVN. One liveness check is billed whatever runs after it; a
// failed anti-spoof never reaches the face match. PASSED moves the status to LIVENESS_PASSED.
func (s *Service) BiometricVerify(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, in BiometricInput) (BiometricOutcome, error) {
	return s.biometric(ctx, tenantID, actor, id, in, true)
}

func (s *Service) biometric(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, in BiometricInput, registry bool) (BiometricOutcome, error) {
	selfie, release, err := s.Images.Decode(ctx, "selfieImageBase64", in.Selfie)
	if err != nil {
		return BiometricOutcome{}, err
	}
	defer release()
	var doc *identity.Image
	if in.Document != "" {
		d, releaseDoc, err := s.Images.Decode(ctx, "documentImageBase64", in.Document)
		if err != nil {
			return BiometricOutcome{}, err
		}
		defer releaseDoc()
		doc = &d
	}
	a, err := s.Store.Get(ctx, tenantID, id)
	if err != nil {
		return BiometricOutcome{}, err
	}
	if err := checkOpen(a, StatusLivenessPassed); err != nil {
		return BiometricOutcome{}, err
	}
	ref := ReferenceNone
	switch {
	case doc != nil:
		ref = ReferenceDocument
	case registry && a.BVNVerified:
		ref = ReferenceRegistryPhoto
	}
	ev := identity.BiometricEvidence{SelfieFaces: len(s.Biometrics.Faces(selfie)), ReferenceGiven: ref != ReferenceNone}
	if d := identity.DecideBiometric(ev); d.Next == identity.StepDone {
		// NO_FACE or MULTIPLE_FACES in the selfie: answered locally, free, kept on the trail.
		out := BiometricOutcome{Decision: d.Decision, ReasonCode: d.ReasonCode, Provider: "complyd-face-detector",
			ProviderSource: SourceLocal, Reference: ref, Charged: decimal.Zero}
		r := Result{ID: newID(ResultIDPrefix), ApplicationID: id, IdentityType: identity.VerifyLiveness, Provider: out.Provider,
			ProviderSource: SourceLocal, ErrorMessage: d.ReasonCode, Charged: decimal.Zero, VerifiedAt: s.Now(),
			Raw: []byte(fmt.Sprintf(`{"selfieFaces":%d}`, ev.SelfieFaces))}
		app, err := s.record(ctx, tenantID, actor, id, &r, nil, "", func(*Application) {})
		if err != nil {
			return BiometricOutcome{}, err
		}
		out.NewStatus, out.Tier = app.Status, app.Tier
		return out, nil
	}
	live, err := s.chain(ctx, tenantID, identity.VerifyLiveness, a.Tier)
	if err != nil {
		return BiometricOutcome{}, err
	}
	var match identity.Chain
	if ref != ReferenceNone {
		if match, err = s.chain(ctx, tenantID, identity.VerifyFaceMatch, a.Tier); err != nil {
			return BiometricOutcome{}, err
		}
	}
	var out BiometricOutcome
	purpose := fmt.Sprintf("KYC LIVENESS check %s", id)
	_, err = wallet.Paid(ctx, s.Wallet, tenantID, purpose, func(ctx context.Context) (identity.BiometricEvidence, wallet.Charge, error) {
		return s.runBiometric(ctx, tenantID, a, selfie, doc, ref, ev, live, match)
	}, func(ctx context.Context, h wallet.Hold, ev identity.BiometricEvidence) error {
		d := identity.DecideBiometric(ev)
		now := s.Now()
		lr := ev.Liveness
		out = BiometricOutcome{Decision: d.Decision, ReasonCode: d.ReasonCode, IsLive: lr.IsLive, Confidence: lr.Confidence,
			FaceMatch: ev.FaceMatch, Provider: lr.Provider, ProviderSource: string(lr.ProviderSource), Reference: ref, Charged: h.Amount}
		if !ev.ReferenceGiven {
			out.Reference = ReferenceNone
		}
		r := Result{ID: newID(ResultIDPrefix), ApplicationID: id, IdentityType: identity.VerifyLiveness, Provider: lr.Provider,
			ProviderSource: string(lr.ProviderSource), IsMatch: lr.IsLive, Confidence: lr.Confidence, Raw: lr.Raw,
			ErrorMessage: lr.ReasonCode, Charged: h.Amount, VerifiedAt: now}
		var fm *Result
		if m := ev.FaceMatch; m != nil {
			fm = &Result{ID: newID(ResultIDPrefix), ApplicationID: id, IdentityType: identity.VerifyFaceMatch, Provider: m.Provider,
				ProviderSource: string(m.ProviderSource), IsMatch: m.Match, Confidence: m.Confidence, Raw: m.Raw,
				Charged: decimal.Zero, VerifiedAt: now}
			if !m.Match {
				fm.ErrorMessage = identity.ReasonNoMatch
			}
		} else if d.Decision == identity.DecisionFailedMatch {
			fm = &Result{ID: newID(ResultIDPrefix), ApplicationID: id, IdentityType: identity.VerifyFaceMatch, Provider: "complyd-face-detector",
				ProviderSource: SourceLocal, ErrorMessage: d.ReasonCode, Charged: decimal.Zero, VerifiedAt: now}
		}
		passed := lr.IsLive && d.Decision == identity.DecisionPassed
		app, err := s.record(ctx, tenantID, actor, id, &r, &h, purpose, func(a *Application) {
			if passed {
				a.LivenessPassed = true
				a.advance(StatusLivenessPassed)
			}
		}, fm)
		if err != nil {
			return err
		}
		out.NewStatus, out.Tier = app.Status, app.Tier
		return nil
	})
	return out, err
}

// runBiometric is the provider part (no transaction open): liveness, then, only for a live
// selfie, the reference photo (the document, or the registry photo fetched through the BVN
// chain and never stored) and the face match.
func (s *Service) runBiometric(ctx context.Context, tenantID tenancy.TenantID, a Application, selfie identity.Image, doc *identity.Image,
	ref string, ev identity.BiometricEvidence, live, match identity.Chain) (identity.BiometricEvidence, wallet.Charge, error) {
	lr, err := live.Liveness(ctx, identity.LivenessCheck{Selfie: selfie})
	if err != nil {
		return ev, wallet.Charged, err
	}
	ev.Liveness = &lr
	charge := lr.Charge
	if !lr.IsLive || ref == ReferenceNone {
		return ev, charge, nil
	}
	var refImg identity.Image
	if doc != nil {
		refImg = *doc
	} else {
		img, ok, photoCharge, err := s.registryPhoto(ctx, tenantID, a)
		if err != nil {
			return ev, charge, err
		}
		charge = charge.Or(photoCharge)
		if !ok {
			ev.ReferenceGiven = false // no registry photo: LIVENESS_ONLY
			return ev, charge, nil
		}
		refImg = img
	}
	ev.ReferenceFaces = len(s.Biometrics.Faces(refImg))
	if identity.DecideBiometric(ev).Next != identity.StepFaceMatch {
		return ev, charge, nil
	}
	m, err := match.FaceMatch(ctx, identity.FaceMatchCheck{Selfie: selfie, Reference: refImg})
	if err != nil {
		return ev, charge, err
	}
	ev.FaceMatch = &m
	return ev, charge.Or(m.Charge), nil
}

// registryPhoto fetches the photo of the application's verified BVN through the BVN chain. It is
// part of the paid call that needs it (never billed on its own) and never stored.
func (s *Service) registryPhoto(ctx context.Context, tenantID tenancy.TenantID, a Application) (identity.Image, bool, wallet.Charge, error) {
	chain, err := s.chain(ctx, tenantID, identity.VerifyBVN, a.Tier)
	if err != nil {
		return identity.Image{}, false, wallet.Charged, err
	}
	var dob string
	if a.DateOfBirth != nil {
		dob = a.DateOfBirth.Format("2006-01-02")
	} else {
		dob = "1900-01-01" // the photo is wanted, not the match; the check needs some date
	}
	res, err := chain.CheckBVN(ctx, identity.PersonCheck{Number: a.BVN, FirstName: a.FirstName, LastName: a.LastName, DateOfBirth: dob})
	if err != nil {
		return identity.Image{}, false, res.Charge, err
	}
	if !res.Found || res.Record == nil || res.Record.PhotoBase64 == "" {
		return identity.Image{}, false, res.Charge, nil
	}
	if _, err := base64.StdEncoding.DecodeString(res.Record.PhotoBase64); err != nil {
		return identity.Image{}, false, res.Charge, nil
	}
	img, err := identity.DecodeImage("registryPhoto", res.Record.PhotoBase64)
	if err != nil {
		return identity.Image{}, false, res.Charge, nil
	}
	return img, true, res.Charge, nil
}

// FaceMatchOutcome is the answer of face-match.
type FaceMatchOutcome struct {
	IsMatch        bool
	Confidence     float64
	Provider       string
	ProviderSource string
	ReasonCode     string
	ResultID       string
	Charged        decimal.Decimal
	NewStatus      string
}

// FaceMatch matches a selfie against the registry photo of the application's verified BVN (spec
// 4.4): billed per call, kept as a FACE_MATCH result, the photo never stored, the status never
// changed. Faces are counted locally first (free). Errors: VALIDATION_ERROR, NOT_FOUND,
// INVALID_STATUS_TRANSITION (terminal), CONFLICT (no verified BVN, or no registry photo: not
// charged), INSUFFICIENT_FUNDS, PROVIDER_TIER_UNSUPPORTED, PROVIDER_UNAVAILABLE.
func (s *Service) FaceMatch(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, selfieB64 string) (FaceMatchOutcome, error) {
	selfie, release, err := s.Images.Decode(ctx, "selfieImageBase64", selfieB64)
	if err != nil {
		return FaceMatchOutcome{}, err
	}
	defer release()
	a, err := s.Store.Get(ctx, tenantID, id)
	if err != nil {
		return FaceMatchOutcome{}, err
	}
	if err := checkOpen(a, a.Status); err != nil {
		return FaceMatchOutcome{}, err
	}
	if !a.BVNVerified {
		return FaceMatchOutcome{}, apperr.New(apperr.Conflict, "face match needs a verified BVN on the application; run verify-bvn first")
	}
	local := func(reason string) (FaceMatchOutcome, error) {
		r := Result{ID: newID(ResultIDPrefix), ApplicationID: id, IdentityType: identity.VerifyFaceMatch, Provider: "complyd-face-detector",
			ProviderSource: SourceLocal, ErrorMessage: reason, Charged: decimal.Zero, VerifiedAt: s.Now()}
		app, err := s.record(ctx, tenantID, actor, id, &r, nil, "", func(*Application) {})
		if err != nil {
			return FaceMatchOutcome{}, err
		}
		return FaceMatchOutcome{ReasonCode: reason, Provider: r.Provider, ProviderSource: SourceLocal, ResultID: r.ID,
			Charged: decimal.Zero, NewStatus: app.Status}, nil
	}
	switch n := len(s.Biometrics.Faces(selfie)); {
	case n == 0:
		return local(identity.ReasonNoFace)
	case n > 1:
		return local(identity.ReasonMultipleFaces)
	}
	chain, err := s.chain(ctx, tenantID, identity.VerifyFaceMatch, a.Tier)
	if err != nil {
		return FaceMatchOutcome{}, err
	}
	type answer struct {
		m      *identity.FaceMatchResult
		reason string
	}
	// The registry photo and the face match are one paid call; it is free when either answer
	// came free (wallet.Charge.Or).
	var out FaceMatchOutcome
	purpose := fmt.Sprintf("KYC FACE_MATCH %s", id)
	_, err = wallet.Paid(ctx, s.Wallet, tenantID, purpose, func(ctx context.Context) (answer, wallet.Charge, error) {
		photo, ok, charge, err := s.registryPhoto(ctx, tenantID, a)
		if err != nil {
			return answer{}, charge, err
		}
		if !ok {
			return answer{}, charge, apperr.New(apperr.Conflict, "the BVN registry holds no photo for this BVN; nothing was charged")
		}
		switch n := len(s.Biometrics.Faces(photo)); {
		case n == 0:
			return answer{reason: identity.ReasonNoFace}, charge, nil
		case n > 1:
			return answer{reason: identity.ReasonMultipleFaces}, charge, nil
		}
		m, err := chain.FaceMatch(ctx, identity.FaceMatchCheck{Selfie: selfie, Reference: photo})
		if err != nil {
			return answer{}, charge, err
		}
		reason := ""
		if !m.Match {
			reason = identity.ReasonNoMatch
		}
		return answer{m: &m, reason: reason}, charge.Or(m.Charge), nil
	}, func(ctx context.Context, h wallet.Hold, ans answer) error {
		r := Result{ID: newID(ResultIDPrefix), ApplicationID: id, IdentityType: identity.VerifyFaceMatch, ErrorMessage: ans.reason,
			Charged: h.Amount, VerifiedAt: s.Now(), Provider: "complyd-face-detector", ProviderSource: SourceLocal}
		if m := ans.m; m != nil {
			r.Provider, r.ProviderSource, r.IsMatch, r.Confidence, r.Raw = m.Provider, string(m.ProviderSource), m.Match, m.Confidence, m.Raw
		}
		app, err := s.record(ctx, tenantID, actor, id, &r, &h, purpose, func(*Application) {})
		if err != nil {
			return err
		}
		out = FaceMatchOutcome{IsMatch: r.IsMatch, Confidence: r.Confidence, Provider: r.Provider, ProviderSource: r.ProviderSource,
			ReasonCode: ans.reason, ResultID: r.ID, Charged: h.Amount, NewStatus: app.Status}
		return nil
	})
	return out, err
}

// record stores the results (and settles h) on the application, applying mutate, in one
// transaction. A terminal application refuses it (409).
func (s *Service) record(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, r *Result, h *wallet.Hold,
	desc string, mutate func(*Application), extra ...*Result) (Application, error) {
	now := s.Now()
	results := []Result{*r}
	for _, x := range extra {
		if x != nil {
			results = append(results, *x)
		}
	}
	return s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		if err := checkOpen(*a, a.Status); err != nil {
			return Change{}, err
		}
		before := snapshot(*a)
		mutate(a)
		a.upgradeTier()
		a.UpdatedAt = now
		return Change{Results: results, Change: application.Change{Hold: h, ChargeDescription: desc, Audit: audit.Event{TenantID: tenantID, Actor: actor,
			Action: "kyc.verified_" + lower(string(r.IdentityType)), ResourceType: "kyc_application", ResourceID: a.ID, Before: before,
			After: map[string]any{"status": a.Status, "tier": a.Tier, "isMatch": r.IsMatch, "reason": r.ErrorMessage, "resultId": r.ID}},
			OpenCase: ReviewCase(*a, results, nil)}}, nil
	})
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}
