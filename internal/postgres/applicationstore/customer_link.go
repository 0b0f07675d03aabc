package applicationstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// Every approved KYC applicant and KYB company is a customer (issue 48 point 6,
// docs/guide/customers.md "Where customers come from"). Before, customer profiles were made only by
// direct lookups, so a tenant that onboarded through applications had none: the customer and
// network views could not be opened. The approval now upserts the profile in its own
// transaction, keyed like a lookup's (BVN, else NIN, else the RC number), so a profile a lookup
// saved for the same identifier is the same customer, and records it on the application
// (customer_id, migration 0027). The accounts seen in screening follow from the profile's BVN
// (customer_store.go), as for a looked-up profile.

// Profile sources of the profiles an approval makes (a lookup's are BVN, NIN and CAC).
const (
	profileSourceKYC = "KYC"
	profileSourceKYB = "KYB"
)

// customerProfile is the profile row an approval upserts.
type customerProfile struct {
	Type, Key, DisplayName, BVN, NIN, RCNumber, Source string
	Data                                               postgres.ProfileData
}

// kycCustomer is the profile of an approved KYC applicant.
func kycCustomer(a kyc.Application) customerProfile {
	p := customerProfile{Type: "INDIVIDUAL", DisplayName: strings.TrimSpace(a.FirstName + " " + a.LastName), BVN: a.BVN, NIN: a.NIN,
		Source: profileSourceKYC}
	switch {
	case a.BVN != "":
		p.Key = "BVN:" + a.BVN
	case a.NIN != "":
		p.Key = "NIN:" + a.NIN
	default: // approved with neither number (the spec lets an officer approve from any state)
		p.Key = "KYC:" + a.ID
	}
	rec := &identity.PersonRecord{FirstName: a.FirstName, LastName: a.LastName, Phone: a.Phone}
	if a.DateOfBirth != nil {
		rec.DateOfBirth = a.DateOfBirth.Format(time.DateOnly)
	}
	p.Data.Person = rec
	return p
}

// kybCustomer is the profile of an approved KYB company: the registry record when CAC found it,
// else what the application says.
func kybCustomer(a kyb.Application) customerProfile {
	p := customerProfile{Type: "BUSINESS", DisplayName: a.CompanyName, RCNumber: a.RCNumber, Source: profileSourceKYB}
	if rc := identity.NormalizeRC(a.RCNumber); rc != "" {
		p.Key = "CAC:" + rc
	} else {
		p.Key = "KYB:" + a.ID
	}
	if a.Company != nil {
		p.Data.Company = a.Company
	} else {
		c := &identity.Company{RCNumber: a.RCNumber, CompanyName: a.CompanyName, Address: a.Address,
			Directors: []identity.Director{}, BeneficialOwners: []identity.BeneficialOwner{}}
		if a.IncorporationDate != nil {
			c.RegistrationDate = a.IncorporationDate.Format(time.DateOnly)
		}
		p.Data.Company = c
	}
	return p
}

// upsertCustomer saves p in tx and returns the profile's id: an existing profile with the same
// key (a lookup's, or an earlier approval's) keeps its id and record, so the customer's history
// stays one customer.
func upsertCustomer(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, p customerProfile, now time.Time) (string, error) {
	data, err := json.Marshal(p.Data)
	if err != nil {
		return "", fmt.Errorf("encode customer profile: %w", err)
	}
	var id string
	// The id has a lookup profile's form (lookup.ProfileIDPrefix and 32 hex digits).
	err = tx.QueryRow(ctx, `insert into customer_profiles (id, tenant_id, profile_type, profile_key, display_name, bvn, nin,
			rc_number, data, source, lookup_count, last_lookup_at, created_at, updated_at)
		values ('cus_' || replace(gen_random_uuid()::text, '-', ''), $1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $10, $10)
		on conflict (tenant_id, profile_key) do update set updated_at = excluded.updated_at,
			bvn = case when customer_profiles.bvn = '' then excluded.bvn else customer_profiles.bvn end,
			nin = case when customer_profiles.nin = '' then excluded.nin else customer_profiles.nin end
		returning id`, string(tenantID), p.Type, p.Key, p.DisplayName, p.BVN, p.NIN, p.RCNumber, data, p.Source, now).Scan(&id)
	if err != nil {
		return "", fmt.Errorf("save customer profile: %w", err)
	}
	return id, nil
}

// linkKYCCustomer makes the approved application a customer and records it on the row.
func linkKYCCustomer(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, a kyc.Application, now time.Time) (string, error) {
	id, err := upsertCustomer(ctx, tx, tenantID, kycCustomer(a), now)
	if err != nil {
		return "", err
	}
	if _, err := tx.Exec(ctx, `update kyc_applications set customer_id = $3 where tenant_id = $1 and id = $2`,
		string(tenantID), a.ID, id); err != nil {
		return "", fmt.Errorf("link KYC customer: %w", err)
	}
	return id, nil
}

// linkKYBCustomer is linkKYCCustomer for a KYB company.
func linkKYBCustomer(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, a kyb.Application, now time.Time) (string, error) {
	id, err := upsertCustomer(ctx, tx, tenantID, kybCustomer(a), now)
	if err != nil {
		return "", err
	}
	if _, err := tx.Exec(ctx, `update kyb_applications set customer_id = $3 where tenant_id = $1 and id = $2`,
		string(tenantID), a.ID, id); err != nil {
		return "", fmt.Errorf("link KYB customer: %w", err)
	}
	return id, nil
}
