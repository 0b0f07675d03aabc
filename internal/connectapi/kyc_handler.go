package connectapi

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/document"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/kyc"
)

// KYCHandler serves complyd.v1.KycService.
type KYCHandler struct {
	svc *kyc.Service
	log *slog.Logger
}

// NewKYCHandler returns the handler.
func NewKYCHandler(svc *kyc.Service, log *slog.Logger) *KYCHandler {
	return &KYCHandler{svc: svc, log: log}
}

func dateTS(t *time.Time) *timestamppb.Timestamp {
	if t == nil {
		return nil
	}
	return ts(*t)
}

// KYCApplicationProto maps an application (without results and documents).
func KYCApplicationProto(a kyc.Application) *complydv1.KycApplication {
	return &complydv1.KycApplication{Id: a.ID, TenantId: a.TenantID, EntityType: a.EntityType, FirstName: a.FirstName,
		LastName: a.LastName, Bvn: nullString(a.BVN), Nin: nullString(a.NIN), Phone: nullString(a.Phone), Email: nullString(a.Email),
		Address: nullString(a.Address), DateOfBirth: dateTS(a.DateOfBirth), Tier: a.Tier, Status: a.Status,
		RiskLevel: nullString(a.RiskLevel), AssignedTo: nullString(a.AssignedTo), Notes: nullString(a.Notes),
		CreatedAt: ts(a.CreatedAt), UpdatedAt: ts(a.UpdatedAt), BvnVerified: a.BVNVerified, NinVerified: a.NINVerified,
		LivenessPassed: a.LivenessPassed, VerificationResults: []*complydv1.KycVerificationResult{}, Documents: []*complydv1.KycDocument{},
		CustomerId: nullString(a.CustomerID)}
}

// DocumentProto maps a KYC or KYB document with its presigned link (docs/reference/specification.md 2.5).
func DocumentProto(d document.View) *complydv1.KycDocument {
	return &complydv1.KycDocument{Id: d.ID, ApplicationId: d.ApplicationID, DocumentType: string(d.DocumentType), FileName: d.FileName,
		FileUrl: d.URL, FileSizeBytes: int32(d.SizeBytes), MimeType: d.MimeType, UploadedAt: ts(d.UploadedAt),
		VerificationStatus: d.VerificationStatus, UploadedBy: nullString(d.UploadedBy), FirstReviewedBy: nullString(d.FirstReviewedBy),
		FirstReviewedAt: dateTS(d.FirstReviewedAt), ReviewedBy: nullString(d.ReviewedBy), ReviewedAt: dateTS(d.ReviewedAt),
		RejectionReason: nullString(d.RejectionReason)}
}

func resultProto(r kyc.Result) *complydv1.KycVerificationResult {
	out := &complydv1.KycVerificationResult{Id: r.ID, ApplicationId: r.ApplicationID, IdentityType: string(r.IdentityType),
		Provider: r.Provider, ProviderSource: r.ProviderSource, IsMatch: r.IsMatch, Confidence: r.Confidence,
		ErrorMessage: nullString(r.ErrorMessage), VerifiedAt: ts(r.VerifiedAt), Charged: r.Charged.StringFixed(2)}
	if len(r.Raw) > 0 {
		var m map[string]any
		if json.Unmarshal(r.Raw, &m) == nil {
			out.RawResponse, _ = structpb.NewStruct(m)
		}
	}
	return out
}

// kycDetail maps an application with its verification results.
func kycDetail(d kyc.Detail) detailOf[complydv1.KycApplication] {
	out := KYCApplicationProto(d.Application)
	for _, r := range d.Results {
		out.VerificationResults = append(out.VerificationResults, resultProto(r))
	}
	return detailOf[complydv1.KycApplication]{msg: out, evidence: d.Evidence, documents: d.Documents,
		setShared: func(ev evidenceFields, docs []*complydv1.KycDocument) {
			out.OpenChecks, out.OpenCases, out.Overrides, out.EvidenceRequired = ev.OpenChecks, ev.OpenCases, ev.Overrides, ev.Required
			out.Documents = docs
		}}
}

// CreateApplication implements KycService.CreateApplication.
func (h *KYCHandler) CreateApplication(ctx context.Context, req *connect.Request[complydv1.CreateApplicationRequest]) (*connect.Response[complydv1.KycApplication], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.KycApplication, error) {
		m := req.Msg
		a, err := h.svc.Create(ctx, c.tenantID, c.actor, kyc.NewApplication{EntityType: m.EntityType,
			FirstName: m.FirstName, LastName: m.LastName, BVN: m.GetBvn(), NIN: m.GetNin(), Phone: m.GetPhone(), Email: m.GetEmail(),
			Address: m.GetAddress(), DateOfBirth: m.GetDateOfBirth(), Tier: m.GetTier()})
		return KYCApplicationProto(a), err
	})
}

// ListApplications implements KycService.ListApplications.
func (h *KYCHandler) ListApplications(ctx context.Context, req *connect.Request[complydv1.ListApplicationsRequest]) (*connect.Response[complydv1.ListApplicationsResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.ListApplicationsResponse, error) {
		pg, err := listApplications(ctx, c, h.svc, req.Msg.Page, req.Msg.Limit, req.Msg, KYCApplicationProto)
		return &complydv1.ListApplicationsResponse{Items: pg.Items, Total: int32(pg.Total), Page: int32(pg.Page), Limit: int32(pg.Limit),
			TotalPages: int32(pg.TotalPages())}, err
	})
}

// GetApplication implements KycService.GetApplication.
func (h *KYCHandler) GetApplication(ctx context.Context, req *connect.Request[complydv1.GetApplicationRequest]) (*connect.Response[complydv1.KycApplication], error) {
	return getDetail(ctx, h.svc, req.Peer().Addr, req.Msg.Id, h.svc.Get, kycDetail)
}

// UpdateApplication implements KycService.UpdateApplication.
func (h *KYCHandler) UpdateApplication(ctx context.Context, req *connect.Request[complydv1.UpdateApplicationRequest]) (*connect.Response[complydv1.KycApplication], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.KycApplication, error) {
		m := req.Msg
		a, err := h.svc.Update(ctx, c.tenantID, c.actor, m.Id, kyc.Patch{NIN: m.Nin, BVN: m.Bvn, Email: m.Email,
			Phone: m.Phone, DateOfBirth: m.DateOfBirth})
		return KYCApplicationProto(a), err
	})
}

func decisionProto(a kyc.Application, ov *complydv1.EvidenceOverride) *complydv1.KycDecision {
	return &complydv1.KycDecision{Id: a.ID, Status: a.Status, RiskLevel: nullString(a.RiskLevel), Notes: nullString(a.Notes),
		UpdatedAt: ts(a.UpdatedAt), Tier: a.Tier, Override: ov}
}

// ApproveApplication implements KycService.ApproveApplication.
func (h *KYCHandler) ApproveApplication(ctx context.Context, req *connect.Request[complydv1.ApproveApplicationRequest]) (*connect.Response[complydv1.KycDecision], error) {
	return decide(ctx, h.svc, req.Peer().Addr, req.Msg.Id, application.Decision{RiskLevel: req.Msg.GetRiskLevel(),
		Notes: req.Msg.GetNotes()}, true, decisionProto)
}

// RejectApplication implements KycService.RejectApplication.
func (h *KYCHandler) RejectApplication(ctx context.Context, req *connect.Request[complydv1.RejectApplicationRequest]) (*connect.Response[complydv1.KycDecision], error) {
	return decide(ctx, h.svc, req.Peer().Addr, req.Msg.Id, application.Decision{RiskLevel: req.Msg.GetRiskLevel(),
		Notes: req.Msg.Reason}, false, decisionProto)
}

// UpgradeTier implements KycService.UpgradeTier.
func (h *KYCHandler) UpgradeTier(ctx context.Context, req *connect.Request[complydv1.UpgradeTierRequest]) (*connect.Response[complydv1.KycApplication], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.KycApplication, error) {
		a, err := h.svc.UpgradeTier(ctx, c.tenantID, c.actor, req.Msg.Id, req.Msg.Bvn)
		return KYCApplicationProto(a), err
	})
}

func verifyProto(o kyc.VerifyOutcome) *complydv1.VerifyIdentityResponse {
	return &complydv1.VerifyIdentityResponse{IsMatch: o.IsMatch, Confidence: o.Confidence, Provider: o.Provider,
		ProviderSource: o.ProviderSource, NewStatus: o.NewStatus, Found: o.Found, Tier: o.Tier, ResultId: o.ResultID,
		Charged: o.Charged.StringFixed(2), Balance: o.Balance.StringFixed(2)}
}

// VerifyBvn implements KycService.VerifyBvn.
func (h *KYCHandler) VerifyBvn(ctx context.Context, req *connect.Request[complydv1.VerifyBvnRequest]) (*connect.Response[complydv1.VerifyIdentityResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.VerifyIdentityResponse, error) {
		m := req.Msg
		o, err := h.svc.VerifyBVN(ctx, c.tenantID, c.actor, m.Id,
			identity.PersonCheck{Number: m.Bvn, FirstName: m.FirstName, LastName: m.LastName, DateOfBirth: m.DateOfBirth})
		return verifyProto(o), err
	})
}

// VerifyNin implements KycService.VerifyNin.
func (h *KYCHandler) VerifyNin(ctx context.Context, req *connect.Request[complydv1.VerifyNinRequest]) (*connect.Response[complydv1.VerifyIdentityResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.VerifyIdentityResponse, error) {
		m := req.Msg
		o, err := h.svc.VerifyNIN(ctx, c.tenantID, c.actor, m.Id,
			identity.PersonCheck{Number: m.Nin, FirstName: m.FirstName, LastName: m.LastName, DateOfBirth: m.DateOfBirth})
		return verifyProto(o), err
	})
}

func faceMatchFields(m *identity.FaceMatchResult) (*wrapperspb.BoolValue, *wrapperspb.DoubleValue) {
	if m == nil {
		return nil, nil
	}
	return wrapperspb.Bool(m.Match), wrapperspb.Double(m.Confidence)
}

// LivenessCheck implements KycService.LivenessCheck.
func (h *KYCHandler) LivenessCheck(ctx context.Context, req *connect.Request[complydv1.LivenessCheckRequest]) (*connect.Response[complydv1.LivenessCheckResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.LivenessCheckResponse, error) {
		o, err := h.svc.LivenessCheck(ctx, c.tenantID, c.actor, req.Msg.Id,
			kyc.BiometricInput{Selfie: req.Msg.SelfieImageBase64, Document: req.Msg.GetDocumentImageBase64()})
		if err != nil {
			return nil, err
		}
		fm, fmc := faceMatchFields(o.FaceMatch)
		reason := o.ReasonCode
		if o.IsLive && reason == identity.ReasonLivenessOnly {
			reason = ""
		}
		return &complydv1.LivenessCheckResponse{IsLive: o.IsLive, Confidence: o.Confidence, FaceMatch: fm,
			FaceMatchConfidence: fmc, Provider: o.Provider, ProviderSource: o.ProviderSource, NewStatus: o.NewStatus,
			ReasonCode: nullString(reason), Charged: o.Charged.StringFixed(2), Tier: o.Tier}, nil
	})
}

// BiometricVerify implements KycService.BiometricVerify.
func (h *KYCHandler) BiometricVerify(ctx context.Context, req *connect.Request[complydv1.BiometricVerifyRequest]) (*connect.Response[complydv1.BiometricVerifyResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.BiometricVerifyResponse, error) {
		o, err := h.svc.BiometricVerify(ctx, c.tenantID, c.actor, req.Msg.Id,
			kyc.BiometricInput{Selfie: req.Msg.SelfieImageBase64, Document: req.Msg.GetDocumentImageBase64()})
		if err != nil {
			return nil, err
		}
		fm, fmc := faceMatchFields(o.FaceMatch)
		return &complydv1.BiometricVerifyResponse{Decision: o.Decision, ReasonCode: nullString(o.ReasonCode),
			IsLive: o.IsLive, LivenessConfidence: o.Confidence, FaceMatch: fm, FaceMatchConfidence: fmc, Provider: o.Provider,
			ProviderSource: o.ProviderSource, NewStatus: o.NewStatus, Reference: o.Reference, Charged: o.Charged.StringFixed(2), Tier: o.Tier}, nil
	})
}

// FaceMatch implements KycService.FaceMatch.
func (h *KYCHandler) FaceMatch(ctx context.Context, req *connect.Request[complydv1.FaceMatchRequest]) (*connect.Response[complydv1.FaceMatchResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.FaceMatchResponse, error) {
		o, err := h.svc.FaceMatch(ctx, c.tenantID, c.actor, req.Msg.Id, req.Msg.SelfieImageBase64)
		if err != nil {
			return nil, err
		}
		return &complydv1.FaceMatchResponse{IsMatch: o.IsMatch, Confidence: o.Confidence, Provider: o.Provider,
			ProviderSource: o.ProviderSource, ReasonCode: nullString(o.ReasonCode), ResultId: o.ResultID,
			Charged: o.Charged.StringFixed(2), NewStatus: o.NewStatus}, nil
	})
}

// ListDocuments implements KycService.ListDocuments.
func (h *KYCHandler) ListDocuments(ctx context.Context, req *connect.Request[complydv1.ListDocumentsRequest]) (*connect.Response[complydv1.ListDocumentsResponse], error) {
	return listDocuments(ctx, h.svc, req.Msg.Id)
}

// GetDocumentDownload implements KycService.GetDocumentDownload.
func (h *KYCHandler) GetDocumentDownload(ctx context.Context, req *connect.Request[complydv1.GetDocumentDownloadRequest]) (*connect.Response[complydv1.DocumentDownload], error) {
	return documentDownload(ctx, h.svc, req.Msg.Id, req.Msg.DocId)
}

// DeleteDocument implements KycService.DeleteDocument.
func (h *KYCHandler) DeleteDocument(ctx context.Context, req *connect.Request[complydv1.DeleteDocumentRequest]) (*connect.Response[complydv1.DeleteDocumentResponse], error) {
	return deleteDocument(ctx, h.svc, req.Peer().Addr, req.Msg.Id, req.Msg.DocId)
}

// ReviewDocument implements KycService.ReviewDocument.
func (h *KYCHandler) ReviewDocument(ctx context.Context, req *connect.Request[complydv1.ReviewDocumentRequest]) (*connect.Response[complydv1.ReviewDocumentResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.ReviewDocumentResponse, error) {
		a, v, err := h.svc.ReviewDocument(ctx, c.tenantID, c.actor, req.Msg.Id, req.Msg.DocId,
			kyc.DocumentReview{Decision: req.Msg.Decision, Reason: req.Msg.GetReason()})
		if err != nil {
			return nil, err
		}
		return &complydv1.ReviewDocumentResponse{Document: DocumentProto(v), ApplicationStatus: a.Status, Tier: a.Tier}, nil
	})
}

// UploadDocument implements KycService.UploadDocument (bytes in the message; gRPC and Connect).
func (h *KYCHandler) UploadDocument(ctx context.Context, req *connect.Request[complydv1.UploadDocumentRequest]) (*connect.Response[complydv1.KycDocument], error) {
	return uploadDocument(ctx, h.svc, req.Peer().Addr, req.Msg)
}
