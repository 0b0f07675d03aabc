package connectapi

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"time"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/reports"
)

// ReportHandler serves complyd.v1.ReportService (issue 14, docs/guide/reports.md).
type ReportHandler struct {
	svc *reports.Service
	// checkURL vets a filing URL with the outbound guard before it is saved (nil: no check).
	checkURL func(string) error
	// people names the report's officers and its timeline's actors (nil: no names).
	people PeopleLookup
	log    *slog.Logger
}

// NewReportHandler returns the handler. checkURL validates a tenant's filing endpoint.
func NewReportHandler(svc *reports.Service, checkURL func(string) error, log *slog.Logger) *ReportHandler {
	return &ReportHandler{svc: svc, checkURL: checkURL, log: log}
}

// WithPeople names the officers on a report's detail (prepared, submitted, approved and filed by,
// and the timeline's actors) with one query per report.
func (h *ReportHandler) WithPeople(p PeopleLookup) *ReportHandler {
	h.people = p
	return h
}

func reportCaller(ctx context.Context, peer string) (audit.Caller, auth.Principal, error) {
	return callerOf(ctx, peer)
}

func reportToProto(r *reports.Report, events []reports.Event) *complydv1.Report {
	out := &complydv1.Report{Id: r.ID, Type: r.Type, Status: r.Status, Origin: r.Origin, CustomerAccount: r.CustomerAccount,
		CustomerName: r.CustomerName, ReportDay: r.Day.Format("2006-01-02"), CaseId: nullString(r.CaseID),
		CorrectsReportId: nullString(r.CorrectsReportID), Reason: r.Reason, Action: r.Action, Narrative: r.Narrative,
		Indicators: nonNilStrings(r.Indicators), Rules: nonNilStrings(r.Rules), TransactionIds: nonNilStrings(r.TransactionIDs),
		DeadlineAt: ts(r.DeadlineAt), PreparedBy: nullString(r.PreparedBy), SubmittedBy: nullString(r.SubmittedBy),
		SubmittedAt: tsPtr(r.SubmittedAt), ApprovedBy: nullString(r.ApprovedBy), ApprovedAt: tsPtr(r.ApprovedAt),
		RejectionReason: nullString(r.RejectionReason), FiledBy: nullString(r.FiledBy), FiledAt: tsPtr(r.FiledAt),
		FilingReference: nullString(r.FilingReference), FilingMethod: nullString(r.FilingMethod),
		CreatedAt: ts(r.CreatedAt), UpdatedAt: ts(r.UpdatedAt), Timeline: []*complydv1.ReportEvent{},
		Contributors: nonNilStrings(r.Contributors), FilingAttempt: int32(r.FilingAttempt)}
	if a := r.FilingAnswer; a != nil {
		out.FilingAnswer = &complydv1.FilingAnswer{IdempotencyKey: a.IdempotencyKey, StatusCode: int32(a.StatusCode),
			BodyExcerpt: a.BodyExcerpt, Error: a.Error, At: ts(a.At)}
	}
	for _, e := range events {
		out.Timeline = append(out.Timeline, &complydv1.ReportEvent{Id: e.ID, Action: e.Action, ActorId: nullString(e.ActorID),
			Note: e.Note, CreatedAt: ts(e.CreatedAt)})
	}
	return out
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// one renders a report with its timeline.
func (h *ReportHandler) one(ctx context.Context, r *reports.Report, err error) (*connect.Response[complydv1.Report], error) {
	if err != nil {
		return nil, err
	}
	evs, err := h.svc.Events(ctx, r.TenantID, r.ID)
	if err != nil {
		return nil, err
	}
	ind, hits, err := h.svc.Grounding(ctx, r)
	if err != nil {
		return nil, err
	}
	out := reportToProto(r, evs)
	if err := nameReport(ctx, h.people, r.TenantID, out); err != nil {
		return nil, err
	}
	out.ReportIndicators = nonNilStrings(ind)
	out.SanctionsHits = []*complydv1.ReportSanctionsHit{}
	for _, x := range hits {
		out.SanctionsHits = append(out.SanctionsHits, &complydv1.ReportSanctionsHit{TransactionId: x.TransactionID, Party: x.Party,
			List: x.List, EntryId: x.EntryID, Name: x.Name, MatchedName: x.MatchedName, Score: x.Score})
	}
	return connect.NewResponse(out), nil
}

// CreateReport implements ReportService.CreateReport.
func (h *ReportHandler) CreateReport(ctx context.Context, req *connect.Request[complydv1.CreateReportRequest]) (*connect.Response[complydv1.Report], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	r, err := h.svc.Create(ctx, c, reports.CreateParams{Type: m.Type, CaseID: m.GetCaseId(), TransactionIDs: m.TransactionIds,
		CustomerAccount: m.GetCustomerAccount(), CustomerName: m.GetCustomerName(), Reason: m.GetReason(), Action: m.GetAction(),
		Narrative: m.GetNarrative(), CorrectsReportID: m.GetCorrectsReportId()})
	return h.one(ctx, r, err)
}

func parseDay(field, s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return nil, apperr.Invalid(field, "must be a date yyyy-mm-dd")
	}
	return &t, nil
}

func (h *ReportHandler) page(res paging.Result[reports.Report]) *connect.Response[complydv1.ListReportsResponse] {
	out := &complydv1.ListReportsResponse{Items: []*complydv1.Report{}, Total: int32(res.Total), Page: int32(res.Page), Limit: int32(res.Limit),
		TotalPages: int32(res.TotalPages())}
	for i := range res.Items {
		out.Items = append(out.Items, reportToProto(&res.Items[i], nil))
	}
	return connect.NewResponse(out)
}

// ListReports implements ReportService.ListReports.
func (h *ReportHandler) ListReports(ctx context.Context, req *connect.Request[complydv1.ListReportsRequest]) (*connect.Response[complydv1.ListReportsResponse], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	p, err := paging.New(m.Page, m.Limit, 20, 100)
	if err != nil {
		return nil, err
	}
	from, err := parseDay("from", m.GetFrom())
	if err != nil {
		return nil, err
	}
	to, err := parseDay("to", m.GetTo())
	if err != nil {
		return nil, err
	}
	res, err := h.svc.List(ctx, c.TenantID, reports.ListParams{Type: m.GetType(), Status: m.GetStatus(), CaseID: m.GetCaseId(),
		Customer: m.GetCustomerAccount(), From: from, To: to, Page: p.Page, Limit: p.Limit})
	if err != nil {
		return nil, err
	}
	return h.page(res), nil
}

// ListReportDeadlines implements ReportService.ListReportDeadlines.
func (h *ReportHandler) ListReportDeadlines(ctx context.Context, req *connect.Request[complydv1.ListReportDeadlinesRequest]) (*connect.Response[complydv1.ListReportsResponse], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	p, err := paging.New(req.Msg.Page, req.Msg.Limit, 20, 100)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.Deadlines(ctx, c.TenantID, reports.ListParams{Page: p.Page, Limit: p.Limit})
	if err != nil {
		return nil, err
	}
	return h.page(res), nil
}

// GetReport implements ReportService.GetReport.
func (h *ReportHandler) GetReport(ctx context.Context, req *connect.Request[complydv1.GetReportRequest]) (*connect.Response[complydv1.Report], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.Get(ctx, c.TenantID, req.Msg.Id)
	return h.one(ctx, r, err)
}

// UpdateReport implements ReportService.UpdateReport.
func (h *ReportHandler) UpdateReport(ctx context.Context, req *connect.Request[complydv1.UpdateReportRequest]) (*connect.Response[complydv1.Report], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	p := reports.UpdateParams{Reason: m.Reason, Action: m.Action, Narrative: m.Narrative}
	if m.SetIndicators {
		p.Indicators = nonNilStrings(m.Indicators)
	}
	r, err := h.svc.Update(ctx, c, m.Id, p)
	return h.one(ctx, r, err)
}

// SubmitReport implements ReportService.SubmitReport.
func (h *ReportHandler) SubmitReport(ctx context.Context, req *connect.Request[complydv1.SubmitReportRequest]) (*connect.Response[complydv1.Report], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.Submit(ctx, c, req.Msg.Id)
	return h.one(ctx, r, err)
}

// ApproveReport implements ReportService.ApproveReport.
func (h *ReportHandler) ApproveReport(ctx context.Context, req *connect.Request[complydv1.ApproveReportRequest]) (*connect.Response[complydv1.Report], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.Approve(ctx, c, req.Msg.Id)
	return h.one(ctx, r, err)
}

// RejectReport implements ReportService.RejectReport.
func (h *ReportHandler) RejectReport(ctx context.Context, req *connect.Request[complydv1.RejectReportRequest]) (*connect.Response[complydv1.Report], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.Reject(ctx, c, req.Msg.Id, req.Msg.Reason)
	return h.one(ctx, r, err)
}

// FileReport implements ReportService.FileReport.
func (h *ReportHandler) FileReport(ctx context.Context, req *connect.Request[complydv1.FileReportRequest]) (*connect.Response[complydv1.Report], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.File(ctx, c, req.Msg.Id, req.Msg.GetReference())
	return h.one(ctx, r, err)
}

// DownloadReport implements ReportService.DownloadReport.
func (h *ReportHandler) DownloadReport(ctx context.Context, req *connect.Request[complydv1.DownloadReportRequest]) (*connect.Response[complydv1.DownloadReportResponse], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	out := &complydv1.DownloadReportResponse{}
	if req.Msg.GetFormat() == "HTML" {
		err = h.svc.RenderHTML(ctx, c.TenantID, req.Msg.Id, &buf)
		out.Filename, out.ContentType = req.Msg.Id+".html", "text/html; charset=utf-8"
	} else {
		err = h.svc.Export(ctx, c.TenantID, req.Msg.Id, &buf)
		out.Filename, out.ContentType = req.Msg.Id+".xml", "application/xml"
	}
	if err != nil {
		return nil, err
	}
	out.Content = buf.String()
	return connect.NewResponse(out), nil
}

// ValidateReport implements ReportService.ValidateReport.
func (h *ReportHandler) ValidateReport(ctx context.Context, req *connect.Request[complydv1.ValidateReportRequest]) (*connect.Response[complydv1.ValidateReportResponse], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	xml, problems, err := h.svc.Preview(ctx, c.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ValidateReportResponse{Valid: len(problems) == 0, Xml: string(xml), Problems: []*complydv1.ReportProblem{}}
	for _, p := range problems {
		out.Problems = append(out.Problems, &complydv1.ReportProblem{Field: p.Field, Message: p.Message})
	}
	return connect.NewResponse(out), nil
}

// SuggestNarrative implements ReportService.SuggestNarrative.
func (h *ReportHandler) SuggestNarrative(ctx context.Context, req *connect.Request[complydv1.SuggestNarrativeRequest]) (*connect.Response[complydv1.SuggestNarrativeResponse], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	s, err := h.svc.SuggestNarrative(ctx, c.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.SuggestNarrativeResponse{Narrative: s.Narrative, Source: s.Source, Warning: nullString(s.Warning)}), nil
}

func settingsToProto(s reports.Settings) *complydv1.ReportSettings {
	return &complydv1.ReportSettings{RentityId: s.RentityID, RentityBranch: s.RentityBranch, InstitutionName: s.InstitutionName,
		InstitutionCode: s.InstitutionCode, ReportingPerson: &complydv1.ReportingPerson{FirstName: s.ReportingPerson.FirstName,
			LastName: s.ReportingPerson.LastName, Email: s.ReportingPerson.Email, Phone: s.ReportingPerson.Phone,
			Occupation: s.ReportingPerson.Occupation}, FilingUrl: s.FilingURL, FilingTokenSet: s.FilingToken != "",
		DeadlineHours: &complydv1.DeadlineHours{Ctr: int32(s.Deadline(reports.TypeCTR)), Str: int32(s.Deadline(reports.TypeSTR)),
			Sar: int32(s.Deadline(reports.TypeSAR)), Ftr: int32(s.Deadline(reports.TypeFTR))},
		NearDeadlineHours: int32(s.Near() / time.Hour), SchemaName: s.SchemaName,
		Location: &complydv1.ReportLocation{Address: s.Location.Address, City: s.Location.City, State: s.Location.State,
			CountryCode: s.Location.CountryCode}}
}

func codeListToProto(cl reports.CodeList, loaded reports.CodeList) *complydv1.ReportCodeList {
	out := &complydv1.ReportCodeList{Codes: []*complydv1.ReportCode{}, LoadedLists: []string{}}
	for _, k := range cl.Codes {
		out.Codes = append(out.Codes, &complydv1.ReportCode{List: k.List, Code: k.Code, Description: k.Description, Use: nonNilStrings(k.Use)})
	}
	for _, l := range reports.Lists {
		if loaded.Loaded(l) {
			out.LoadedLists = append(out.LoadedLists, l)
		}
	}
	return out
}

// GetReportCodeList implements ReportService.GetReportCodeList.
func (h *ReportHandler) GetReportCodeList(ctx context.Context, req *connect.Request[complydv1.GetReportCodeListRequest]) (*connect.Response[complydv1.ReportCodeList], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	set, err := h.svc.Settings(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	cl, err := h.svc.EffectiveCodeList(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(codeListToProto(cl, set.CodeList)), nil
}

// LoadReportCodeList implements ReportService.LoadReportCodeList.
func (h *ReportHandler) LoadReportCodeList(ctx context.Context, req *connect.Request[complydv1.LoadReportCodeListRequest]) (*connect.Response[complydv1.ReportCodeList], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	loaded, err := h.svc.LoadCodeList(ctx, c, strings.NewReader(req.Msg.Content))
	if err != nil {
		return nil, err
	}
	cl, err := h.svc.EffectiveCodeList(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(codeListToProto(cl, loaded)), nil
}

// GetReportSettings implements ReportService.GetReportSettings.
func (h *ReportHandler) GetReportSettings(ctx context.Context, req *connect.Request[complydv1.GetReportSettingsRequest]) (*connect.Response[complydv1.ReportSettings], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	s, err := h.svc.Settings(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(settingsToProto(s)), nil
}

// UpdateReportSettings implements ReportService.UpdateReportSettings.
func (h *ReportHandler) UpdateReportSettings(ctx context.Context, req *connect.Request[complydv1.UpdateReportSettingsRequest]) (*connect.Response[complydv1.ReportSettings], error) {
	c, _, err := reportCaller(ctx, req.Peer().Addr)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	if m.FilingUrl != "" && h.checkURL != nil {
		if err := h.checkURL(m.FilingUrl); err != nil {
			return nil, apperr.Invalid("filingUrl", err.Error())
		}
	}
	cur, err := h.svc.Settings(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	s := reports.Settings{RentityID: m.RentityId, RentityBranch: m.RentityBranch, InstitutionName: m.InstitutionName,
		InstitutionCode: m.InstitutionCode, FilingURL: m.FilingUrl, FilingToken: cur.FilingToken, NearHours: int(m.NearDeadlineHours),
		DeadlineHours: map[string]int{}, SchemaName: m.SchemaName, CodeList: cur.CodeList}
	if l := m.Location; l != nil {
		s.Location = reports.Address{Address: l.Address, City: l.City, State: l.State, CountryCode: l.CountryCode}
	}
	if m.FilingToken != nil {
		s.FilingToken = *m.FilingToken
	}
	if p := m.ReportingPerson; p != nil {
		s.ReportingPerson = reports.Person{FirstName: p.FirstName, LastName: p.LastName, Email: p.Email, Phone: p.Phone, Occupation: p.Occupation}
	}
	if d := m.DeadlineHours; d != nil {
		for t, v := range map[string]int32{reports.TypeCTR: d.Ctr, reports.TypeSTR: d.Str, reports.TypeSAR: d.Sar, reports.TypeFTR: d.Ftr} {
			if v > 0 {
				s.DeadlineHours[t] = int(v)
			}
		}
	}
	saved, err := h.svc.SaveSettings(ctx, c, s)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(settingsToProto(saved)), nil
}
