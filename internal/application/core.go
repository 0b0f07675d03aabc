package application

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Kind names one kind of application and what its shared steps differ in.
type Kind struct {
	// Name is "kyc" or "kyb": the prefix of the audit actions (kyc.approved) and of the
	// resource type (kyc_application).
	Name string
	// Owner marks the kind's documents (document.OwnerKYC, document.OwnerKYB).
	Owner     document.OwnerKind
	Lifecycle Lifecycle
	// ApprovedNotes are the notes an approval without notes records ("" keeps the application's
	// notes as they are).
	ApprovedNotes string
}

// Action is the audit action of verb on this kind ("kyc" and "approved" give kyc.approved).
func (k Kind) Action(verb string) string { return k.Name + "." + verb }

// ResourceType is the audit resource type of this kind's applications (kyc_application).
func (k Kind) ResourceType() string { return k.Name + "_application" }

// Store is the persistence port the shared steps use; kyc.Store and kyb.Store embed it. Every
// method is one transaction scoped to the tenant; another tenant's application is NOT_FOUND.
type Store[A, C any] interface {
	// Create inserts a new application with its audit event and status webhook.
	Create(ctx context.Context, a A, ev audit.Event) error
	// Get returns an application. Errors: NOT_FOUND.
	Get(ctx context.Context, tenantID tenancy.TenantID, id string) (A, error)
	// List pages applications, newest first.
	List(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[A], error)
	// Update locks the application FOR UPDATE, runs fn (the domain transition) and writes the
	// row, the change's records, the settled charge, the audit event and, on a status change,
	// the webhook, all in one transaction. Errors: NOT_FOUND, fn's errors, INSUFFICIENT_FUNDS
	// from settling; any error rolls everything back.
	Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*A) (C, error)) (A, error)
	// Document returns one document of the application. Errors: NOT_FOUND.
	Document(ctx context.Context, tenantID tenancy.TenantID, applicationID, docID string) (document.Document, error)
	// Documents lists the application's documents, oldest first. Errors: NOT_FOUND.
	Documents(ctx context.Context, tenantID tenancy.TenantID, applicationID string) ([]document.Document, error)
}

// EvidenceFunc reads what an approval of application id rests on: the evidence record (open
// cases, the tenant's approval_evidence_required) and the open checks of the locked application.
type EvidenceFunc[A any] func(ctx context.Context, tenantID tenancy.TenantID, id string) (evidence.Record, func(*A) []evidence.Check, error)

// Hooks are what a kind adds to the shared steps.
type Hooks[A any, P Record[A], C any] struct {
	// Wrap makes the kind's change of the shared one.
	Wrap func(Change) C
	// Snapshot is the audited state of an application.
	Snapshot func(A) map[string]any
	// Uploaded, when set, runs on the locked application after an upload advanced it and adds to
	// the audit event's after (KYC: the tier rules and the tier).
	Uploaded func(a P, after map[string]any)
	// Evidence reads what an approval rests on.
	Evidence EvidenceFunc[A]
}

// Core runs the steps KYC and KYB share on one kind of application A (P is *A, C the kind's
// change that embeds Change). kyc.Service and kyb.Service embed it, so its methods are theirs.
type Core[A any, P Record[A], C any] struct {
	kind   Kind
	store  Store[A, C]
	blobs  document.Blobs
	now    func() time.Time
	logger *slog.Logger
	hooks  Hooks[A, P, C]
}

// New returns the core of one kind; it panics on a missing dependency or hook (Uploaded is
// optional).
func New[A any, P Record[A], C any](k Kind, store Store[A, C], blobs document.Blobs, now func() time.Time, logger *slog.Logger,
	h Hooks[A, P, C]) *Core[A, P, C] {
	if k.Name == "" || !k.Owner.Valid() || store == nil || blobs == nil || now == nil || logger == nil ||
		h.Wrap == nil || h.Snapshot == nil || h.Evidence == nil {
		panic("application: New needs every dependency")
	}
	return &Core[A, P, C]{kind: k, store: store, blobs: blobs, now: now, logger: logger, hooks: h}
}

// Insert stores a new application a (validated by its kind) with its audit event <kind>.created
// (after is the audited state) and its status webhook. Errors: the store's.
func (c *Core[A, P, C]) Insert(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, a A, after map[string]any) (A, error) {
	ev := audit.Event{TenantID: tenantID, Actor: actor, Action: c.kind.Action("created"), ResourceType: c.kind.ResourceType(),
		ResourceID: P(&a).Common().ID, After: after}
	if err := c.store.Create(ctx, a, ev); err != nil {
		var none A
		return none, err
	}
	return a, nil
}

// List pages applications. Errors: VALIDATION_ERROR for an unknown status.
func (c *Core[A, P, C]) List(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[A], error) {
	if err := c.kind.Lifecycle.CheckListStatus(f); err != nil {
		return paging.Result[A]{}, err
	}
	return c.store.List(ctx, tenantID, f, p)
}

// SetAssignee records who reviews the application (PATCH .../assign and .../unassign; "" clears
// it), audited as <kind>.assigned or <kind>.unassigned in the same transaction. The assignee's
// eligibility is review.Service's check, made before. Assigning the current assignee again
// changes nothing and writes no audit event. Assignment is allowed in every status: a decided
// application may still need a reviewer for its follow-up. Errors: NOT_FOUND.
func (c *Core[A, P, C]) SetAssignee(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, assigneeID string) (A, error) {
	var unchanged *A
	a, err := c.store.Update(ctx, tenantID, id, func(a *A) (C, error) {
		b := P(a).Common()
		if b.AssignedTo == assigneeID {
			cp := *a
			unchanged = &cp
			var none C
			return none, audit.ErrUnchanged
		}
		ev := audit.Assignment(tenantID, actor, c.kind.Name, c.kind.ResourceType(), b.ID, b.AssignedTo, assigneeID)
		b.AssignedTo = assigneeID
		b.UpdatedAt = c.now()
		return c.hooks.Wrap(Change{Audit: ev}), nil
	})
	if unchanged != nil {
		return *unchanged, nil
	}
	return a, err
}

// Upload is one document upload.
type Upload struct {
	DocumentType string
	FileName     string
	Body         io.Reader // streamed into the blob store, never buffered whole
}

// UploadDocument stores an upload (docs/guide/documents.md) and records it as PENDING_REVIEW: the
// first upload moves PENDING to DOCUMENT_UPLOADED (docs/design/design-choices.md §5). The object
// is written first (document.Ingest: sniffed, size-limited, cleaned up on failure), then the
// record in one transaction; if that transaction fails the object is deleted, so a failed upload
// leaves neither a record nor an object. Errors: VALIDATION_ERROR (documentType), NOT_FOUND,
// INVALID_STATUS_TRANSITION (terminal application), PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE.
func (c *Core[A, P, C]) UploadDocument(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, u Upload) (document.View, error) {
	lc := c.kind.Lifecycle
	dt, err := document.ParseDocumentType(u.DocumentType)
	if err != nil {
		return document.View{}, err
	}
	a, err := c.store.Get(ctx, tenantID, id)
	if err != nil {
		return document.View{}, err
	}
	if err := lc.CheckOpen(*P(&a).Common(), StatusDocumentUploaded); err != nil {
		return document.View{}, err
	}
	d := document.Document{ID: document.NewID(), TenantID: tenantID, OwnerKind: c.kind.Owner, ApplicationID: id,
		DocumentType: dt, FileName: document.CleanFileName(u.FileName), UploadedBy: actor.ID,
		VerificationStatus: document.StatusPendingReview}
	if d.StorageKey, err = document.Key(tenantID, c.kind.Owner, id, d.ID); err != nil {
		return document.View{}, err
	}
	st, err := document.Ingest(ctx, c.blobs, d.StorageKey, u.Body, document.MaxUploadBytes)
	if err != nil {
		return document.View{}, err
	}
	d.SizeBytes, d.MimeType, d.SHA256, d.UploadedAt = st.Size, st.MimeType, st.SHA256, c.now()
	_, err = c.store.Update(ctx, tenantID, id, func(a *A) (C, error) {
		b := P(a).Common()
		if err := lc.CheckOpen(*b, StatusDocumentUploaded); err != nil {
			var none C
			return none, err
		}
		before := c.hooks.Snapshot(*a)
		lc.Advance(b, StatusDocumentUploaded)
		after := map[string]any{"status": b.Status, "documentId": d.ID, "documentType": string(dt), "sizeBytes": d.SizeBytes,
			"mimeType": d.MimeType, "sha256": d.SHA256}
		if c.hooks.Uploaded != nil {
			c.hooks.Uploaded(a, after)
		}
		b.UpdatedAt = d.UploadedAt
		return c.hooks.Wrap(Change{AddDocument: &d, Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: c.kind.Action("document_uploaded"),
			ResourceType: c.kind.ResourceType(), ResourceID: b.ID, Before: before, After: after}}), nil
	})
	if err != nil {
		c.Links().DeleteObject(ctx, d.StorageKey)
		return document.View{}, err
	}
	return c.Links().View(ctx, d)
}

// Documents lists the application's documents with fresh presigned URLs. Errors: NOT_FOUND.
func (c *Core[A, P, C]) Documents(ctx context.Context, tenantID tenancy.TenantID, id string) ([]document.View, error) {
	docs, err := c.store.Documents(ctx, tenantID, id)
	if err != nil {
		return nil, err
	}
	return c.Links().Views(ctx, docs)
}

// Views returns documents with fresh presigned URLs (an application detail's documents).
func (c *Core[A, P, C]) Views(ctx context.Context, docs []document.Document) ([]document.View, error) {
	return c.Links().Views(ctx, docs)
}

// Download returns a presigned download URL for one document. Errors: NOT_FOUND.
func (c *Core[A, P, C]) Download(ctx context.Context, tenantID tenancy.TenantID, id, docID string) (document.View, error) {
	d, err := c.store.Document(ctx, tenantID, id, docID)
	if err != nil {
		return document.View{}, err
	}
	return c.Links().View(ctx, d)
}

// DeleteDocument removes a document's record (audited, in one transaction) and then its object
// (officers only; docs/design/design-choices.md §4). The status and tier are never lowered by a
// deletion. If the object delete fails after the record is gone, the error is logged and the
// orphan is named there; the caller still sees success because the document no longer exists
// for the API. Errors: NOT_FOUND.
func (c *Core[A, P, C]) DeleteDocument(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, docID string) error {
	d, err := c.store.Document(ctx, tenantID, id, docID)
	if err != nil {
		return err
	}
	_, err = c.store.Update(ctx, tenantID, id, func(a *A) (C, error) {
		b := P(a).Common()
		b.UpdatedAt = c.now()
		return c.hooks.Wrap(Change{DeleteDocumentID: docID, Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: c.kind.Action("document_deleted"),
			ResourceType: c.kind.ResourceType(), ResourceID: b.ID, Before: map[string]any{"documentId": d.ID,
				"documentType": string(d.DocumentType), "fileName": d.FileName, "sha256": d.SHA256}}}), nil
	})
	if err != nil {
		return err
	}
	c.Links().DeleteObject(ctx, d.StorageKey)
	return nil
}

// Links presigns and removes this kind's document objects.
func (c *Core[A, P, C]) Links() document.Links {
	return document.Links{Blobs: c.blobs, Now: c.now, Logger: c.logger}
}

// Decision is approve's and reject's body.
type Decision struct {
	RiskLevel string
	Notes     string // approve: notes; reject: the reason (required)
}

// Approve decides APPROVED from any non-terminal status (docs/design/design-choices.md §5);
// riskLevel defaults to LOW and the notes to Kind.ApprovedNotes. An approval over failed or
// missing checks or open cases records them as overridden with the notes given
// (internal/evidence), unless the tenant requires the evidence: then it is refused. Errors:
// VALIDATION_ERROR (riskLevel), NOT_FOUND, INVALID_STATUS_TRANSITION from a terminal status, or
// (409, data openChecks and openCases) over open evidence when the tenant requires it.
func (c *Core[A, P, C]) Approve(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, d Decision) (A, *evidence.Override, error) {
	if d.RiskLevel == "" {
		d.RiskLevel = "LOW"
	}
	given := d.Notes
	if strings.TrimSpace(d.Notes) == "" && c.kind.ApprovedNotes != "" {
		d.Notes = c.kind.ApprovedNotes
	}
	rec, openChecks, err := c.hooks.Evidence(ctx, tenantID, id)
	if err != nil {
		var none A
		return none, nil, err
	}
	var ov *evidence.Override
	a, err := c.decide(ctx, tenantID, actor, id, StatusApproved, d, func(a *A) (*evidence.Override, error) {
		// The facts are the locked row's; the evidence record was read just before.
		st := evidence.Standing{Checks: openChecks(a), OpenCases: rec.OpenCases}
		var err error
		ov, err = evidence.Approve(st, rec.Required, P(a).Common().Status, StatusApproved, []string{StatusRejected}, actor, given, c.now())
		return ov, err
	})
	if err != nil {
		var none A
		return none, nil, err
	}
	return a, ov, nil
}

// Reject decides REJECTED from any non-terminal status with a reason (kept as the notes);
// riskLevel defaults to HIGH. Errors: VALIDATION_ERROR (no reason, riskLevel), NOT_FOUND,
// INVALID_STATUS_TRANSITION from a terminal status.
func (c *Core[A, P, C]) Reject(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, d Decision) (A, error) {
	if strings.TrimSpace(d.Notes) == "" {
		var none A
		return none, apperr.Invalid("reason", "is required")
	}
	if d.RiskLevel == "" {
		d.RiskLevel = "HIGH"
	}
	return c.decide(ctx, tenantID, actor, id, StatusRejected, d, nil)
}

// decide applies an officer decision; gate, when set, runs on the locked application before
// the move and returns the approval's override (or refuses it).
func (c *Core[A, P, C]) decide(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, to string, d Decision,
	gate func(*A) (*evidence.Override, error)) (A, error) {
	switch d.RiskLevel {
	case "LOW", "MEDIUM", "HIGH":
	default:
		var none A
		return none, apperr.Invalid("riskLevel", "must be LOW, MEDIUM or HIGH")
	}
	now := c.now()
	return c.store.Update(ctx, tenantID, id, func(a *A) (C, error) {
		var none C
		b := P(a).Common()
		if err := c.kind.Lifecycle.CheckOpen(*b, to); err != nil {
			return none, err
		}
		var ov *evidence.Override
		if gate != nil {
			var err error
			if ov, err = gate(a); err != nil {
				return none, err
			}
		}
		before := c.hooks.Snapshot(*a)
		b.Status, b.RiskLevel, b.UpdatedAt = to, d.RiskLevel, now
		// Approving without notes keeps the application's notes (KYC's default notes make them
		// never empty); a rejection's reason always replaces them.
		if n := strings.TrimSpace(d.Notes); n != "" || to == StatusRejected {
			b.Notes = n
		}
		verb := "approved"
		if to == StatusRejected {
			verb = "rejected"
		}
		after := c.hooks.Snapshot(*a)
		if ov != nil {
			after["override"] = ov.Audit()
		}
		return c.hooks.Wrap(Change{Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: c.kind.Action(verb), ResourceType: c.kind.ResourceType(),
			ResourceID: b.ID, Before: before, After: after}, Override: ov}), nil
	})
}
