package kyc

import (
	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/identity"
)

// Check kinds KYC adds to its tier requirements (tier_requirements.go) on the evidence list.
const (
	// CheckVerifiedNIN: a NIN was given and is not verified (a TIER_2 needs a verified BVN, yet
	// an unverified NIN is still an identity claim nobody confirmed).
	CheckVerifiedNIN = "VERIFIED_NIN"
	// CheckFaceMatch: the last face match did not match.
	CheckFaceMatch = "FACE_MATCH"
)

// OpenChecks lists what the application failed or is missing for its tier (issue 48 point 4,
// docs/guide/kyc.md "Evidence and overrides"): each requirement of its recorded tier it does not meet
// (FAILED when the last verification of it did not match, else MISSING), a given BVN or NIN
// that is not verified, and a liveness check or face match whose last attempt failed even when
// the tier does not need it. results are the application's verifications, oldest first.
func (a Application) OpenChecks(results []Result) []evidence.Check {
	last := map[identity.VerificationType]Result{}
	for _, r := range results {
		last[r.IdentityType] = r
	}
	failed := func(t identity.VerificationType) bool {
		r, ok := last[t]
		return ok && !r.IsMatch
	}
	status := func(ts ...identity.VerificationType) string {
		for _, t := range ts {
			if failed(t) {
				return evidence.Failed
			}
		}
		return evidence.Missing
	}
	var out []evidence.Check
	seen := map[string]bool{}
	add := func(kind, st, detail string) {
		if !seen[kind] {
			seen[kind] = true
			out = append(out, evidence.Check{Kind: kind, Status: st, Detail: detail})
		}
	}
	for _, tr := range TierRequirements() {
		if tr.Tier != a.Tier {
			continue
		}
		for _, r := range tr.Requirements {
			if a.Meets(r) {
				continue
			}
			st := evidence.Missing
			switch r {
			case ReqVerifiedBVNOrNIN:
				st = status(identity.VerifyBVN, identity.VerifyNIN)
			case ReqVerifiedBVN:
				st = status(identity.VerifyBVN)
			case ReqLiveness:
				st = status(identity.VerifyLiveness)
			}
			add(string(r), st, r.Description()+" ("+a.Tier+")")
		}
	}
	if a.BVN != "" && !a.BVNVerified && !seen[string(ReqVerifiedBVN)] {
		add(string(ReqVerifiedBVN), status(identity.VerifyBVN), "the BVN given is not verified")
	}
	if a.NIN != "" && !a.NINVerified {
		add(CheckVerifiedNIN, status(identity.VerifyNIN), "the NIN given is not verified")
	}
	if !a.LivenessPassed && failed(identity.VerifyLiveness) {
		add(string(ReqLiveness), evidence.Failed, "the last liveness check failed")
	}
	if failed(identity.VerifyFaceMatch) {
		add(CheckFaceMatch, evidence.Failed, "the last face match did not match")
	}
	return out
}
