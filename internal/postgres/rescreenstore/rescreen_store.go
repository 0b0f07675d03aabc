package rescreenstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
)

// RescreenStore serves sanctions re-screening: the tenant's subjects (KYC applicants today;
// KYB and customer profiles join through their own sources) and the cases its hits open.
type RescreenStore struct{ db *postgres.DB }

// NewRescreenStore returns the store.
func NewRescreenStore(db *postgres.DB) *RescreenStore { return &RescreenStore{db: db} }

var (
	_ sanctions.SubjectSource = KYCSubjects{}
	_ sanctions.CaseOpener    = (*RescreenStore)(nil)
)

// KYCSubjects lists the tenant's KYC applicants that are still subjects of screening: every
// application that is not REJECTED or EXPIRED (approved customers included). The subject key is
// the BVN, else the NIN, for reviewed false positives.
type KYCSubjects struct{ DB *postgres.DB }

// EachSubject implements sanctions.SubjectSource.
func (k KYCSubjects) EachSubject(ctx context.Context, tenantID tenancy.TenantID, fn func(sanctions.Subject) error) error {
	var subjects []sanctions.Subject
	err := k.DB.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select id, first_name, last_name, entity_type, bvn, nin, bvn_sealed, nin_sealed from kyc_applications
			where tenant_id = $1 and status not in ('REJECTED', 'EXPIRED') order by created_at, id`, string(tenantID))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, first, last, et, bvn, nin string
			var bvnSealed, ninSealed []byte
			if err := rows.Scan(&id, &first, &last, &et, &bvn, &nin, &bvnSealed, &ninSealed); err != nil {
				return err
			}
			// The key is the number itself (reviewed false positives name it), opened from its
			// sealed column (kyc_pii.go).
			if bvn, err = k.DB.OpenKYCIdentifier(string(tenantID), id, "bvn", bvnSealed, bvn); err != nil {
				return err
			}
			if nin, err = k.DB.OpenKYCIdentifier(string(tenantID), id, "nin", ninSealed, nin); err != nil {
				return err
			}
			key := bvn
			if key == "" {
				key = nin
			}
			subjects = append(subjects, sanctions.Subject{TenantID: tenantID, Type: "KYC_APPLICATION", ID: id,
				Name: strings.TrimSpace(first + " " + last), EntityType: sanctions.EntityType(et), Key: key})
		}
		return rows.Err()
	})
	if err != nil {
		return fmt.Errorf("list KYC subjects: %w", err)
	}
	// fn runs outside the read transaction: it screens and records hits in transactions of its own.
	for _, s := range subjects {
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

// bandPriority is the priority of a re-screening case by match band (docs/design/design-choices.md §8).
var bandPriority = map[string]string{
	sanctions.BandBlock:    cases.PriorityCritical,
	sanctions.BandEscalate: cases.PriorityHigh,
	sanctions.BandReview:   cases.PriorityMedium,
}

// OpenCase implements sanctions.CaseOpener: it opens one automatic case per (subject, entry),
// with the officers' email, dashboard notification and case.created webhook of any automatic
// case, in one transaction; a second call for the same pair does nothing.
func (s *RescreenStore) OpenCase(ctx context.Context, r sanctions.CaseRequest) error {
	return s.db.InTenant(ctx, r.TenantID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `insert into sanctions_rescreen_cases (tenant_id, subject_type, subject_id, entry_id, case_id)
			values ($1, $2, $3, $4, '') on conflict do nothing`, string(r.TenantID), r.Subject.Type, r.Subject.ID, r.Match.EntryID)
		if err != nil {
			return fmt.Errorf("claim rescreen case: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		priority := bandPriority[r.Band]
		if priority == "" {
			priority = cases.PriorityMedium
		}
		p := cases.NewParams{
			Type:     r.Type,
			Priority: priority,
			Title:    truncate(fmt.Sprintf("Re-screening: %s matches %s (%s)", r.Subject.Name, r.Match.MatchedName, r.Match.List), 200),
			Description: fmt.Sprintf("List %s changed (%s). Subject %s %s %q scored %.2f (%s) against entry %s (source id %s). %s",
				r.Match.List, r.ListVersion, r.Subject.Type, r.Subject.ID, r.Subject.Name, r.Match.Score, r.Band,
				r.Match.EntryID, r.Match.SourceID, r.Match.Explanation.String()),
			Tags: []string{"rescreening", strings.ToLower(r.Match.List)},
		}
		if r.Subject.Type == "KYC_APPLICATION" {
			id := r.Subject.ID
			p.RelatedKYCApplicationID = &id
		}
		c, err := s.db.CreateCaseTx(ctx, tx, r.TenantID, p)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `update sanctions_rescreen_cases set case_id = $5
			where tenant_id = $1 and subject_type = $2 and subject_id = $3 and entry_id = $4`,
			string(r.TenantID), r.Subject.Type, r.Subject.ID, r.Match.EntryID, c.ID)
		return err
	})
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// KYBAndProfileSanctionsSubjects adapts the KYB and saved-profile subjects to
// sanctions.SubjectSource. A KYB application yields several subjects (the company, each director
// and owner); people are told apart by role and name in the subject id, so each gets its own
// recorded hit and case.
type KYBAndProfileSanctionsSubjects struct{ Q *KYBAndProfileSubjects }

var _ sanctions.SubjectSource = KYBAndProfileSanctionsSubjects{}

// EachSubject implements sanctions.SubjectSource.
func (a KYBAndProfileSanctionsSubjects) EachSubject(ctx context.Context, tenantID tenancy.TenantID, fn func(sanctions.Subject) error) error {
	return a.Q.EachSubject(ctx, tenantID, func(s RescreenSubject) error {
		id := s.ID
		if s.Role == "DIRECTOR" || s.Role == "BENEFICIAL_OWNER" {
			id = s.ID + "/" + strings.ToLower(s.Role) + "/" + s.Name
		}
		return fn(sanctions.Subject{TenantID: tenantID, Type: s.Type, ID: id, Name: s.Name,
			EntityType: sanctions.EntityType(s.EntityType), Key: s.Key})
	})
}
