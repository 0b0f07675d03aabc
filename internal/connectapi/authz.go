package connectapi

import (
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// access says who may call a procedure: declared once per RPC, enforced by the authentication
// middleware before any decoding (docs/reference/specification.md part 5, docs/design/design-choices.md §4).
type access struct {
	public   bool       // no credentials needed
	optional bool       // credentials used when present (logout)
	roles    auth.Roles // allowed roles when not public
	// perMessage: the handler spends the tenant's rate limit once per message (streams) or item
	// (batches), so one call of a thousand screenings costs what a thousand unary calls do; the
	// middleware does not count the call itself.
	perMessage bool
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

	// Cases (issue 5): docs/reference/specification.md part 5 and docs/design/design-choices.md §4. AUDITOR is read-only
	// everywhere, so it may list and view but not add notes (docs/guide/cases.md "Permissions").
	complydv1connect.CaseServiceCreateCaseProcedure:              {roles: auth.Writers},
	complydv1connect.CaseServiceListCasesProcedure:               {roles: auth.AnyRole},
	complydv1connect.CaseServiceGetCaseProcedure:                 {roles: auth.AnyRole},
	complydv1connect.CaseServiceUpdateCaseStatusProcedure:        {roles: auth.Officers},
	complydv1connect.CaseServiceAssignCaseProcedure:              {roles: auth.Officers},
	complydv1connect.CaseServiceAddCaseNoteProcedure:             {roles: auth.Writers},
	complydv1connect.CaseServiceProposeResolutionProcedure:       {roles: auth.Writers},
	complydv1connect.CaseServiceListResolutionProposalsProcedure: {roles: auth.AnyRole},
	complydv1connect.CaseServiceApproveResolutionProcedure:       {roles: auth.Officers},
	complydv1connect.CaseServiceRejectResolutionProcedure:        {roles: auth.Officers},
	complydv1connect.CaseServiceCreateInterdictionProcedure:      {roles: auth.Officers},
	complydv1connect.CaseServiceListInterdictionsProcedure:       {roles: auth.AnyRole},
	complydv1connect.CaseServiceConfirmInterdictionProcedure:     {roles: auth.Officers},
	// The case workspace (issue 50, docs/guide/dashboard-cases.md): reading is every role's (the
	// actions in the answer follow the caller's role); the assignable people are for those who
	// may assign (officers; COMPLIANCE_OFFICER may not list users); inboxes are tenant
	// configuration (BANK_ADMIN) but readable by all; saved views are any user's own; bulk moves
	// need the single move's roles.
	complydv1connect.CaseWorkspaceServiceGetCaseWorkspaceProcedure:      {roles: auth.AnyRole},
	complydv1connect.CaseWorkspaceServiceListAssignableUsersProcedure:   {roles: auth.Officers},
	complydv1connect.CaseWorkspaceServiceCreateCaseInboxProcedure:       {roles: auth.AdminOnly},
	complydv1connect.CaseWorkspaceServiceUpdateCaseInboxProcedure:       {roles: auth.AdminOnly},
	complydv1connect.CaseWorkspaceServiceListCaseInboxesProcedure:       {roles: auth.AnyRole},
	complydv1connect.CaseWorkspaceServiceCreateSavedCaseViewProcedure:   {roles: auth.AnyRole},
	complydv1connect.CaseWorkspaceServiceListSavedCaseViewsProcedure:    {roles: auth.AnyRole},
	complydv1connect.CaseWorkspaceServiceDeleteSavedCaseViewProcedure:   {roles: auth.AnyRole},
	complydv1connect.CaseWorkspaceServiceBulkAssignCasesProcedure:       {roles: auth.Officers},
	complydv1connect.CaseWorkspaceServiceBulkProposeResolutionProcedure: {roles: auth.Writers},
	// The tenant's case controls are tenant configuration (docs/design/design-choices.md §4): BANK_ADMIN.
	complydv1connect.CaseServiceGetCaseSettingsProcedure:    {roles: auth.AdminOnly},
	complydv1connect.CaseServiceUpdateCaseSettingsProcedure: {roles: auth.AdminOnly},
	// Interdiction queue and four-eyes lift (docs/guide/interdictions.md): reading is for every role,
	// lifting (asking, approving, rejecting) for the officers who may request and confirm.
	complydv1connect.InterdictionServiceListInterdictionQueueProcedure:   {roles: auth.AnyRole},
	complydv1connect.InterdictionServiceGetInterdictionProcedure:         {roles: auth.AnyRole},
	complydv1connect.InterdictionServiceRequestInterdictionLiftProcedure: {roles: auth.Officers},
	complydv1connect.InterdictionServiceApproveInterdictionLiftProcedure: {roles: auth.Officers},
	complydv1connect.InterdictionServiceRejectInterdictionLiftProcedure:  {roles: auth.Officers},

	// Webhooks (issue 5): configuration is tenant configuration (BANK_ADMIN, docs/design/design-choices.md §4);
	// the delivery log is readable by BANK_ADMIN and AUDITOR; a retry is BANK_ADMIN.
	complydv1connect.WebhookServiceGetWebhookConfigProcedure:      {roles: auth.AdminOnly},
	complydv1connect.WebhookServiceUpdateWebhookConfigProcedure:   {roles: auth.AdminOnly},
	complydv1connect.WebhookServiceListWebhookDeliveriesProcedure: {roles: auth.AdminAndAuditor},
	complydv1connect.WebhookServiceRetryWebhookDeliveryProcedure:  {roles: auth.AdminOnly},
	complydv1connect.WebhookServiceReplayWebhookDeliveryProcedure: {roles: auth.AdminOnly},
	complydv1connect.WebhookServiceListWebhookAttemptsProcedure:   {roles: auth.AdminAndAuditor},

	// The own account (docs/guide/dashboard.md "Users and roles"): every role changes its own
	// password and enrols its own MFA; resetting another user's MFA is user management.
	complydv1connect.AccountServiceChangePasswordProcedure:      {roles: auth.AnyRole},
	complydv1connect.AccountServiceStartMfaEnrolmentProcedure:   {roles: auth.AnyRole},
	complydv1connect.AccountServiceConfirmMfaEnrolmentProcedure: {roles: auth.AnyRole},
	complydv1connect.AccountServiceResetUserMfaProcedure:        {roles: auth.AdminOnly},

	// Branding is tenant configuration (docs/design/design-choices.md §4); every role reads it through /auth/me.
	complydv1connect.BrandingServiceGetBrandingProcedure:    {roles: auth.AnyRole},
	complydv1connect.BrandingServiceUpdateBrandingProcedure: {roles: auth.AdminOnly},

	// Notifications (issue 5): every user reads and marks their own.
	complydv1connect.NotificationServiceListNotificationsProcedure:    {roles: auth.AnyRole},
	complydv1connect.NotificationServiceMarkNotificationReadProcedure: {roles: auth.AnyRole},

	// Dashboard (issue 17): the Overview's aggregates are read by every role, like the lists
	// behind them (docs/design/design-choices.md §4) and the wallet.
	complydv1connect.DashboardServiceGetScreeningStatsProcedure:    {roles: auth.AnyRole},
	complydv1connect.DashboardServiceGetTopRulesProcedure:          {roles: auth.AnyRole},
	complydv1connect.DashboardServiceGetCaseStatsProcedure:         {roles: auth.AnyRole},
	complydv1connect.DashboardServiceGetApplicationFunnelProcedure: {roles: auth.AnyRole},
	complydv1connect.DashboardServiceGetSanctionsStatsProcedure:    {roles: auth.AnyRole},
	complydv1connect.DashboardServiceGetWebhookStatsProcedure:      {roles: auth.AnyRole},
	complydv1connect.DashboardServiceGetWalletStatsProcedure:       {roles: auth.AnyRole},
	complydv1connect.DashboardServiceGetDataFreshnessProcedure:     {roles: auth.AnyRole},

	// Wallet (docs/design/design-choices.md §6): every role may read the balance and the ledger.
	complydv1connect.WalletServiceGetWalletProcedure:              {roles: auth.AnyRole},
	complydv1connect.WalletServiceListWalletTransactionsProcedure: {roles: auth.AnyRole},

	// KYC applications (docs/reference/specification.md part 5, docs/design/design-choices.md §4): writers create, edit, verify
	// and upload; officers decide, review and delete documents; every role reads.
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
	complydv1connect.KycServiceReviewDocumentProcedure:      {roles: auth.Officers},
	complydv1connect.KycServiceUploadDocumentProcedure:      {roles: auth.Writers},

	// KYB applications (issue 7; docs/reference/specification.md part 5, docs/design/design-choices.md §4): like KYC.
	complydv1connect.KybServiceCreateKybApplicationProcedure:   {roles: auth.Writers},
	complydv1connect.KybServiceListKybApplicationsProcedure:    {roles: auth.AnyRole},
	complydv1connect.KybServiceGetKybApplicationProcedure:      {roles: auth.AnyRole},
	complydv1connect.KybServiceUpdateKybApplicationProcedure:   {roles: auth.Writers},
	complydv1connect.KybServiceVerifyCacProcedure:              {roles: auth.Writers},
	complydv1connect.KybServiceVerifyDirectorsProcedure:        {roles: auth.Writers},
	complydv1connect.KybServiceScreenBeneficialOwnersProcedure: {roles: auth.Writers},
	complydv1connect.KybServiceRunScreeningProcedure:           {roles: auth.Writers},
	complydv1connect.KybServiceApproveKybApplicationProcedure:  {roles: auth.Officers},
	complydv1connect.KybServiceRejectKybApplicationProcedure:   {roles: auth.Officers},
	complydv1connect.KybServiceListKybDocumentsProcedure:       {roles: auth.AnyRole},
	complydv1connect.KybServiceGetKybDocumentDownloadProcedure: {roles: auth.AnyRole},
	complydv1connect.KybServiceDeleteKybDocumentProcedure:      {roles: auth.Officers},
	complydv1connect.KybServiceUploadKybDocumentProcedure:      {roles: auth.Writers},

	// Direct lookups and customer profiles (issue 7; docs/design/design-choices.md §4, §6): lookups and creating
	// applications from profiles are writers'; every role reads history and profiles.
	complydv1connect.LookupServiceLookupBvnProcedure:                        {roles: auth.Writers},
	complydv1connect.LookupServiceLookupNinProcedure:                        {roles: auth.Writers},
	complydv1connect.LookupServiceLookupCacProcedure:                        {roles: auth.Writers},
	complydv1connect.LookupServiceListLookupsProcedure:                      {roles: auth.AnyRole},
	complydv1connect.LookupServiceListCustomersProcedure:                    {roles: auth.AnyRole},
	complydv1connect.LookupServiceGetCustomerProcedure:                      {roles: auth.AnyRole},
	complydv1connect.LookupServiceCreateKycApplicationFromCustomerProcedure: {roles: auth.Writers},
	complydv1connect.LookupServiceCreateKybApplicationFromCustomerProcedure: {roles: auth.Writers},

	// Identity providers (docs/design/design-choices.md §4, §6): tenant configuration is BANK_ADMIN.
	complydv1connect.IdentityProviderServiceGetProviderConfigProcedure:    {roles: auth.AdminOnly},
	complydv1connect.IdentityProviderServiceUpdateProviderConfigProcedure: {roles: auth.AdminOnly},
	complydv1connect.IdentityProviderServiceGetKycConfigProcedure:         {roles: auth.AdminOnly},
	// sanctions and watchlists (docs/design/design-choices.md §4, §10; docs/guide/sanctions.md): BANK_ADMIN changes
	// watchlists, every role reads them and searches (ad-hoc screening changes nothing);
	// officers review false positives, every role lists them.
	complydv1connect.WatchlistServiceCreateWatchlistProcedure:      {roles: auth.AdminOnly},
	complydv1connect.WatchlistServiceListWatchlistsProcedure:       {roles: auth.AnyRole},
	complydv1connect.WatchlistServiceGetWatchlistProcedure:         {roles: auth.AnyRole},
	complydv1connect.WatchlistServiceDeleteWatchlistProcedure:      {roles: auth.AdminOnly},
	complydv1connect.WatchlistServiceAddWatchlistEntryProcedure:    {roles: auth.AdminOnly},
	complydv1connect.WatchlistServiceListWatchlistEntriesProcedure: {roles: auth.AnyRole},
	complydv1connect.WatchlistServiceDeleteWatchlistEntryProcedure: {roles: auth.AdminOnly},
	// Bulk import is adding entries (BANK_ADMIN); the global lists' versions are read by all.
	complydv1connect.WatchlistServiceImportWatchlistEntriesProcedure: {roles: auth.AdminOnly},
	complydv1connect.WatchlistServiceListGlobalListsProcedure:        {roles: auth.AnyRole},
	complydv1connect.SanctionsServiceSearchProcedure:                 {roles: auth.AnyRole},
	complydv1connect.SanctionsServiceCreateFalsePositiveProcedure:    {roles: auth.Officers},
	complydv1connect.SanctionsServiceListFalsePositivesProcedure:     {roles: auth.AnyRole},
	complydv1connect.SanctionsServiceRevokeFalsePositiveProcedure:    {roles: auth.Officers},

	// Rule drafts (docs/guide/rules.md): officers draft, back-test, shadow and publish (never their
	// own draft, unless the tenant allows a single person); every role reads them; the
	// controls are tenant configuration (BANK_ADMIN).
	complydv1connect.RuleServiceCreateRuleDraftProcedure:          {roles: auth.Officers},
	complydv1connect.RuleServiceListRuleDraftsProcedure:           {roles: auth.AnyRole},
	complydv1connect.RuleServiceGetRuleDraftProcedure:             {roles: auth.AnyRole},
	complydv1connect.RuleServiceDiscardRuleDraftProcedure:         {roles: auth.Officers},
	complydv1connect.RuleServicePublishRuleDraftProcedure:         {roles: auth.Officers},
	complydv1connect.RuleServiceStartRuleDraftShadowProcedure:     {roles: auth.Officers},
	complydv1connect.RuleServiceStopRuleDraftShadowProcedure:      {roles: auth.Officers},
	complydv1connect.RuleServiceGetRuleDraftShadowReportProcedure: {roles: auth.AnyRole},
	complydv1connect.RuleServiceBacktestRuleDraftProcedure:        {roles: auth.Officers},
	complydv1connect.RuleServiceGetRuleControlsProcedure:          {roles: auth.AnyRole},
	complydv1connect.RuleServiceUpdateRuleControlsProcedure:       {roles: auth.AdminOnly},

	// Transaction screening (issue 3, docs/design/design-choices.md §4): writers screen; every role lists and
	// views; custom rules and tenant configuration are BANK_ADMIN (AUDITOR and the other roles
	// may read the rules, since they explain verdicts).
	complydv1connect.TransactionServiceScreenTransactionProcedure:      {roles: auth.Writers},
	complydv1connect.TransactionServiceScreenTransactionsProcedure:     {roles: auth.Writers, perMessage: true},
	complydv1connect.TransactionServiceScreenPaymentMessageProcedure:   {roles: auth.Writers, perMessage: true},
	complydv1connect.TransactionServiceListTransactionsProcedure:       {roles: auth.AnyRole},
	complydv1connect.TransactionServiceGetTransactionProcedure:         {roles: auth.AnyRole},
	complydv1connect.RuleServiceCreateRuleProcedure:                    {roles: auth.AdminOnly},
	complydv1connect.RuleServiceListRulesProcedure:                     {roles: auth.AnyRole},
	complydv1connect.RuleServiceGetRuleProcedure:                       {roles: auth.AnyRole},
	complydv1connect.RuleServiceUpdateRuleProcedure:                    {roles: auth.AdminOnly},
	complydv1connect.RuleServiceDeleteRuleProcedure:                    {roles: auth.AdminOnly},
	complydv1connect.RuleServiceListRuleVersionsProcedure:              {roles: auth.AnyRole},
	complydv1connect.RuleServiceGetRuleVersionProcedure:                {roles: auth.AnyRole},
	complydv1connect.RuleServiceValidateRuleExpressionProcedure:        {roles: auth.AdminOnly},
	complydv1connect.RuleServiceBacktestRuleProcedure:                  {roles: auth.AdminOnly},
	complydv1connect.TenantConfigServiceUpdateKycConfigProcedure:       {roles: auth.AdminOnly},
	complydv1connect.TenantConfigServiceGetFxRatesProcedure:            {roles: auth.AdminOnly},
	complydv1connect.TenantConfigServiceUpdateFxRatesProcedure:         {roles: auth.AdminOnly},
	complydv1connect.TenantConfigServiceGetLimitsProcedure:             {roles: auth.AdminOnly},
	complydv1connect.TenantConfigServiceUpdateLimitsProcedure:          {roles: auth.AdminOnly},
	complydv1connect.TenantConfigServiceGetScreeningPolicyProcedure:    {roles: auth.AdminOnly},
	complydv1connect.TenantConfigServiceUpdateScreeningPolicyProcedure: {roles: auth.AdminOnly},

	// The screening stream: writers, like ScreenTransaction; each message is counted against the
	// rate limit by the handler (docs/guide/screening.md "Streaming").
	complydv1connect.TransactionServiceScreenTransactionStreamProcedure: {roles: auth.Writers, perMessage: true},
	// Network and customers (issue 16; docs/guide/network.md, docs/guide/customers.md): reading is every role's,
	// opening a case from a finding the writers', recomputing and reviewing the officers'.
	complydv1connect.NetworkServiceGetAccountNetworkProcedure:        {roles: auth.AnyRole},
	complydv1connect.NetworkServiceGetCustomerNetworkProcedure:       {roles: auth.AnyRole},
	complydv1connect.NetworkServiceOpenNetworkCaseProcedure:          {roles: auth.Writers},
	complydv1connect.CustomerServiceSearchCustomersProcedure:         {roles: auth.AnyRole},
	complydv1connect.CustomerServiceGetCustomerOverviewProcedure:     {roles: auth.AnyRole},
	complydv1connect.CustomerServiceFindCustomerProcedure:            {roles: auth.AnyRole},
	complydv1connect.CustomerServiceGetCustomerRiskProcedure:         {roles: auth.AnyRole},
	complydv1connect.CustomerServiceListCustomerRiskHistoryProcedure: {roles: auth.AnyRole},
	complydv1connect.CustomerServiceListDueReviewsProcedure:          {roles: auth.AnyRole},
	complydv1connect.CustomerServiceRecomputeCustomerRiskProcedure:   {roles: auth.Officers},
	complydv1connect.CustomerServiceCompleteCustomerReviewProcedure:  {roles: auth.Officers},

	// Issue 16 (docs/guide/application-assignment.md, docs/guide/kyc-tiers.md, docs/guide/behavioral-profiles.md):
	// application assignment follows case assignment (officers); the tier table, an
	// application's tier standing and behavioral profiles are reads, open to every role.
	complydv1connect.ApplicationAssignmentServiceAssignKycApplicationProcedure:   {roles: auth.Officers},
	complydv1connect.ApplicationAssignmentServiceUnassignKycApplicationProcedure: {roles: auth.Officers},
	complydv1connect.ApplicationAssignmentServiceAssignKybApplicationProcedure:   {roles: auth.Officers},
	complydv1connect.ApplicationAssignmentServiceUnassignKybApplicationProcedure: {roles: auth.Officers},
	complydv1connect.KycTierServiceListTierRequirementsProcedure:                 {roles: auth.AnyRole},
	complydv1connect.KycTierServiceGetApplicationTierRequirementsProcedure:       {roles: auth.AnyRole},
	complydv1connect.BehavioralProfileServiceGetBehavioralProfileProcedure:       {roles: auth.AnyRole},
	// Countries (docs/guide/countries.md): every role reads the lists that explain verdicts; changing
	// them is tenant configuration (BANK_ADMIN, docs/design/design-choices.md §4).
	complydv1connect.CountryServiceListCountriesProcedure:         {roles: auth.AnyRole},
	complydv1connect.CountryServiceSetCountryOverrideProcedure:    {roles: auth.AdminOnly},
	complydv1connect.CountryServiceDeleteCountryOverrideProcedure: {roles: auth.AdminOnly},

	// Retention and archive (issue 54, docs/guide/retention.md): the archives are evidence an
	// examiner (AUDITOR) and the administrator read; the retention is tenant configuration;
	// officers restore for an examiner and place and lift legal holds, which every role reads.
	complydv1connect.ArchiveServiceGetRetentionProcedure:     {roles: auth.AnyRole},
	complydv1connect.ArchiveServiceUpdateRetentionProcedure:  {roles: auth.AdminOnly},
	complydv1connect.ArchiveServiceListArchivesProcedure:     {roles: auth.AdminAndAuditor},
	complydv1connect.ArchiveServiceGetArchiveProcedure:       {roles: auth.AdminAndAuditor},
	complydv1connect.ArchiveServiceListArchiveRowsProcedure:  {roles: auth.AdminAndAuditor},
	complydv1connect.ArchiveServiceRestoreArchiveProcedure:   {roles: auth.Officers},
	complydv1connect.LegalHoldServiceListLegalHoldsProcedure: {roles: auth.AnyRole},
	complydv1connect.LegalHoldServicePlaceLegalHoldProcedure: {roles: auth.Officers},
	complydv1connect.LegalHoldServiceLiftLegalHoldProcedure:  {roles: auth.Officers},
	// Engines (docs/design/engines.md): every role reads the configuration that explains verdicts; a
	// change is tenant configuration (BANK_ADMIN).
	complydv1connect.EngineServiceListEnginesProcedure:  {roles: auth.AnyRole},
	complydv1connect.EngineServiceUpdateEngineProcedure: {roles: auth.AdminOnly},

	// Regulatory reports (issue 14, docs/guide/reports.md "Permissions"): writers draft, edit and submit;
	// officers approve, reject and file, never the preparer (four eyes, like case resolutions);
	// every role reads and downloads; the goAML settings are tenant configuration.
	complydv1connect.ReportServiceCreateReportProcedure:         {roles: auth.Writers},
	complydv1connect.ReportServiceListReportsProcedure:          {roles: auth.AnyRole},
	complydv1connect.ReportServiceListReportDeadlinesProcedure:  {roles: auth.AnyRole},
	complydv1connect.ReportServiceGetReportProcedure:            {roles: auth.AnyRole},
	complydv1connect.ReportServiceUpdateReportProcedure:         {roles: auth.Writers},
	complydv1connect.ReportServiceSubmitReportProcedure:         {roles: auth.Writers},
	complydv1connect.ReportServiceApproveReportProcedure:        {roles: auth.Officers},
	complydv1connect.ReportServiceRejectReportProcedure:         {roles: auth.Officers},
	complydv1connect.ReportServiceFileReportProcedure:           {roles: auth.Officers},
	complydv1connect.ReportServiceDownloadReportProcedure:       {roles: auth.AnyRole},
	complydv1connect.ReportServiceValidateReportProcedure:       {roles: auth.AnyRole},
	complydv1connect.ReportServiceSuggestNarrativeProcedure:     {roles: auth.Writers},
	complydv1connect.ReportServiceGetReportSettingsProcedure:    {roles: auth.AdminOnly},
	complydv1connect.ReportServiceUpdateReportSettingsProcedure: {roles: auth.AdminOnly},
	complydv1connect.ReportServiceGetReportCodeListProcedure:    {roles: auth.AnyRole},
	complydv1connect.ReportServiceLoadReportCodeListProcedure:   {roles: auth.AdminOnly},
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
