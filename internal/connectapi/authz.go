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

	// KYC applications (service-spec.md part 5, decisions.md §4): writers create, edit, verify
	// and upload; officers decide and delete documents; every role reads.
	complydv1connect.KycServiceCreateApplicationProcedure:   {roles: auth.Writers},
	complydv1connect.KycServiceListApplicationsProcedure:    {roles: auth.AnyRole},
	complydv1connect.KycServiceGetApplicationProcedure:      {roles: auth.AnyRole},
	complydv1connect.KycServiceUpdateApplicationProcedure:   {roles: auth.Writers},
	complydv1connect.KycServiceApproveApplicationProcedure:  {roles: auth.Officers},
	complydv1connect.KycServiceRejectApplicationProcedure:   {roles: auth.Officers},
	complydv1connect.KycServiceUpgradeTierProcedure:         {roles: auth.Writers},
	complydv1connect.KycServiceVerifyBvnProcedure:           {roles: auth.Writers},
	complydv1connect.KycServiceVerifyNinProcedure:           {roles: auth.Writers},
	complydv1connect.KycServiceLivenessCheckProcedure:       {roles: auth.Writers},
	complydv1connect.KycServiceBiometricVerifyProcedure:     {roles: auth.Writers},
	complydv1connect.KycServiceFaceMatchProcedure:           {roles: auth.Writers},
	complydv1connect.KycServiceListDocumentsProcedure:       {roles: auth.AnyRole},
	complydv1connect.KycServiceGetDocumentDownloadProcedure: {roles: auth.AnyRole},
	complydv1connect.KycServiceDeleteDocumentProcedure:      {roles: auth.Officers},
	complydv1connect.KycServiceUploadDocumentProcedure:      {roles: auth.Writers},

	// Identity providers (decisions.md §4, §6): tenant configuration is BANK_ADMIN.
	complydv1connect.IdentityProviderServiceGetProviderConfigProcedure:    {roles: auth.AdminOnly},
	complydv1connect.IdentityProviderServiceUpdateProviderConfigProcedure: {roles: auth.AdminOnly},
	complydv1connect.IdentityProviderServiceGetKycConfigProcedure:         {roles: auth.AdminOnly},
}
