package reports

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
)

// FilingRequest is one submission of a report's XML to the tenant's filing endpoint.
type FilingRequest struct {
	URL, Token string
	ReportID   string
	// IdempotencyKey is <report id>-<attempt>, sent as the Idempotency-Key header: a repeated
	// submission with the same key is the same submission for an endpoint that honours it.
	IdempotencyKey string
	XML            []byte
}

// FilingResponse is the endpoint's HTTP answer, whatever it was.
type FilingResponse struct {
	StatusCode int
	Body       string // the first MaxAnswerExcerpt bytes
	Reference  string // the reference read from the body ("" when none could be read)
}

// MaxAnswerExcerpt bounds the part of an answer's body that is kept.
const MaxAnswerExcerpt = 2048

// MaxReferenceLen is the longest filing reference stored (goAML's fiu_ref_number).
const MaxReferenceLen = 255

// FilingAnswer is what the endpoint said to one submission, recorded on the report even when
// it could not be used, so that an officer sees it and a retry resolves it.
type FilingAnswer struct {
	IdempotencyKey string
	StatusCode     int    // 0 when no answer came (timeout, connection refused)
	BodyExcerpt    string // at most MaxAnswerExcerpt bytes
	Error          string // "" when the report was filed with this answer
	At             time.Time
}

// Accepted reports whether the endpoint took the submission (a 2xx), even when its answer
// could not be used: the endpoint has the report, so it is never sent again.
func (a *FilingAnswer) Accepted() bool {
	return a != nil && a.StatusCode >= 200 && a.StatusCode <= 299
}

// ReasonAcceptedByEndpoint is data.reason of a filing call refused because the endpoint already
// accepted the report (FilingAnswer.Accepted).
const ReasonAcceptedByEndpoint = "ACCEPTED_BY_ENDPOINT"

// ErrAcceptedByEndpoint answers a filing call without a reference on a report the endpoint
// already accepted with an unusable answer (a 2xx without a reference, or one over 255
// characters): CONFLICT with the report and the answer, and nothing is sent. The officer files
// it with the reference the FIU gives (docs/guide/reports.md "Filing").
func ErrAcceptedByEndpoint(r *Report) error {
	d := FilingData(r)
	d["reason"] = ReasonAcceptedByEndpoint
	return apperr.New(apperr.Conflict, fmt.Sprintf("the filing endpoint accepted this report (status %d) but its answer could not be used; "+
		"it is not sent again: file it with the reference the FIU gives (POST /reports/{id}/file with a reference)", r.FilingAnswer.StatusCode)).
		WithData(d)
}

// StaleFilingAfter is how long a FILING claim holds: a process that died while sending leaves
// the report FILING; after this a new file call may claim it again and re-send with the same
// key (longer than the filer's timeout, so a live call is never overtaken).
const StaleFilingAfter = 2 * time.Minute

// errFilingInProgress answers a second filing call while one holds the claim: at once, with the
// report (docs/guide/reports.md "Filing": 409, never a second submission).
func errFilingInProgress(r *Report) error {
	return apperr.New(apperr.Conflict, "the report is being filed by another call; its result will be on the report").
		WithData(FilingData(r))
}

// FilingData is the error data of a refused or failed filing: the report's status and summary
// (times as RFC 3339 text: error data is JSON-shaped) and its last answer.
func FilingData(r *Report) map[string]any {
	sum := Summary(r)
	sum["deadlineAt"] = r.DeadlineAt.UTC().Format(time.RFC3339)
	out := map[string]any{"status": r.Status, "report": sum, "filingAttempt": r.FilingAttempt}
	if r.FilingAnswer != nil {
		out["filingAnswer"] = answerData(r.FilingAnswer)
	}
	return out
}

// IdempotencyKey is the key of r's current filing attempt.
func (r *Report) IdempotencyKey() string { return fmt.Sprintf("%s-%d", r.ID, r.FilingAttempt) }

// judge reads the endpoint's answer: the reference when it files the report; else the reason
// it cannot, and whether the endpoint refused the key for good (a 4xx other than 408, 409, 425
// and 429), in which case the next attempt sends a new key. A timeout, a 5xx, or a 2xx without
// a usable reference keep the key: the endpoint may have the report, and the same key lets it
// answer the same submission again rather than take a second one.
func judge(res FilingResponse, err error) (ref, why string, newKey bool) {
	switch {
	case err != nil:
		return "", fmt.Sprintf("no answer from the filing endpoint: %v", err), false
	case res.StatusCode >= 200 && res.StatusCode <= 299:
		ref = strings.TrimSpace(res.Reference)
		switch {
		case ref == "":
			return "", "the endpoint accepted the report without a reference", false
		case len(ref) > MaxReferenceLen:
			return "", fmt.Sprintf("the endpoint answered a reference of %d characters (at most %d are kept)", len(ref), MaxReferenceLen), false
		}
		return ref, "", false
	case res.StatusCode >= 400 && res.StatusCode <= 499 &&
		res.StatusCode != 408 && res.StatusCode != 409 && res.StatusCode != 425 && res.StatusCode != 429:
		return "", fmt.Sprintf("the endpoint refused the report (status %d)", res.StatusCode), true
	default:
		return "", fmt.Sprintf("the endpoint failed (status %d)", res.StatusCode), false
	}
}

// File marks an approved report FILED. With reference it is the NFIU's reference of a manual
// upload on the goAML portal (also after a FILING_FAILED whose answer the officer resolved by
// hand). Without, the report goes to the tenant's filing endpoint, at most once per key:
//
//  1. the report is claimed in the database (APPROVED or FILING_FAILED → FILING, a conditional
//     UPDATE): a second call meanwhile is answered at once with 409 CONFLICT and the report;
//  2. the XML is sent outside any transaction with Idempotency-Key <id>-<attempt>;
//  3. the answer is recorded on the report whatever it was: FILED with its reference, or
//     FILING_FAILED with the status, a body excerpt and the reason (PROVIDER_UNAVAILABLE with the
//     report in data). A new call retries with the same key unless the endpoint refused it,
//     and never when the endpoint accepted it (a 2xx whose answer is unusable): that report is
//     filed with a manual reference.
//
// Errors: VALIDATION_ERROR without a reference and no endpoint, or a reference over 255
// characters; INVALID_STATUS_TRANSITION from DRAFT, PENDING_APPROVAL and FILED; CONFLICT while
// another call files it, or when the endpoint already accepted it (ErrAcceptedByEndpoint); PROVIDER_UNAVAILABLE when the endpoint's answer is unusable.
func (s *Service) File(ctx context.Context, c audit.Caller, id, reference string) (*Report, error) {
	cur, err := s.store.Get(ctx, c.TenantID, id)
	if err != nil {
		return nil, err
	}
	// Validated again before any filing, manual or over HTTP: settings or the schema may have
	// changed since the approval (docs/guide/reports.md "Validation").
	if cur.Status == StatusApproved || cur.Status == StatusFilingFailed {
		if err := s.validBefore(ctx, c.TenantID, id, cur.Status, "filing"); err != nil {
			return nil, err
		}
	}
	if strings.TrimSpace(reference) != "" {
		return s.fileManually(ctx, c, id, strings.TrimSpace(reference))
	}
	switch cur.Status {
	case StatusApproved:
	case StatusFilingFailed:
		if cur.FilingAnswer.Accepted() {
			return nil, ErrAcceptedByEndpoint(cur)
		}
	case StatusFiling:
		if cur.FilingClaimedAt != nil && s.now().Sub(*cur.FilingClaimedAt) < StaleFilingAfter {
			return nil, errFilingInProgress(cur)
		}
	default:
		return nil, apperr.Transition(cur.Status, StatusFiling, transitions[cur.Status])
	}
	set, err := s.store.Settings(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	if set.FilingURL == "" || s.filer == nil {
		return nil, apperr.Invalid("reference", "is required: the tenant has no filing endpoint configured")
	}
	var buf bytes.Buffer
	if err := s.Export(ctx, c.TenantID, id, &buf); err != nil {
		return nil, err
	}
	now := s.now().UTC()
	claimed, err := s.store.ClaimFiling(ctx, c.TenantID, id, now, now.Add(-StaleFilingAfter), func(r *Report) Effects {
		return Effects{Events: []Event{s.event(r, c, "FILING", "HTTP "+r.IdempotencyKey())},
			Audit: []audit.Event{auditEvent(c, "report.filing", r, nil)}}
	})
	if err != nil {
		return nil, err
	}
	// The submission and its record outlive the caller: a client that hangs up mid-send must
	// not leave the answer unrecorded (the filer has its own timeout).
	bg := context.WithoutCancel(ctx)
	key := claimed.IdempotencyKey()
	res, ferr := s.filer.File(bg, FilingRequest{URL: set.FilingURL, Token: set.FilingToken, ReportID: id, IdempotencyKey: key, XML: buf.Bytes()})
	ref, why, newKey := judge(res, ferr)
	answer := &FilingAnswer{IdempotencyKey: key, StatusCode: res.StatusCode, BodyExcerpt: excerpt(res.Body), Error: why, At: s.now().UTC()}
	out, err := s.store.Update(bg, c.TenantID, id, func(r *Report) (Effects, error) {
		if r.Status != StatusFiling || r.FilingAttempt != claimed.FilingAttempt {
			return Effects{}, errFilingInProgress(r) // a stale claim was taken over meanwhile
		}
		before := Summary(r)
		now := s.now().UTC()
		r.FilingAnswer, r.UpdatedAt = answer, now
		if why != "" {
			r.Status = StatusFilingFailed
			if newKey {
				r.FilingAttempt++
			}
			return Effects{Events: []Event{s.event(r, c, "FILING_FAILED", why)}, Audit: []audit.Event{auditEvent(c, "report.filing_failed", r, before)}}, nil
		}
		r.Status, r.FiledBy, r.FiledAt, r.FilingReference, r.FilingMethod = StatusFiled, c.UserID, &now, ref, FilingHTTP
		return Effects{Events: []Event{s.event(r, c, "FILED", FilingHTTP+" "+ref)}, Audit: []audit.Event{auditEvent(c, "report.filed", r, before)},
			Webhooks: []Webhook{{Event: EventReportFiled, Data: Summary(r)}}}, nil
	})
	if err != nil {
		return nil, err
	}
	if why != "" {
		next := "filing it again re-sends it with the same idempotency key"
		if answer.Accepted() {
			next = "the endpoint has it, so it is not sent again: file it with the reference the FIU gives"
		}
		return nil, apperr.New(apperr.ProviderUnavailable, "the filing endpoint's answer could not be used: "+why+
			"; the report is FILING_FAILED with the answer recorded, and "+next).
			WithData(FilingData(out))
	}
	return out, nil
}

// fileManually records the NFIU's reference of a manual upload.
func (s *Service) fileManually(ctx context.Context, c audit.Caller, id, reference string) (*Report, error) {
	if len(reference) > MaxReferenceLen {
		return nil, apperr.Invalid("reference", "at most 255 characters")
	}
	return s.store.Update(ctx, c.TenantID, id, func(r *Report) (Effects, error) {
		if r.Status == StatusFiling {
			return Effects{}, errFilingInProgress(r)
		}
		before := Summary(r)
		if err := r.move(StatusFiled); err != nil {
			return Effects{}, err
		}
		now := s.now().UTC()
		r.FiledBy, r.FiledAt, r.FilingReference, r.FilingMethod, r.UpdatedAt = c.UserID, &now, reference, FilingManual, now
		return Effects{Events: []Event{s.event(r, c, "FILED", FilingManual+" "+reference)}, Audit: []audit.Event{auditEvent(c, "report.filed", r, before)},
			Webhooks: []Webhook{{Event: EventReportFiled, Data: Summary(r)}}}, nil
	})
}

func excerpt(b string) string {
	if len(b) > MaxAnswerExcerpt {
		return b[:MaxAnswerExcerpt]
	}
	return b
}

func answerData(a *FilingAnswer) map[string]any {
	return map[string]any{"idempotencyKey": a.IdempotencyKey, "statusCode": a.StatusCode, "bodyExcerpt": a.BodyExcerpt,
		"error": a.Error, "at": a.At.UTC().Format(time.RFC3339Nano)}
}
