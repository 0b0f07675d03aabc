package rescreenstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// Re-screening subject types and roles (docs/guide/kyb.md "Re-screening subjects"). The types are the
// strings of the sanctions re-screening port's Subject.Type.
const (
	SubjectKYBApplication  = "KYB_APPLICATION"
	SubjectCustomerProfile = "CUSTOMER_PROFILE"
	RoleCompany            = "COMPANY"
	RoleDirector           = "DIRECTOR"
	RoleBeneficialOwner    = "BENEFICIAL_OWNER"
	RoleIndividual         = "INDIVIDUAL"
)

// RescreenSubject is one name a tenant has on file from KYB applications and saved customer
// profiles, for periodic sanctions/PEP re-screening: a KYB company, each of its directors and
// beneficial owners, an individual profile, and a business profile with its directors and owners.
type RescreenSubject struct {
	// Type is KYB_APPLICATION or CUSTOMER_PROFILE; ID is the application or profile id.
	Type string
	ID   string
	// Role is COMPANY, DIRECTOR, BENEFICIAL_OWNER or INDIVIDUAL.
	Role string
	Name string
	// EntityType is INDIVIDUAL, BUSINESS, or "" when unknown (a beneficial owner may be a company).
	EntityType string
	// Key identifies the customer for reviewed false positives: the person's BVN, else NIN, else
	// the application or profile id.
	Key string
}

// KYBAndProfileSubjects lists re-screening subjects from KYB applications and saved customer
// profiles (the sanctions engineer's SubjectSource adapts it).
type KYBAndProfileSubjects struct{ db *postgres.DB }

// NewKYBAndProfileSubjects returns the query over db.
func NewKYBAndProfileSubjects(db *postgres.DB) *KYBAndProfileSubjects {
	return &KYBAndProfileSubjects{db: db}
}

// EachSubject calls fn for every subject of the tenant: KYB applications that are not REJECTED
// (company, directors, beneficial owners), then every saved profile. Rows are read in one
// tenant transaction and fn is called after it closed, so fn may take its time; an error from
// fn stops the walk and is returned.
func (q *KYBAndProfileSubjects) EachSubject(ctx context.Context, tenantID tenancy.TenantID, fn func(RescreenSubject) error) error {
	subjects, err := q.List(ctx, tenantID)
	if err != nil {
		return err
	}
	for _, s := range subjects {
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

// List returns every subject of the tenant (see EachSubject), KYB first, oldest first.
func (q *KYBAndProfileSubjects) List(ctx context.Context, tenantID tenancy.TenantID) ([]RescreenSubject, error) {
	var out []RescreenSubject
	err := q.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select id, company_name, directors, beneficial_owners from kyb_applications
			where tenant_id = $1 and status <> 'REJECTED' order by created_at, id`, string(tenantID))
		if err != nil {
			return fmt.Errorf("kyb subjects: %w", err)
		}
		type kybSubj struct {
			id, name     string
			dirs, owners []byte
		}
		apps, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kybSubj, error) {
			var k kybSubj
			return k, r.Scan(&k.id, &k.name, &k.dirs, &k.owners)
		})
		if err != nil {
			return fmt.Errorf("kyb subjects: %w", err)
		}
		for _, a := range apps {
			out = append(out, RescreenSubject{Type: SubjectKYBApplication, ID: a.id, Role: RoleCompany, Name: a.name, EntityType: "BUSINESS", Key: a.id})
			var dirs []kyb.Director
			var owners []kyb.Owner
			if err := json.Unmarshal(a.dirs, &dirs); err != nil {
				return fmt.Errorf("kyb subjects %s: %w", a.id, err)
			}
			if err := json.Unmarshal(a.owners, &owners); err != nil {
				return fmt.Errorf("kyb subjects %s: %w", a.id, err)
			}
			for _, d := range dirs {
				out = append(out, RescreenSubject{Type: SubjectKYBApplication, ID: a.id, Role: RoleDirector, Name: d.Name,
					EntityType: "INDIVIDUAL", Key: firstNonEmpty(d.BVN, d.NIN, a.id)})
			}
			for _, o := range owners {
				out = append(out, RescreenSubject{Type: SubjectKYBApplication, ID: a.id, Role: RoleBeneficialOwner, Name: o.Name,
					Key: firstNonEmpty(o.BVN, o.NIN, a.id)})
			}
		}
		rows, err = tx.Query(ctx, `select id, profile_type, display_name, bvn, nin, data from customer_profiles
			where tenant_id = $1 order by created_at, id`, string(tenantID))
		if err != nil {
			return fmt.Errorf("profile subjects: %w", err)
		}
		type profSubj struct {
			id, typ, name, bvn, nin string
			data                    []byte
		}
		profs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (profSubj, error) {
			var p profSubj
			return p, r.Scan(&p.id, &p.typ, &p.name, &p.bvn, &p.nin, &p.data)
		})
		if err != nil {
			return fmt.Errorf("profile subjects: %w", err)
		}
		for _, p := range profs {
			if p.typ == "INDIVIDUAL" {
				out = append(out, RescreenSubject{Type: SubjectCustomerProfile, ID: p.id, Role: RoleIndividual, Name: p.name,
					EntityType: "INDIVIDUAL", Key: firstNonEmpty(p.bvn, p.nin, p.id)})
				continue
			}
			out = append(out, RescreenSubject{Type: SubjectCustomerProfile, ID: p.id, Role: RoleCompany, Name: p.name, EntityType: "BUSINESS", Key: p.id})
			var d postgres.ProfileData
			if err := json.Unmarshal(p.data, &d); err != nil {
				return fmt.Errorf("profile subjects %s: %w", p.id, err)
			}
			if d.Company == nil {
				continue
			}
			for _, dir := range d.Company.Directors {
				out = append(out, RescreenSubject{Type: SubjectCustomerProfile, ID: p.id, Role: RoleDirector, Name: dir.Name, EntityType: "INDIVIDUAL", Key: p.id})
			}
			for _, o := range d.Company.BeneficialOwners {
				out = append(out, RescreenSubject{Type: SubjectCustomerProfile, ID: p.id, Role: RoleBeneficialOwner, Name: o.Name, Key: p.id})
			}
		}
		return nil
	})
	return out, err
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
