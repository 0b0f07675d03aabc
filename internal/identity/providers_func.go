package identity

import (
	"context"

	"github.com/complyd/complyd/internal/tenancy"
)

// ProvidersFunc returns the tenant's providers (embedded and, in BYOL mode, its own) and the
// provider configuration that selects among them. KYC, KYB and the lookups take the same one
// (internal/app builds it with the BYOL provider).
type ProvidersFunc func(ctx context.Context, tenantID tenancy.TenantID) (Providers, ProviderConfig, error)
