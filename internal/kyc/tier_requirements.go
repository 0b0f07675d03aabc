package kyc

import (
	"context"

	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/tenancy"
)

// Requirement is one fact a KYC tier needs (docs/reference/specification.md 3.2 rules 1–3).
type Requirement string

// Requirements, in the words of spec 3.2.
const (
	// ReqVerifiedBVNOrNIN: a BVN or a NIN verified by the provider chain (a match).
	ReqVerifiedBVNOrNIN Requirement = "VERIFIED_BVN_OR_NIN"
	// ReqVerifiedBVN: a verified BVN; a verified NIN alone does not meet it.
	ReqVerifiedBVN Requirement = "VERIFIED_BVN"
	// ReqIDDocument: a valid means of identification (passport, driver's licence, voter's card,
	// national ID) uploaded and not rejected by review (docs/guide/documents.md).
	ReqIDDocument Requirement = "ID_DOCUMENT"
	// ReqProofOfAddress: a proof-of-address document uploaded and not rejected by review.
	ReqProofOfAddress Requirement = "PROOF_OF_ADDRESS"
	// ReqLiveness: a passed liveness check.
	ReqLiveness Requirement = "LIVENESS_CHECK"
)

// Description is the requirement in words, for the API and the dashboard.
func (r Requirement) Description() string {
	switch r {
	case ReqVerifiedBVNOrNIN:
		return "a verified BVN or NIN"
	case ReqVerifiedBVN:
		return "a verified BVN (a verified NIN alone is not enough)"
	case ReqIDDocument:
		return "a valid means of identification: passport, driver's licence, voter's card or national ID"
	case ReqProofOfAddress:
		return "a proof of address"
	case ReqLiveness:
		return "a passed liveness check"
	}
	return string(r)
}

// TierRequirement is what one tier needs.
type TierRequirement struct {
	Tier         string
	Requirements []Requirement
}

// TierRequirements returns the table of spec 3.2 rules 1–3, lowest tier first. It is the same
// table QualifiedTier applies (TestTierRequirementsMatchQualifiedTier holds them together).
func TierRequirements() []TierRequirement {
	return []TierRequirement{
		{Tier: identity.Tier1, Requirements: []Requirement{ReqVerifiedBVNOrNIN}},
		{Tier: identity.Tier2, Requirements: []Requirement{ReqVerifiedBVN, ReqIDDocument}},
		{Tier: identity.Tier3, Requirements: []Requirement{ReqVerifiedBVNOrNIN, ReqIDDocument, ReqProofOfAddress, ReqLiveness}},
	}
}

// Meets reports whether the application's facts meet r.
func (a Application) Meets(r Requirement) bool {
	switch r {
	case ReqVerifiedBVNOrNIN:
		return a.BVNVerified || a.NINVerified
	case ReqVerifiedBVN:
		return a.BVNVerified
	case ReqIDDocument:
		return a.HasIDDocument
	case ReqProofOfAddress:
		return a.HasProofOfAddress
	case ReqLiveness:
		return a.LivenessPassed
	}
	return false
}

// TierStatus is one tier's requirements as an application stands: met and missing.
type TierStatus struct {
	Tier    string
	Met     []Requirement
	Missing []Requirement
}

// TierGap says where an application stands against the tier table: its recorded tier, the
// highest tier its verified facts qualify for, the next tier above the recorded one ("" at
// TIER_3) with what it still lacks for it, and every tier's met and missing requirements.
type TierGap struct {
	ApplicationID string
	Tier          string
	QualifiedTier string
	NextTier      string
	// MissingForNext is what the application lacks for NextTier (empty when it already
	// qualifies, for example after a document review the tier upgrade has not yet recorded).
	MissingForNext []Requirement
	Tiers          []TierStatus
}

// Gap computes the application's TierGap.
func (a Application) Gap() TierGap {
	g := TierGap{ApplicationID: a.ID, Tier: a.Tier, QualifiedTier: a.QualifiedTier()}
	for _, tr := range TierRequirements() {
		st := TierStatus{Tier: tr.Tier, Met: []Requirement{}, Missing: []Requirement{}}
		for _, r := range tr.Requirements {
			if a.Meets(r) {
				st.Met = append(st.Met, r)
			} else {
				st.Missing = append(st.Missing, r)
			}
		}
		g.Tiers = append(g.Tiers, st)
		if g.NextTier == "" && identity.TierRank(tr.Tier) > identity.TierRank(a.Tier) {
			g.NextTier = tr.Tier
			g.MissingForNext = st.Missing
		}
	}
	if g.MissingForNext == nil {
		g.MissingForNext = []Requirement{}
	}
	return g
}

// TierGap returns the application's standing against the tier table (GET
// /kyc/applications/:id/tier-requirements). Errors: NOT_FOUND.
func (s *Service) TierGap(ctx context.Context, tenantID tenancy.TenantID, id string) (TierGap, error) {
	a, err := s.Store.Get(ctx, tenantID, id)
	if err != nil {
		return TierGap{}, err
	}
	return a.Gap(), nil
}
