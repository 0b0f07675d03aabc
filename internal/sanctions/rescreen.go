package sanctions

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/complyd/complyd/internal/tenancy"
)

// RescreenArgs is the job enqueued, in the transaction of a list change, to
// re-screen one tenant's subjects (docs/guide/sanctions.md, Re-screening). List
// names the list that changed; EntryID is set when one tenant entry was
// added (only that entry is considered).
type RescreenArgs struct {
	TenantID    string `json:"tenantId"`
	List        string `json:"list"`
	ListVersion string `json:"listVersion"`
	EntryID     string `json:"entryId,omitempty"`
	// EntryIDs, with List, narrows the job to these entries of the list (an FtM delta's added
	// and modified parties).
	EntryIDs []string `json:"entryIds,omitempty"`
	// Skip tells the store to enqueue nothing: the change needs no re-screening (a delta that
	// only deleted entries, or changed none).
	Skip bool `json:"-"`
}

// Kind implements river.JobArgs.
func (RescreenArgs) Kind() string { return "sanctions_rescreen" }

// Subject types a SubjectSource may return.
const (
	SubjectKYC      = "KYC_APPLICATION"
	SubjectKYB      = "KYB_APPLICATION"
	SubjectCustomer = "CUSTOMER_PROFILE"
)

// Subject is one party a tenant has on file (KYC/KYB application, saved
// customer profile, director, owner) that re-screening checks.
type Subject struct {
	TenantID tenancy.TenantID
	Type     string
	ID       string
	Name     string
	// EntityType is INDIVIDUAL, BUSINESS or "".
	EntityType EntityType
	// Key is the subject key reviewed false positives are filed under (BVN,
	// account number, profile id); "" when none.
	Key string
}

// SubjectSource lists a tenant's subjects. The KYC, KYB and customer
// capabilities implement it (wired in internal/app).
type SubjectSource interface {
	// EachSubject calls fn for every subject of the tenant; an error from fn stops the walk.
	EachSubject(ctx context.Context, tenantID tenancy.TenantID, fn func(Subject) error) error
}

// CaseRequest asks for a case about a re-screening hit.
type CaseRequest struct {
	TenantID tenancy.TenantID
	// Type is SANCTIONS_HIT (SANCTIONS and INTERNAL lists) or PEP_MATCH.
	Type    string
	Subject Subject
	Match   Match
	// Band is BLOCK, ESCALATE or REVIEW (docs/design/design-choices.md §8).
	Band string
	// ListVersion identifies the list version that produced the hit; with
	// the subject and entry it is the idempotency key.
	ListVersion string
}

// Case types opened by re-screening (docs/design/design-choices.md §8).
const (
	CaseSanctionsHit = "SANCTIONS_HIT"
	CasePEPMatch     = "PEP_MATCH"
)

// CaseOpener opens a case for a re-screening hit. It must be idempotent per
// (subject, entry, list version): a retried job may ask twice.
type CaseOpener interface {
	OpenCase(ctx context.Context, req CaseRequest) error
}

// RescreenHit is one recorded re-screening hit.
type RescreenHit struct {
	SubjectType string
	SubjectID   string
	EntryID     string
	List        string
	ListVersion string
	Score       float64
}

// Rescreener runs RescreenArgs jobs: it screens every subject of the tenant
// against the matcher, keeps the hits on the changed list (or the added
// entry), drops reviewed false positives, records new hits and opens a case
// for each one not recorded before.
type Rescreener struct {
	Service  *Service
	Subjects SubjectSource
	Cases    CaseOpener
	Logger   *slog.Logger
}

// RescreenResult counts what one run did.
type RescreenResult struct {
	Subjects int
	Hits     int
	NewCases int
}

// Run executes one job.
func (r *Rescreener) Run(ctx context.Context, a RescreenArgs) (RescreenResult, error) {
	var res RescreenResult
	tenantID := tenancy.TenantID(a.TenantID)
	// The job commits with the change that caused it, and may run before this replica's matcher
	// heard of the change (the API updates it after commit; other replicas by NOTIFY). Reload
	// what the job is about first, so it never screens against the previous version.
	if a.EntryID != "" {
		if err := r.Service.ReloadTenant(ctx, tenantID); err != nil {
			return res, fmt.Errorf("reload tenant lists: %w", err)
		}
	} else if a.List != "" {
		if err := r.Service.ReloadList(ctx, a.List); err != nil {
			return res, fmt.Errorf("reload list %s: %w", a.List, err)
		}
	}
	only := make(map[string]bool, len(a.EntryIDs))
	for _, id := range a.EntryIDs {
		only[id] = true
	}
	err := r.Subjects.EachSubject(ctx, tenantID, func(s Subject) error {
		res.Subjects++
		matches, err := r.Service.Screen(ctx, tenantID, ScreenParams{Name: s.Name, EntityType: s.EntityType, SubjectKey: s.Key, Limit: MaxLimit})
		if err != nil {
			return err
		}
		for _, m := range matches {
			if a.EntryID != "" && m.EntryID != a.EntryID || a.EntryID == "" && a.List != "" && m.List != a.List ||
				len(only) > 0 && !only[m.EntryID] {
				continue
			}
			res.Hits++
			typ := CaseSanctionsHit
			if m.ListType == ListTypePEP {
				typ = CasePEPMatch
			}
			req := CaseRequest{TenantID: tenantID, Type: typ, Subject: s, Match: m, Band: Band(m.Score), ListVersion: a.ListVersion}
			fresh, err := r.Service.store.RecordRescreenHit(ctx, tenantID, RescreenHit{SubjectType: s.Type, SubjectID: s.ID,
				EntryID: m.EntryID, List: m.List, ListVersion: a.ListVersion, Score: m.Score},
				func() error { return r.Cases.OpenCase(ctx, req) })
			if err != nil {
				return fmt.Errorf("record hit: %w", err)
			}
			if fresh {
				res.NewCases++
			}
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("rescreen tenant %s: %w", a.TenantID, err)
	}
	if r.Logger != nil {
		r.Logger.InfoContext(ctx, "sanctions rescreen done", "tenant", a.TenantID, "list", a.List, "version", a.ListVersion,
			"subjects", res.Subjects, "hits", res.Hits, "newCases", res.NewCases)
	}
	return res, nil
}
