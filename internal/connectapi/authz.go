package connectapi

import (
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// access says who may call a procedure: declared once per RPC, enforced by the authentication
// middleware before any decoding (service-spec.md part 5, decisions.md §4).
type access struct {
	public   bool       // no credentials needed
	optional bool       // credentials used when present (logout)
	roles    auth.Roles // allowed roles when not public
}

// permissions is the role × RPC table. A procedure missing here is refused (fail closed).
var permissions = map[string]access{
	complydv1connect.AuthServiceLoginProcedure:        {public: true},
	complydv1connect.AuthServiceRefreshProcedure:      {public: true},
	complydv1connect.AuthServiceLogoutProcedure:       {optional: true},
	complydv1connect.AuthServiceSetupMfaProcedure:     {public: true},
	complydv1connect.AuthServiceVerifyMfaProcedure:    {public: true},
	complydv1connect.AuthServiceMeProcedure:           {roles: auth.AnyRole},
	complydv1connect.AuthServiceCreateApiKeyProcedure: {roles: auth.AdminOnly},
	complydv1connect.AuthServiceListApiKeysProcedure:  {roles: auth.AdminOnly},
	complydv1connect.AuthServiceRevokeApiKeyProcedure: {roles: auth.AdminOnly},

	complydv1connect.UserServiceListUsersProcedure:      {roles: auth.AdminOnly},
	complydv1connect.UserServiceCreateUserProcedure:     {roles: auth.AdminOnly},
	complydv1connect.UserServiceUpdateUserProcedure:     {roles: auth.AdminOnly},
	complydv1connect.UserServiceDeactivateUserProcedure: {roles: auth.AdminOnly},

	complydv1connect.AuditServiceListAuditEventsProcedure: {roles: auth.AdminAndAuditor},

	complydv1connect.TenantServiceGetSecurityProcedure:    {roles: auth.AdminOnly},
	complydv1connect.TenantServiceUpdateSecurityProcedure: {roles: auth.AdminOnly},

	// sanctions and watchlists (decisions.md §4, §10; docs/sanctions.md): BANK_ADMIN changes
	// watchlists, every role reads them and searches (ad-hoc screening changes nothing);
	// officers review false positives, every role lists them.
	complydv1connect.WatchlistServiceCreateWatchlistProcedure:      {roles: auth.AdminOnly},
	complydv1connect.WatchlistServiceListWatchlistsProcedure:       {roles: auth.AnyRole},
	complydv1connect.WatchlistServiceGetWatchlistProcedure:         {roles: auth.AnyRole},
	complydv1connect.WatchlistServiceDeleteWatchlistProcedure:      {roles: auth.AdminOnly},
	complydv1connect.WatchlistServiceAddWatchlistEntryProcedure:    {roles: auth.AdminOnly},
	complydv1connect.WatchlistServiceListWatchlistEntriesProcedure: {roles: auth.AnyRole},
	complydv1connect.WatchlistServiceDeleteWatchlistEntryProcedure: {roles: auth.AdminOnly},
	complydv1connect.SanctionsServiceSearchProcedure:               {roles: auth.AnyRole},
	complydv1connect.SanctionsServiceCreateFalsePositiveProcedure:  {roles: auth.Officers},
	complydv1connect.SanctionsServiceListFalsePositivesProcedure:   {roles: auth.AnyRole},
	complydv1connect.SanctionsServiceRevokeFalsePositiveProcedure:  {roles: auth.Officers},
}

// Access describes who may call one procedure, for documentation and tests.
type Access struct {
	Public   bool
	Optional bool
	Roles    auth.Roles
}

// Permissions returns a copy of the permission table.
func Permissions() map[string]Access {
	out := make(map[string]Access, len(permissions))
	for p, a := range permissions {
		out[p] = Access{Public: a.public, Optional: a.optional, Roles: append(auth.Roles(nil), a.roles...)}
	}
	return out
}
