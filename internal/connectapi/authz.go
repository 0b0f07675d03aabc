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

	// Wallet (decisions.md §6): every role may read the balance and the ledger.
	complydv1connect.WalletServiceGetWalletProcedure:              {roles: auth.AnyRole},
	complydv1connect.WalletServiceListWalletTransactionsProcedure: {roles: auth.AnyRole},
}
