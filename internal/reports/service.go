package reports

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Service holds the report rules: drafting, editing, the four-eyes status machine, export,
// filing and narratives.
type Service struct {
	store     Store
	filer     Filer     // nil: no HTTP filing
	assistant Assistant // nil: deterministic narratives only
	assistTTL time.Duration
	schema    SchemaValidator // nil: no structural validation can run, and nothing is approved
	now       func() time.Time
}

// NewService returns the service. filer and assistant may be nil.
func NewService(store Store, filer Filer, assistant Assistant, now func() time.Time) *Service {
	if store == nil || now == nil {
		panic("reports: NewService needs a store and a clock")
	}
	return &Service{store: store, filer: filer, assistant: assistant, assistTTL: 10 * time.Second, now: now}
}

// WithSchema sets the goAML schema validator (docs/guide/reports.md "Validation"). Without one no
// report is approved or filed: the structure of a report cannot be checked.
func (s *Service) WithSchema(v SchemaValidator) *Service { s.schema = v; return s }

// WithAssistTimeout bounds one call of the narrative assistant.
func (s *Service) WithAssistTimeout(d time.Duration) *Service { s.assistTTL = d; return s }

// CreateParams draft a report by hand, from a case or from a set of transactions.
type CreateParams struct {
	Type             string
	CaseID           string
	TransactionIDs   []string
	CustomerAccount  string
	CustomerName     string
	Reason           string
	Action           string
	Narrative        string
	CorrectsReportID string
}

func auditEvent(c audit.Caller, action string, r *Report, before any) audit.Event {
	return audit.Event{TenantID: c.TenantID, Actor: c.Actor, Action: action, ResourceType: "report", ResourceID: r.ID,
		Before: before, After: Summary(r)}
}

// Summary is the audit and webhook view of a report.
func Summary(r *Report) map[string]any {
	return map[string]any{"reportId": r.ID, "type": r.Type, "status": r.Status, "customerAccount": r.CustomerAccount,
		"caseId": nilIfEmpty(r.CaseID), "deadlineAt": r.DeadlineAt.UTC(), "filingReference": nilIfEmpty(r.FilingReference),
		"transactionCount": len(r.TransactionIDs)}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (s *Service) event(r *Report, c audit.Caller, action, note string) Event {
	return Event{ID: NewID("revt_"), ReportID: r.ID, Action: action, ActorID: c.UserID, Note: note, CreatedAt: s.now().UTC()}
}

// Create drafts a report (status DRAFT, origin CASE or MANUAL) with the deterministic
// narrative when none is given. VALIDATION_ERROR, NOT_FOUND (case, transaction or corrected
// report), CONFLICT when the corrected report is not filed.
func (s *Service) Create(ctx context.Context, c audit.Caller, p CreateParams) (*Report, error) {
	if !ValidType(p.Type) {
		return nil, apperr.Invalid("type", "must be one of CTR, STR, SAR, FTR")
	}
	now := s.now().UTC()
	r := &Report{ID: NewID("rpt_"), TenantID: c.TenantID, Type: p.Type, Status: StatusDraft, Origin: OriginManual,
		CustomerAccount: p.CustomerAccount, CustomerName: p.CustomerName, Reason: p.Reason, Action: p.Action,
		Narrative: p.Narrative, PreparedBy: c.UserID, CreatedAt: now, UpdatedAt: now}
	r.contributed(c.UserID)
	facts := Facts{Type: p.Type}
	ids := slices.Clone(p.TransactionIDs)
	if p.CaseID != "" {
		cf, err := s.store.Case(ctx, c.TenantID, p.CaseID)
		if err != nil {
			return nil, err
		}
		r.CaseID, r.Origin = cf.ID, OriginCase
		facts.CaseNumber, facts.CaseTitle, facts.CaseDescription, facts.CaseNotes = cf.Number, cf.Title, cf.Description, cf.Notes
		if cf.TransactionID != "" && !slices.Contains(ids, cf.TransactionID) {
			ids = append(ids, cf.TransactionID)
		}
	}
	if p.CorrectsReportID != "" {
		old, err := s.store.Get(ctx, c.TenantID, p.CorrectsReportID)
		if err != nil {
			return nil, err
		}
		if old.Status != StatusFiled {
			return nil, apperr.New(apperr.Conflict, "only a filed report is corrected by a new report; edit the draft instead")
		}
		r.CorrectsReportID = old.ID
		if len(ids) == 0 {
			ids = old.TransactionIDs
		}
		r.CustomerAccount = firstNonEmpty(r.CustomerAccount, old.CustomerAccount)
		r.CustomerName = firstNonEmpty(r.CustomerName, old.CustomerName)
	}
	txs, err := s.store.Transactions(ctx, c.TenantID, ids)
	if err != nil {
		return nil, err
	}
	if len(txs) != len(dedupe(ids)) {
		return nil, apperr.NotFoundf("transaction not found")
	}
	for _, t := range txs {
		r.TransactionIDs = append(r.TransactionIDs, t.ID)
		for _, rule := range t.Rules {
			if !slices.Contains(r.Rules, rule) {
				r.Rules = append(r.Rules, rule)
			}
		}
	}
	if len(txs) > 0 {
		r.CustomerAccount = firstNonEmpty(r.CustomerAccount, txs[0].SenderAccountNumber)
		r.CustomerName = firstNonEmpty(r.CustomerName, txs[0].SenderName)
		r.Day = DayOf(txs[0].Timestamp)
	} else {
		r.Day = DayOf(now)
	}
	if r.CustomerAccount == "" && p.Type != TypeSAR {
		return nil, apperr.Invalid("transactionIds", "a "+p.Type+" needs its transactions, or a case with one")
	}
	set, err := s.store.Settings(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	r.DeadlineAt = set.DeadlineFor(r.Type, r.Day)
	if strings.TrimSpace(r.Narrative) == "" {
		facts.CustomerName, facts.CustomerAccount, facts.Transactions, facts.Rules = r.CustomerName, r.CustomerAccount, txs, r.Rules
		r.Narrative = Narrative(facts)
	}
	eff := Effects{Events: []Event{s.event(r, c, "CREATED", "")}, Audit: []audit.Event{auditEvent(c, "report.created", r, nil)},
		Webhooks: []Webhook{{Event: EventReportCreated, Data: Summary(r)}}}
	if err := s.store.Create(ctx, r, eff); err != nil {
		return nil, err
	}
	return r, nil
}

func dedupe(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// UpdateParams edit a draft; nil fields are left as they are.
type UpdateParams struct {
	Reason, Action, Narrative *string
	Indicators                []string
}

// errNotDraft is the answer to a change of a report that is not a draft.
func errNotDraft(r *Report) error {
	msg := "only a draft can be edited"
	if r.Status == StatusFiled {
		msg = "a filed report cannot change; file a correction (a new report with correctsReportId)"
	}
	return apperr.New(apperr.Conflict, msg).WithData(map[string]any{"status": r.Status})
}

// Update edits a draft. CONFLICT when it is not a draft (a filed report is immutable).
func (s *Service) Update(ctx context.Context, c audit.Caller, id string, p UpdateParams) (*Report, error) {
	for _, ind := range p.Indicators {
		if ind == "" || len(ind) > 25 {
			return nil, apperr.Invalid("indicators", "each indicator is 1 to 25 characters")
		}
	}
	return s.store.Update(ctx, c.TenantID, id, func(r *Report) (Effects, error) {
		if r.Status != StatusDraft {
			return Effects{}, errNotDraft(r)
		}
		before := Summary(r)
		if p.Reason != nil {
			r.Reason = *p.Reason
		}
		if p.Action != nil {
			r.Action = *p.Action
		}
		if p.Narrative != nil {
			r.Narrative = *p.Narrative
		}
		if p.Indicators != nil {
			r.Indicators = p.Indicators
		}
		if r.PreparedBy == "" {
			r.PreparedBy = c.UserID // the screening drafted it; whoever edits it prepares it
		}
		r.contributed(c.UserID)
		r.UpdatedAt = s.now().UTC()
		return Effects{Events: []Event{s.event(r, c, "UPDATED", "")}, Audit: []audit.Event{auditEvent(c, "report.updated", r, before)}}, nil
	})
}

// Submit sends a draft for approval; its submitter counts as a preparer (four eyes).
func (s *Service) Submit(ctx context.Context, c audit.Caller, id string) (*Report, error) {
	return s.store.Update(ctx, c.TenantID, id, func(r *Report) (Effects, error) {
		before := Summary(r)
		if err := r.move(StatusPendingApproval); err != nil {
			return Effects{}, err
		}
		now := s.now().UTC()
		if r.PreparedBy == "" {
			r.PreparedBy = c.UserID
		}
		r.contributed(c.UserID)
		r.SubmittedBy, r.SubmittedAt, r.UpdatedAt, r.RejectionReason = c.UserID, &now, now, ""
		return Effects{Events: []Event{s.event(r, c, "SUBMITTED", "")}, Audit: []audit.Event{auditEvent(c, "report.submitted", r, before)}}, nil
	})
}

// fourEyes refuses anyone who changed the report's content: whoever drafted it, edited a
// field or submitted it (docs/design/design-choices.md §4 in the same spirit as case resolutions; docs/guide/reports.md
// "Four eyes"). Counting only the preparer and the submitter let an officer rewrite a narrative
// and then approve it himself. FORBIDDEN.
func fourEyes(r *Report, c audit.Caller) error {
	if r.contributor(c.UserID) {
		return apperr.New(apperr.Forbidden, "four eyes: whoever drafted, edited or submitted a report cannot approve or reject it")
	}
	return nil
}

// Approve approves a report pending approval, after checking that its goAML XML would pass
// (VALIDATION_ERROR naming the fields otherwise). FORBIDDEN for its preparer.
func (s *Service) Approve(ctx context.Context, c audit.Caller, id string) (*Report, error) {
	// Four eyes first: a contributor is refused whatever the report's state of completion, and
	// no schema validation is spent on a caller who may not decide.
	cur, err := s.store.Get(ctx, c.TenantID, id)
	if err != nil {
		return nil, err
	}
	if err := fourEyes(cur, c); err != nil {
		return nil, err
	}
	if err := s.validBefore(ctx, c.TenantID, id, StatusPendingApproval, "approving"); err != nil {
		return nil, err
	}
	return s.store.Update(ctx, c.TenantID, id, func(r *Report) (Effects, error) {
		if err := fourEyes(r, c); err != nil {
			return Effects{}, err
		}
		before := Summary(r)
		if err := r.move(StatusApproved); err != nil {
			return Effects{}, err
		}
		now := s.now().UTC()
		r.ApprovedBy, r.ApprovedAt, r.UpdatedAt = c.UserID, &now, now
		return Effects{Events: []Event{s.event(r, c, "APPROVED", "")}, Audit: []audit.Event{auditEvent(c, "report.approved", r, before)},
			Webhooks: []Webhook{{Event: EventReportApproved, Data: Summary(r)}}}, nil
	})
}

// Reject returns a report pending approval to DRAFT with the reason. FORBIDDEN for its preparer.
func (s *Service) Reject(ctx context.Context, c audit.Caller, id, reason string) (*Report, error) {
	if strings.TrimSpace(reason) == "" {
		return nil, apperr.Invalid("reason", "is required")
	}
	return s.store.Update(ctx, c.TenantID, id, func(r *Report) (Effects, error) {
		if err := fourEyes(r, c); err != nil {
			return Effects{}, err
		}
		before := Summary(r)
		if r.Status != StatusPendingApproval {
			return Effects{}, apperr.Transition(r.Status, StatusDraft, transitions[r.Status])
		}
		r.Status, r.RejectionReason, r.UpdatedAt = StatusDraft, reason, s.now().UTC()
		return Effects{Events: []Event{s.event(r, c, "REJECTED", reason)}, Audit: []audit.Event{auditEvent(c, "report.rejected", r, before)}}, nil
	})
}

// document builds r's goAML document from the store.
func (s *Service) document(ctx context.Context, r *Report) (*Doc, error) {
	txs, err := s.store.Transactions(ctx, r.TenantID, r.TransactionIDs)
	if err != nil {
		return nil, err
	}
	set, err := s.store.Settings(ctx, r.TenantID)
	if err != nil {
		return nil, err
	}
	if r.CorrectsReportID != "" {
		old, err := s.store.Get(ctx, r.TenantID, r.CorrectsReportID)
		if err != nil {
			return nil, err
		}
		r.CorrectsReference = old.FilingReference
	}
	return Build(r, txs, set, s.now()), nil
}

// Export writes the goAML XML of an approved or filed report to w. CONFLICT before approval;
// VALIDATION_ERROR naming the broken fields.
func (s *Service) Export(ctx context.Context, tenantID tenancy.TenantID, id string, w io.Writer) error {
	r, err := s.store.Get(ctx, tenantID, id)
	if err != nil {
		return err
	}
	if r.Status != StatusApproved && r.Status != StatusFiled && r.Status != StatusFiling && r.Status != StatusFilingFailed {
		return apperr.New(apperr.Conflict, "only an approved or filed report is exported").WithData(map[string]any{"status": r.Status})
	}
	doc, err := s.document(ctx, r)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := doc.Encode(&buf); err != nil {
		return err
	}
	errs, err := s.validate(ctx, r.TenantID, doc, buf.Bytes())
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		e := apperr.InvalidFields(errs...)
		e.Message = "the report would be rejected by goAML: fix the fields in details"
		return e
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// Preview returns the goAML XML of a report in any status with the problems that would stop
// its export (none when it would pass).
func (s *Service) Preview(ctx context.Context, tenantID tenancy.TenantID, id string) ([]byte, []apperr.FieldError, error) {
	r, err := s.store.Get(ctx, tenantID, id)
	if err != nil {
		return nil, nil, err
	}
	doc, err := s.document(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := doc.Encode(&buf); err != nil {
		return nil, nil, err
	}
	errs, err := s.validate(ctx, tenantID, doc, buf.Bytes())
	if err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), errs, nil
}

// Get returns a report.
func (s *Service) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (*Report, error) {
	return s.store.Get(ctx, tenantID, id)
}

// List pages reports.
func (s *Service) List(ctx context.Context, tenantID tenancy.TenantID, p ListParams) (paging.Result[Report], error) {
	return s.store.List(ctx, tenantID, p)
}

// Deadlines lists the unfiled reports whose deadline is past or within the tenant's
// near-deadline window.
func (s *Service) Deadlines(ctx context.Context, tenantID tenancy.TenantID, p ListParams) (paging.Result[Report], error) {
	set, err := s.store.Settings(ctx, tenantID)
	if err != nil {
		return paging.Result[Report]{}, err
	}
	before := s.now().Add(set.Near())
	p.DeadlineBefore = &before
	return s.store.List(ctx, tenantID, p)
}

// Events returns a report's timeline.
func (s *Service) Events(ctx context.Context, tenantID tenancy.TenantID, id string) ([]Event, error) {
	if _, err := s.store.Get(ctx, tenantID, id); err != nil {
		return nil, err
	}
	return s.store.Events(ctx, tenantID, id)
}

// Settings returns the tenant's settings.
func (s *Service) Settings(ctx context.Context, tenantID tenancy.TenantID) (Settings, error) {
	return s.store.Settings(ctx, tenantID)
}

// SaveSettings validates and writes the tenant's settings.
func (s *Service) SaveSettings(ctx context.Context, c audit.Caller, set Settings) (Settings, error) {
	if err := set.Validate(); err != nil {
		return Settings{}, err
	}
	set.UpdatedAt = s.now().UTC()
	ev := audit.Event{TenantID: c.TenantID, Actor: c.Actor, Action: "report_settings.updated", ResourceType: "report_settings",
		ResourceID: string(c.TenantID), After: map[string]any{"rentityId": set.RentityID, "filingUrl": set.FilingURL,
			"deadlineHours": set.DeadlineHours, "nearHours": set.NearHours}}
	if err := s.store.SaveSettings(ctx, c.TenantID, set, ev); err != nil {
		return Settings{}, err
	}
	return set, nil
}

// Suggestion is a narrative draft for a human to edit.
type Suggestion struct {
	Narrative string
	Source    string // DETERMINISTIC or ASSISTANT
	// Warning says why the assistant's text is not used ("" when it is, or none is configured).
	Warning string
}

// Facts gathers the facts of a report (its transactions, rules and case notes).
func (s *Service) Facts(ctx context.Context, r *Report) (Facts, error) {
	txs, err := s.store.Transactions(ctx, r.TenantID, r.TransactionIDs)
	if err != nil {
		return Facts{}, err
	}
	f := Facts{Type: r.Type, CustomerName: r.CustomerName, CustomerAccount: r.CustomerAccount, Transactions: txs, Rules: r.Rules}
	if r.CaseID != "" {
		cf, err := s.store.Case(ctx, r.TenantID, r.CaseID)
		if err != nil && apperr.CodeOf(err) != apperr.NotFound {
			return Facts{}, err
		}
		f.CaseNumber, f.CaseTitle, f.CaseDescription, f.CaseNotes = cf.Number, cf.Title, cf.Description, cf.Notes
	}
	return f, nil
}

// SuggestNarrative writes the deterministic narrative of a report and, when an assistant is
// configured, asks it (time-limited) to improve it with the report's facts only. Any failure
// of the assistant leaves the deterministic draft, with a warning. Nothing is saved: the
// caller edits and saves the text it chooses.
func (s *Service) SuggestNarrative(ctx context.Context, tenantID tenancy.TenantID, id string) (Suggestion, error) {
	r, err := s.store.Get(ctx, tenantID, id)
	if err != nil {
		return Suggestion{}, err
	}
	f, err := s.Facts(ctx, r)
	if err != nil {
		return Suggestion{}, err
	}
	out := Suggestion{Narrative: Narrative(f), Source: "DETERMINISTIC"}
	if s.assistant == nil {
		return out, nil
	}
	actx, cancel := context.WithTimeout(ctx, s.assistTTL)
	defer cancel()
	text, err := s.assistant.Improve(actx, f, out.Narrative)
	switch {
	case err != nil:
		out.Warning = fmt.Sprintf("the narrative assistant failed (%v); the deterministic draft is shown", err)
	case strings.TrimSpace(text) == "":
		out.Warning = "the narrative assistant answered nothing; the deterministic draft is shown"
	default:
		out.Narrative, out.Source = strings.TrimSpace(text), "ASSISTANT"
	}
	return out, nil
}
