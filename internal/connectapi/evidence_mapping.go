package connectapi

import (
	"github.com/complyd/complyd/internal/evidence"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// The evidence of a KYC or KYB application (internal/evidence), mapped once for both.

func evidenceChecksProto(cs []evidence.Check) []*complydv1.EvidenceCheck {
	out := make([]*complydv1.EvidenceCheck, 0, len(cs))
	for _, c := range cs {
		out = append(out, &complydv1.EvidenceCheck{Kind: c.Kind, Status: c.Status, Detail: c.Detail, Subject: c.Subject})
	}
	return out
}

func evidenceCasesProto(cs []evidence.Case) []*complydv1.EvidenceCase {
	out := make([]*complydv1.EvidenceCase, 0, len(cs))
	for _, c := range cs {
		out = append(out, &complydv1.EvidenceCase{Id: c.ID, CaseNumber: c.Number, Type: c.Type, Status: c.Status, Priority: c.Priority,
			Title: c.Title})
	}
	return out
}

func evidenceOverrideProto(o *evidence.Override) *complydv1.EvidenceOverride {
	if o == nil {
		return nil
	}
	return &complydv1.EvidenceOverride{Id: o.ID, Checks: evidenceChecksProto(o.Checks), OpenCases: evidenceCasesProto(o.OpenCases),
		Notes: o.Notes, ActorId: o.ActorID, ActorName: o.ActorName, CreatedAt: ts(o.CreatedAt)}
}

// evidenceFields are the evidence fields of an application's detail.
type evidenceFields struct {
	OpenChecks []*complydv1.EvidenceCheck
	OpenCases  []*complydv1.EvidenceCase
	Overrides  []*complydv1.EvidenceOverride
	Required   bool
}

func evidenceProto(r evidence.Record) evidenceFields {
	f := evidenceFields{OpenChecks: evidenceChecksProto(r.Checks), OpenCases: evidenceCasesProto(r.OpenCases),
		Overrides: make([]*complydv1.EvidenceOverride, 0, len(r.Overrides)), Required: r.Required}
	for i := range r.Overrides {
		f.Overrides = append(f.Overrides, evidenceOverrideProto(&r.Overrides[i]))
	}
	return f
}
