package app

import (
	"context"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// bvnVerifiedApp creates an application with only a BVN (so rule 4 cannot lift it) and verifies
// it: TIER_1 with a verified BVN, one ID document short of TIER_2 (spec 3.2 rule 2).
func (s *testServer) bvnVerifiedApp(tok string) kycApp {
	s.t.Helper()
	a := s.createKYC(tok, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye",
		"bvn": adebayo["bvn"], "dateOfBirth": adebayo["dateOfBirth"]})
	var v verifyOut
	s.verify(tok, a.ID, "bvn", bvnBody(adebayo)).decode(s.t, &v)
	require.True(s.t, v.IsMatch)
	require.Equal(s.t, "TIER_1", v.Tier)
	return a
}

// uploadVia uploads a document over proto (rest: multipart; connect, grpc: UploadDocument) and
// returns its id.
func (s *testServer) uploadVia(proto, tok, appID, docType string) string {
	s.t.Helper()
	if proto == "rest" {
		var doc struct{ ID string }
		s.upload(tok, appID, docType, "passport.png", pngBytes).decode(s.t, &doc)
		return doc.ID
	}
	hc, opts := s.clientOpts(proto, cred{Bearer: tok})
	res, err := complydv1connect.NewKycServiceClient(hc, s.URL, opts...).UploadDocument(context.Background(),
		connect.NewRequest(&complydv1.UploadDocumentRequest{Id: appID, DocumentType: docType, FileName: "passport.png", Content: pngBytes}))
	require.NoError(s.t, err)
	return res.Msg.Id
}

// TestKYCDocumentLabelAloneRaisesNoTier is issue 19 point 4: a PASSPORT upload is a label, not a
// verified means of identification, so it must not lift a BVN-verified application to TIER_2.
func TestKYCDocumentLabelAloneRaisesNoTier(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.credit(f, "1000", "PAY")
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			a := s.bvnVerifiedApp(admin)
			s.uploadVia(proto, admin, a.ID, "PASSPORT")
			d := s.getKYC(admin, a.ID)
			require.Equal(t, "TIER_1", d.Tier, "an unverified PASSPORT must not count as an ID document")
			require.Equal(t, "BVN_VERIFIED", d.Status)
			require.Len(t, d.Documents, 1)

			// The other order: the label first, then the BVN verification that would complete TIER_2.
			b := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye",
				"bvn": adebayo["bvn"], "dateOfBirth": adebayo["dateOfBirth"]})
			s.uploadVia(proto, admin, b.ID, "PASSPORT")
			var v verifyOut
			s.verify(admin, b.ID, "bvn", bvnBody(adebayo)).decode(t, &v)
			require.True(t, v.IsMatch)
			require.Equal(t, "TIER_1", v.Tier, "an unverified PASSPORT must not count when the BVN is verified later")
		})
	}
}

// reviewOut is what a review answered, over any protocol; Code is the spec error code of a
// failure ("" on success).
type reviewOut struct {
	Code                                                  string
	Status, Tier, AppStatus                               string
	ReviewedBy, FirstReviewedBy, UploadedBy, RejectReason string
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// review calls ReviewDocument over proto (rest: POST /api/v1/kyc/applications/{id}/documents/{docId}/review).
func (s *testServer) review(proto, tok, appID, docID, decision, reason string) reviewOut {
	s.t.Helper()
	if proto == "rest" {
		body := map[string]any{"decision": decision}
		if reason != "" {
			body["reason"] = reason
		}
		env := s.rest("POST", "/api/v1/kyc/applications/"+appID+"/documents/"+docID+"/review", cred{Bearer: tok}, body)
		if !env.Success {
			require.NotNil(s.t, env.Error, "%s", env.Raw)
			return reviewOut{Code: env.Error.Code}
		}
		var out struct {
			Document struct {
				VerificationStatus                                       string
				ReviewedBy, FirstReviewedBy, UploadedBy, RejectionReason *string
			}
			ApplicationStatus, Tier string
		}
		env.decode(s.t, &out)
		d := out.Document
		return reviewOut{Status: d.VerificationStatus, Tier: out.Tier, AppStatus: out.ApplicationStatus, ReviewedBy: str(d.ReviewedBy),
			FirstReviewedBy: str(d.FirstReviewedBy), UploadedBy: str(d.UploadedBy), RejectReason: str(d.RejectionReason)}
	}
	hc, opts := s.clientOpts(proto, cred{Bearer: tok})
	req := &complydv1.ReviewDocumentRequest{Id: appID, DocId: docID, Decision: decision}
	if reason != "" {
		req.Reason = &reason
	}
	res, err := complydv1connect.NewKycServiceClient(hc, s.URL, opts...).ReviewDocument(context.Background(), connect.NewRequest(req))
	if err != nil {
		_, info := errorInfo(s.t, err)
		return reviewOut{Code: info.Code}
	}
	d := res.Msg.Document
	return reviewOut{Status: d.VerificationStatus, Tier: res.Msg.Tier, AppStatus: res.Msg.ApplicationStatus,
		ReviewedBy: d.ReviewedBy.GetValue(), FirstReviewedBy: d.FirstReviewedBy.GetValue(), UploadedBy: d.UploadedBy.GetValue(),
		RejectReason: d.RejectionReason.GetValue()}
}

// docStatus is a document's verification status as the application detail shows it.
func (s *testServer) docStatus(tok, appID, docID string) string {
	s.t.Helper()
	var d struct {
		Tier      string
		Documents []struct{ ID, VerificationStatus string }
	}
	s.rest("GET", "/api/v1/kyc/applications/"+appID, cred{Bearer: tok}, nil).decode(s.t, &d)
	for _, doc := range d.Documents {
		if doc.ID == docID {
			return doc.VerificationStatus
		}
	}
	s.t.Fatalf("document %s not on %s", docID, appID)
	return ""
}

// TestKYCDocumentReview: an officer's verification makes an uploaded PASSPORT count for TIER_2
// (in the same call, and on the application as stored); a rejected one never does; decisions
// are final; analysts and the read-only auditor are refused; another tenant sees NOT_FOUND;
// every review is audited. Over /api/v1, Connect and gRPC.
func TestKYCDocumentReview(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	officer, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	analyst, analystTok := s.userWithRole(f.ID, auth.RoleAnalyst)
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)
	_, other := s.tenant()
	s.credit(f, "1000", "PAY")
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			// (b) verified by an officer: TIER_2.
			a := s.bvnVerifiedApp(admin)
			doc := s.uploadVia(proto, analystTok, a.ID, "PASSPORT")
			require.Equal(t, "PENDING_REVIEW", s.docStatus(auditor, a.ID, doc))
			require.Equal(t, "FORBIDDEN", s.review(proto, auditor, a.ID, doc, "VERIFY", "").Code, "the read-only role is refused")
			require.Equal(t, "FORBIDDEN", s.review(proto, analystTok, a.ID, doc, "VERIFY", "").Code, "analysts do not review")
			require.Equal(t, "NOT_FOUND", s.review(proto, other, a.ID, doc, "VERIFY", "").Code, "another tenant's document")
			require.Equal(t, "NOT_FOUND", s.review(proto, officerTok, a.ID, "doc_nope", "VERIFY", "").Code)
			require.Equal(t, "VALIDATION_ERROR", s.review(proto, officerTok, a.ID, doc, "APPROVE", "").Code)
			require.Equal(t, "VALIDATION_ERROR", s.review(proto, officerTok, a.ID, doc, "REJECT", "").Code, "a rejection needs a reason")
			require.Equal(t, "TIER_1", s.getKYC(admin, a.ID).Tier, "refused reviews changed nothing")

			out := s.review(proto, officerTok, a.ID, doc, "VERIFY", "matches the BVN photo")
			require.Empty(t, out.Code)
			require.Equal(t, "VERIFIED", out.Status)
			require.Equal(t, "TIER_2", out.Tier, "a verified ID with a verified BVN is TIER_2 (spec 3.2 rule 2)")
			require.Equal(t, "BVN_VERIFIED", out.AppStatus)
			require.Equal(t, officer.ID, out.ReviewedBy)
			require.Equal(t, analyst.ID, out.UploadedBy)
			require.Equal(t, "TIER_2", s.getKYC(admin, a.ID).Tier)
			require.Equal(t, "VERIFIED", s.docStatus(auditor, a.ID, doc))
			require.Equal(t, "INVALID_STATUS_TRANSITION", s.review(proto, admin, a.ID, doc, "REJECT", "changed my mind").Code,
				"a decision is final")

			// (c) rejected: never counts, even if someone tries to verify it afterwards.
			b := s.bvnVerifiedApp(admin)
			doc = s.uploadVia(proto, analystTok, b.ID, "PASSPORT")
			out = s.review(proto, officerTok, b.ID, doc, "REJECT", "  photo page unreadable ")
			require.Empty(t, out.Code)
			require.Equal(t, "REJECTED", out.Status)
			require.Equal(t, "photo page unreadable", out.RejectReason)
			require.Equal(t, "TIER_1", out.Tier)
			require.Equal(t, "INVALID_STATUS_TRANSITION", s.review(proto, admin, b.ID, doc, "VERIFY", "").Code)
			require.Equal(t, "TIER_1", s.getKYC(admin, b.ID).Tier, "a rejected document does not count")
			require.Equal(t, "REJECTED", s.docStatus(admin, b.ID, doc))

			// A terminal application's documents are no longer reviewed.
			c := s.bvnVerifiedApp(admin)
			doc = s.uploadVia(proto, analystTok, c.ID, "PASSPORT")
			s.rest("PATCH", "/api/v1/kyc/applications/"+c.ID+"/approve", cred{Bearer: admin}, map[string]any{}).decode(t, &struct{}{})
			require.Equal(t, "INVALID_STATUS_TRANSITION", s.review(proto, officerTok, c.ID, doc, "VERIFY", "").Code)
			require.Equal(t, "TIER_1", s.getKYC(admin, c.ID).Tier)
		})
	}

	// Audited: one event per decision, with the document and the tier before and after.
	var page struct {
		Items []struct {
			Action, ResourceID string
			Before, After      map[string]any
		}
		Total int
	}
	s.rest("GET", "/api/v1/audit-events?action=kyc.document_verified", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, len(protocols), page.Total)
	require.Equal(t, "TIER_1", page.Items[0].Before["tier"])
	require.Equal(t, "TIER_2", page.Items[0].After["tier"])
	require.Equal(t, "VERIFIED", page.Items[0].After["verificationStatus"])
	s.rest("GET", "/api/v1/audit-events?action=kyc.document_rejected", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, len(protocols), page.Total)
	require.Equal(t, "photo page unreadable", page.Items[0].After["reason"])
}

// TestKYCDocumentReviewFourEyes: with the tenant's documentReviewFourEyes on, one officer's
// VERIFY is only a first review (the tier does not move); neither that officer nor the uploader
// may confirm it; a second officer's VERIFY makes it count. Over /api/v1, Connect and gRPC.
func TestKYCDocumentReviewFourEyes(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	off1, off1Tok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	off2, off2Tok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	s.credit(f, "1000", "PAY")

	var kc struct {
		KycTrustMode           string
		DocumentReviewFourEyes bool
	}
	s.rest("GET", "/api/v1/tenants/me/kyc-config", cred{Bearer: admin}, nil).decode(t, &kc)
	require.False(t, kc.DocumentReviewFourEyes, "off by default")
	requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/kyc-config", cred{Bearer: off1Tok},
		map[string]any{"documentReviewFourEyes": true}), 403, "FORBIDDEN")
	s.rest("PATCH", "/api/v1/tenants/me/kyc-config", cred{Bearer: admin}, map[string]any{"documentReviewFourEyes": true}).decode(t, &kc)
	require.True(t, kc.DocumentReviewFourEyes)
	require.Equal(t, "STRICT", kc.KycTrustMode, "a field left out is kept")
	s.rest("GET", "/api/v1/tenants/me/kyc-config", cred{Bearer: admin}, nil).decode(t, &kc)
	require.True(t, kc.DocumentReviewFourEyes)

	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			a := s.bvnVerifiedApp(admin)
			doc := s.uploadVia(proto, off1Tok, a.ID, "PASSPORT")
			out := s.review(proto, off2Tok, a.ID, doc, "VERIFY", "")
			require.Empty(t, out.Code)
			require.Equal(t, "PENDING_SECOND_REVIEW", out.Status)
			require.Equal(t, off2.ID, out.FirstReviewedBy)
			require.Equal(t, "TIER_1", out.Tier, "one officer's verification is not enough")
			require.Equal(t, "FORBIDDEN", s.review(proto, off2Tok, a.ID, doc, "VERIFY", "").Code, "the first reviewer cannot confirm")
			require.Equal(t, "FORBIDDEN", s.review(proto, off1Tok, a.ID, doc, "VERIFY", "").Code, "the uploader cannot confirm")
			require.Equal(t, "TIER_1", s.getKYC(admin, a.ID).Tier)
			out = s.review(proto, admin, a.ID, doc, "VERIFY", "")
			require.Empty(t, out.Code)
			require.Equal(t, "VERIFIED", out.Status)
			require.Equal(t, off2.ID, out.FirstReviewedBy)
			require.Equal(t, off1.ID, out.UploadedBy)
			require.NotEqual(t, off2.ID, out.ReviewedBy)
			require.Equal(t, "TIER_2", out.Tier)
			require.Equal(t, "TIER_2", s.getKYC(admin, a.ID).Tier)

			// Rejecting needs no second person, even during a four-eyes review.
			b := s.bvnVerifiedApp(admin)
			doc = s.uploadVia(proto, off1Tok, b.ID, "PASSPORT")
			require.Equal(t, "PENDING_SECOND_REVIEW", s.review(proto, off1Tok, b.ID, doc, "VERIFY", "").Status, "the uploader may review first")
			out = s.review(proto, off1Tok, b.ID, doc, "REJECT", "second look: the passport has expired")
			require.Equal(t, "REJECTED", out.Status)
			require.Equal(t, "TIER_1", s.getKYC(admin, b.ID).Tier)
		})
	}
}
