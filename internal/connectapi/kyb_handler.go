package connectapi

import (
	"context"
	"encoding/json"
	"log/slog"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/complyd/complyd/internal/application"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/kyb"
)

// KYBHandler serves complyd.v1.KybService.
type KYBHandler struct {
	svc *kyb.Service
	log *slog.Logger
}

// NewKYBHandler returns the handler.
func NewKYBHandler(svc *kyb.Service, log *slog.Logger) *KYBHandler {
	return &KYBHandler{svc: svc, log: log}
}

func hitsProto(hs []kyb.Hit) []*complydv1.KybHit {
	out := make([]*complydv1.KybHit, 0, len(hs))
	for _, x := range hs {
		out = append(out, &complydv1.KybHit{List: x.List, ListType: x.ListType, EntryId: x.EntryID, SourceId: x.SourceID, Name: x.Name,
			MatchedName: x.MatchedName, Score: x.Score, Band: x.Band})
	}
	return out
}

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// KYBApplicationProto maps an application (without checks and documents).
func KYBApplicationProto(a kyb.Application) *complydv1.KybApplication {
	out := &complydv1.KybApplication{Id: a.ID, TenantId: a.TenantID, CompanyName: a.CompanyName, RcNumber: nullString(a.RCNumber),
		Tin: nullString(a.TIN), Address: nullString(a.Address), IncorporationDate: dateTS(a.IncorporationDate),
		BusinessActivity: nullString(a.BusinessActivity), OperatingCountry: nullString(a.OperatingCountry), Status: a.Status,
		RiskLevel: nullString(a.RiskLevel), AssignedTo: nullString(a.AssignedTo), Notes: nullString(a.Notes), CreatedAt: ts(a.CreatedAt),
		UpdatedAt: ts(a.UpdatedAt), CacVerified: a.CACVerified, DirectorsVerified: a.DirectorsVerified, BeneficialOwnersClean: a.OwnersClean,
		ProfileId: nullString(a.ProfileID), Directors: []*complydv1.KybDirector{}, BeneficialOwners: []*complydv1.KybBeneficialOwner{},
		Checks: []*complydv1.KybCheck{}, Documents: []*complydv1.KycDocument{}, CustomerId: nullString(a.CustomerID)}
	for _, d := range a.Directors {
		v := d.Verified
		out.Directors = append(out.Directors, &complydv1.KybDirector{Name: d.Name, Bvn: optStr(d.BVN), Nin: optStr(d.NIN),
			Email: optStr(d.Email), Phone: optStr(d.Phone), Nationality: optStr(d.Nationality), Verified: &v})
	}
	for _, o := range a.Owners {
		out.BeneficialOwners = append(out.BeneficialOwners, &complydv1.KybBeneficialOwner{Name: o.Name, Percentage: o.Percentage,
			Bvn: optStr(o.BVN), Nin: optStr(o.NIN), Clean: o.Clean, Hits: hitsProto(o.Hits)})
	}
	return out
}

func anyStruct(v any) *structpb.Struct {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || m == nil {
		return nil
	}
	s, _ := structpb.NewStruct(m)
	return s
}

func companyProto(c *identity.Company) *complydv1.KybCompany {
	if c == nil {
		return nil
	}
	out := &complydv1.KybCompany{RcNumber: c.RCNumber, CompanyName: c.CompanyName, Address: c.Address, RegistrationDate: c.RegistrationDate,
		Status: c.Status, Directors: []*complydv1.KybRegistryDirector{}, BeneficialOwners: []*complydv1.KybRegistryOwner{}}
	for _, d := range c.Directors {
		out.Directors = append(out.Directors, &complydv1.KybRegistryDirector{Name: d.Name, Nationality: d.Nationality, AppointmentDate: d.AppointmentDate})
	}
	for _, o := range c.BeneficialOwners {
		out.BeneficialOwners = append(out.BeneficialOwners, &complydv1.KybRegistryOwner{Name: o.Name, Percentage: o.Percentage})
	}
	return out
}

func directorsIn(ds []*complydv1.KybDirector) []kyb.Director {
	out := make([]kyb.Director, 0, len(ds))
	for _, d := range ds {
		out = append(out, kyb.Director{Name: d.Name, BVN: d.GetBvn(), NIN: d.GetNin(), Email: d.GetEmail(), Phone: d.GetPhone(), Nationality: d.GetNationality()})
	}
	return out
}

func ownersIn(os []*complydv1.KybBeneficialOwner) []kyb.Owner {
	out := make([]kyb.Owner, 0, len(os))
	for _, o := range os {
		out = append(out, kyb.Owner{Name: o.Name, Percentage: o.Percentage, BVN: o.GetBvn(), NIN: o.GetNin()})
	}
	return out
}

// CreateKybApplication implements KybService.CreateKybApplication.
func (h *KYBHandler) CreateKybApplication(ctx context.Context, req *connect.Request[complydv1.CreateKybApplicationRequest]) (*connect.Response[complydv1.KybApplication], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.KybApplication, error) {
		m := req.Msg
		a, err := h.svc.Create(ctx, c.tenantID, c.actor, kyb.NewApplication{CompanyName: m.CompanyName,
			RCNumber: m.GetRcNumber(), TIN: m.GetTin(), Address: m.GetAddress(), IncorporationDate: m.GetIncorporationDate(),
			BusinessActivity: m.GetBusinessActivity(), OperatingCountry: m.GetOperatingCountry(), Directors: directorsIn(m.Directors),
			Owners: ownersIn(m.BeneficialOwners)})
		return KYBApplicationProto(a), err
	})
}

// ListKybApplications implements KybService.ListKybApplications.
func (h *KYBHandler) ListKybApplications(ctx context.Context, req *connect.Request[complydv1.ListKybApplicationsRequest]) (*connect.Response[complydv1.ListKybApplicationsResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.ListKybApplicationsResponse, error) {
		pg, err := listApplications(ctx, c, h.svc, req.Msg.Page, req.Msg.Limit, req.Msg, KYBApplicationProto)
		return &complydv1.ListKybApplicationsResponse{Items: pg.Items, Total: int32(pg.Total), Page: int32(pg.Page), Limit: int32(pg.Limit),
			TotalPages: int32(pg.TotalPages())}, err
	})
}

// GetKybApplication implements KybService.GetKybApplication.
func (h *KYBHandler) GetKybApplication(ctx context.Context, req *connect.Request[complydv1.GetKybApplicationRequest]) (*connect.Response[complydv1.KybApplication], error) {
	return getDetail(ctx, h.svc, req.Peer().Addr, req.Msg.Id, h.svc.Get, kybDetail)
}

// kybDetail maps an application with its checks.
func kybDetail(d kyb.Detail) detailOf[complydv1.KybApplication] {
	out := KYBApplicationProto(d.Application)
	for _, c := range d.Checks {
		out.Checks = append(out.Checks, &complydv1.KybCheck{Id: c.ID, CheckType: c.Type, Subject: c.Subject, Passed: c.Passed,
			Confidence: c.Confidence, Provider: c.Provider, ProviderSource: c.ProviderSource, Detail: anyStruct(c.Detail),
			Charged: c.Charged.StringFixed(2), CheckedAt: ts(c.CheckedAt)})
	}
	return detailOf[complydv1.KybApplication]{msg: out, evidence: d.Evidence, documents: d.Documents,
		setShared: func(ev evidenceFields, docs []*complydv1.KycDocument) {
			out.OpenChecks, out.OpenCases, out.Overrides, out.EvidenceRequired = ev.OpenChecks, ev.OpenCases, ev.Overrides, ev.Required
			out.Documents = docs
		}}
}

// UpdateKybApplication implements KybService.UpdateKybApplication.
func (h *KYBHandler) UpdateKybApplication(ctx context.Context, req *connect.Request[complydv1.UpdateKybApplicationRequest]) (*connect.Response[complydv1.KybApplication], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.KybApplication, error) {
		m := req.Msg
		patch := kyb.Patch{CompanyName: m.CompanyName, RCNumber: m.RcNumber, TIN: m.Tin, Address: m.Address, IncorporationDate: m.IncorporationDate,
			BusinessActivity: m.BusinessActivity, OperatingCountry: m.OperatingCountry, Notes: m.Notes}
		if len(m.Directors) > 0 {
			d := directorsIn(m.Directors)
			patch.Directors = &d
		}
		if len(m.BeneficialOwners) > 0 {
			o := ownersIn(m.BeneficialOwners)
			patch.Owners = &o
		}
		a, err := h.svc.Update(ctx, c.tenantID, c.actor, m.Id, patch)
		return KYBApplicationProto(a), err
	})
}

func cacProto(o kyb.CACOutcome) *complydv1.VerifyCacResponse {
	return &complydv1.VerifyCacResponse{Found: o.Found, Confidence: o.Confidence, Company: companyProto(o.Company), NewStatus: o.NewStatus,
		Verified: o.Verified, Reason: nullString(o.Reason), Provider: o.Provider, Charged: o.Charged.StringFixed(2), Balance: o.Balance.StringFixed(2)}
}

func directorsProto(o kyb.DirectorsOutcome) *complydv1.VerifyDirectorsResponse {
	out := &complydv1.VerifyDirectorsResponse{AllVerified: o.AllVerified, NewStatus: o.NewStatus, Charged: o.Charged.StringFixed(2),
		Balance: o.Balance.StringFixed(2), Directors: []*complydv1.KybDirectorResult{}}
	for _, r := range o.Directors {
		out.Directors = append(out.Directors, &complydv1.KybDirectorResult{Name: r.Name, Nin: nullString(r.NIN), Bvn: nullString(r.BVN),
			Verified: r.Verified, Reason: nullString(r.Reason), Confidence: r.Confidence, Charged: r.Charged.StringFixed(2)})
	}
	return out
}

func ownersProto(o kyb.OwnersOutcome) *complydv1.ScreenBeneficialOwnersResponse {
	out := &complydv1.ScreenBeneficialOwnersResponse{AllClean: o.AllClean, NewStatus: o.NewStatus, BeneficialOwners: []*complydv1.KybOwnerScreening{}}
	for _, r := range o.BeneficialOwners {
		out.BeneficialOwners = append(out.BeneficialOwners, &complydv1.KybOwnerScreening{Name: r.Name, Clean: r.Clean, Hits: hitsProto(r.Hits)})
	}
	return out
}

// VerifyCac implements KybService.VerifyCac.
func (h *KYBHandler) VerifyCac(ctx context.Context, req *connect.Request[complydv1.VerifyCacRequest]) (*connect.Response[complydv1.VerifyCacResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.VerifyCacResponse, error) {
		o, err := h.svc.VerifyCAC(ctx, c.tenantID, c.actor, req.Msg.Id, req.Msg.RcNumber)
		return cacProto(o), err
	})
}

// VerifyDirectors implements KybService.VerifyDirectors.
func (h *KYBHandler) VerifyDirectors(ctx context.Context, req *connect.Request[complydv1.VerifyDirectorsRequest]) (*connect.Response[complydv1.VerifyDirectorsResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.VerifyDirectorsResponse, error) {
		o, err := h.svc.VerifyDirectors(ctx, c.tenantID, c.actor, req.Msg.Id, directorsIn(req.Msg.Directors))
		return directorsProto(o), err
	})
}

// ScreenBeneficialOwners implements KybService.ScreenBeneficialOwners.
func (h *KYBHandler) ScreenBeneficialOwners(ctx context.Context, req *connect.Request[complydv1.ScreenBeneficialOwnersRequest]) (*connect.Response[complydv1.ScreenBeneficialOwnersResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.ScreenBeneficialOwnersResponse, error) {
		names := make([]string, 0, len(req.Msg.BeneficialOwners))
		for _, o := range req.Msg.BeneficialOwners {
			names = append(names, o.Name)
		}
		o, err := h.svc.ScreenOwners(ctx, c.tenantID, c.actor, req.Msg.Id, names)
		return ownersProto(o), err
	})
}

// RunScreening implements KybService.RunScreening.
func (h *KYBHandler) RunScreening(ctx context.Context, req *connect.Request[complydv1.RunScreeningRequest]) (*connect.Response[complydv1.RunScreeningResponse], error) {
	return answer(ctx, req.Peer().Addr, func(c caller) (*complydv1.RunScreeningResponse, error) {
		o, err := h.svc.RunScreening(ctx, c.tenantID, c.actor, req.Msg.Id)
		if err != nil {
			return nil, err
		}
		return &complydv1.RunScreeningResponse{Cac: cacProto(o.CAC), Directors: directorsProto(o.Directors),
			BeneficialOwners: ownersProto(o.BeneficialOwners), Passed: o.Passed, NewStatus: o.NewStatus, Charged: o.Charged.StringFixed(2),
			Balance: o.Balance.StringFixed(2)}, nil
	})
}

func kybDecisionProto(a kyb.Application, ov *complydv1.EvidenceOverride) *complydv1.KybDecision {
	return &complydv1.KybDecision{Id: a.ID, Status: a.Status, RiskLevel: nullString(a.RiskLevel), Notes: nullString(a.Notes),
		UpdatedAt: ts(a.UpdatedAt), Override: ov}
}

// ApproveKybApplication implements KybService.ApproveKybApplication.
func (h *KYBHandler) ApproveKybApplication(ctx context.Context, req *connect.Request[complydv1.ApproveKybApplicationRequest]) (*connect.Response[complydv1.KybDecision], error) {
	return decide(ctx, h.svc, req.Peer().Addr, req.Msg.Id, application.Decision{RiskLevel: req.Msg.GetRiskLevel(),
		Notes: req.Msg.GetNotes()}, true, kybDecisionProto)
}

// RejectKybApplication implements KybService.RejectKybApplication.
func (h *KYBHandler) RejectKybApplication(ctx context.Context, req *connect.Request[complydv1.RejectKybApplicationRequest]) (*connect.Response[complydv1.KybDecision], error) {
	return decide(ctx, h.svc, req.Peer().Addr, req.Msg.Id, application.Decision{RiskLevel: req.Msg.GetRiskLevel(),
		Notes: req.Msg.Reason}, false, kybDecisionProto)
}

// ListKybDocuments implements KybService.ListKybDocuments.
func (h *KYBHandler) ListKybDocuments(ctx context.Context, req *connect.Request[complydv1.ListKybDocumentsRequest]) (*connect.Response[complydv1.ListDocumentsResponse], error) {
	return listDocuments(ctx, h.svc, req.Msg.Id)
}

// GetKybDocumentDownload implements KybService.GetKybDocumentDownload.
func (h *KYBHandler) GetKybDocumentDownload(ctx context.Context, req *connect.Request[complydv1.GetKybDocumentDownloadRequest]) (*connect.Response[complydv1.DocumentDownload], error) {
	return documentDownload(ctx, h.svc, req.Msg.Id, req.Msg.DocId)
}

// DeleteKybDocument implements KybService.DeleteKybDocument.
func (h *KYBHandler) DeleteKybDocument(ctx context.Context, req *connect.Request[complydv1.DeleteKybDocumentRequest]) (*connect.Response[complydv1.DeleteDocumentResponse], error) {
	return deleteDocument(ctx, h.svc, req.Peer().Addr, req.Msg.Id, req.Msg.DocId)
}

// UploadKybDocument implements KybService.UploadKybDocument (bytes in the message).
func (h *KYBHandler) UploadKybDocument(ctx context.Context, req *connect.Request[complydv1.UploadKybDocumentRequest]) (*connect.Response[complydv1.KycDocument], error) {
	return uploadDocument(ctx, h.svc, req.Peer().Addr, req.Msg)
}
