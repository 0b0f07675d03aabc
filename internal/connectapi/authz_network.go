package connectapi

import (
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// The network and customer services' rows of the permission table (issue 16; docs/network.md,
// docs/customers.md), in a file of their own so parallel changes to authz.go do not collide.
// Reading is every role's (like transactions and cases); opening a case from a finding is the
// writers' (like CreateCase); recomputing a rating and recording a review are the officers'.
func init() {
	for proc, a := range map[string]access{
		complydv1connect.NetworkServiceGetAccountNetworkProcedure:        {roles: auth.AnyRole},
		complydv1connect.NetworkServiceGetCustomerNetworkProcedure:       {roles: auth.AnyRole},
		complydv1connect.NetworkServiceOpenNetworkCaseProcedure:          {roles: auth.Writers},
		complydv1connect.CustomerServiceSearchCustomersProcedure:         {roles: auth.AnyRole},
		complydv1connect.CustomerServiceGetCustomerOverviewProcedure:     {roles: auth.AnyRole},
		complydv1connect.CustomerServiceGetCustomerRiskProcedure:         {roles: auth.AnyRole},
		complydv1connect.CustomerServiceListCustomerRiskHistoryProcedure: {roles: auth.AnyRole},
		complydv1connect.CustomerServiceListDueReviewsProcedure:          {roles: auth.AnyRole},
		complydv1connect.CustomerServiceRecomputeCustomerRiskProcedure:   {roles: auth.Officers},
		complydv1connect.CustomerServiceCompleteCustomerReviewProcedure:  {roles: auth.Officers},
	} {
		permissions[proc] = a
	}
}
