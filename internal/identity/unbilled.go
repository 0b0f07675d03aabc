package identity

import (
	"context"

	"github.com/complyd/complyd/internal/wallet"
)

// Unbilled wraps p so that its answers are not charged: each answer carries Charge
// wallet.Waived, which the paid call returns to wallet.Paid. It wraps the sandbox outside
// `complyd dev`, where a tenant must never pay for a fictitious registry's answer. Outages and
// errors are passed through untouched (they are never charged anyway).
func Unbilled(p Provider) Provider { return unbilled{p} }

type unbilled struct{ Provider }

func (u unbilled) CheckBVN(ctx context.Context, req PersonCheck) (PersonResult, error) {
	res, err := u.Provider.CheckBVN(ctx, req)
	res.Charge = wallet.Waived
	return res, err
}

func (u unbilled) CheckNIN(ctx context.Context, req PersonCheck) (PersonResult, error) {
	res, err := u.Provider.CheckNIN(ctx, req)
	res.Charge = wallet.Waived
	return res, err
}

func (u unbilled) LookupCAC(ctx context.Context, req CompanyLookup) (CompanyResult, error) {
	res, err := u.Provider.LookupCAC(ctx, req)
	res.Charge = wallet.Waived
	return res, err
}

func (u unbilled) Liveness(ctx context.Context, req LivenessCheck) (LivenessResult, error) {
	res, err := u.Provider.Liveness(ctx, req)
	res.Charge = wallet.Waived
	return res, err
}

func (u unbilled) FaceMatch(ctx context.Context, req FaceMatchCheck) (FaceMatchResult, error) {
	res, err := u.Provider.FaceMatch(ctx, req)
	res.Charge = wallet.Waived
	return res, err
}
