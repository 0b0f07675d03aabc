package identity

import (
	"context"

	"github.com/complyd/complyd/internal/wallet"
)

// Unbilled wraps p so that its answers are not charged (wallet.Waive): the sandbox outside
// `complyd dev`, where a tenant must never pay for a fictitious registry's answer. Outages and
// errors are passed through untouched (they are never charged anyway).
func Unbilled(p Provider) Provider { return unbilled{p} }

type unbilled struct{ Provider }

func (u unbilled) CheckBVN(ctx context.Context, req PersonCheck) (PersonResult, error) {
	res, err := u.Provider.CheckBVN(ctx, req)
	waiveOnAnswer(ctx, err)
	return res, err
}

func (u unbilled) CheckNIN(ctx context.Context, req PersonCheck) (PersonResult, error) {
	res, err := u.Provider.CheckNIN(ctx, req)
	waiveOnAnswer(ctx, err)
	return res, err
}

func (u unbilled) LookupCAC(ctx context.Context, req CompanyLookup) (CompanyResult, error) {
	res, err := u.Provider.LookupCAC(ctx, req)
	waiveOnAnswer(ctx, err)
	return res, err
}

func (u unbilled) Liveness(ctx context.Context, req LivenessCheck) (LivenessResult, error) {
	res, err := u.Provider.Liveness(ctx, req)
	waiveOnAnswer(ctx, err)
	return res, err
}

func (u unbilled) FaceMatch(ctx context.Context, req FaceMatchCheck) (FaceMatchResult, error) {
	res, err := u.Provider.FaceMatch(ctx, req)
	waiveOnAnswer(ctx, err)
	return res, err
}

// waiveOnAnswer waives the charge of the paid call in ctx when the provider answered.
func waiveOnAnswer(ctx context.Context, err error) {
	if err == nil {
		wallet.Waive(ctx)
	}
}
