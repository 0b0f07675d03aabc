package idhttp

import (
	"context"
	"encoding/json"

	"github.com/complyd/complyd/internal/identity"
)

// CheckBVN asks the BVN endpoint. Errors: identity.ErrOutage, identity.ErrUnsupported.
func (p *Provider) CheckBVN(ctx context.Context, req identity.PersonCheck) (identity.PersonResult, error) {
	return p.person(ctx, identity.VerifyBVN, req)
}

// CheckNIN asks the NIN endpoint. Errors: identity.ErrOutage, identity.ErrUnsupported.
func (p *Provider) CheckNIN(ctx context.Context, req identity.PersonCheck) (identity.PersonResult, error) {
	return p.person(ctx, identity.VerifyNIN, req)
}

// person sends {number, firstName, lastName, dateOfBirth}. When the reply maps a confidence, the
// vendor's score decides (with an equal date of birth when the reply has one); otherwise the
// returned names are scored with identity.ComparePerson against the configured threshold.
func (p *Provider) person(ctx context.Context, v identity.VerificationType, req identity.PersonCheck) (identity.PersonResult, error) {
	rep, err := p.call(ctx, v, map[string]any{
		"number": req.Number, "firstName": req.FirstName, "lastName": req.LastName, "dateOfBirth": req.DateOfBirth,
	})
	if err != nil {
		return identity.PersonResult{}, err
	}
	res := identity.PersonResult{Provider: p.Name(), ProviderSource: identity.SourceBYOL}
	if rep.notFound || !p.found(rep.body, "firstName", "lastName") {
		res.Raw = json.RawMessage(`{"found":false}`)
		return res, nil
	}
	b := rep.body
	rec := identity.PersonRecord{
		FirstName: p.str(b, "firstName"), MiddleName: p.str(b, "middleName"), LastName: p.str(b, "lastName"),
		Phone: p.str(b, "phone"), Gender: p.str(b, "gender"), PhotoBase64: p.str(b, "photo"),
	}
	if d, ok := identity.ParseDate(p.str(b, "dateOfBirth")); ok {
		rec.DateOfBirth = d.Format("2006-01-02")
	}
	rec.HasPhoto = rec.PhotoBase64 != ""
	res.Found, res.Record = true, &rec
	if c, ok := p.confidence(b); ok {
		res.Confidence = c
		res.IsMatch = c >= p.threshold && (rec.DateOfBirth == "" || identity.SameDate(req.DateOfBirth, rec.DateOfBirth))
	} else {
		res.Confidence, res.IsMatch = identity.ComparePerson(req, rec, p.threshold)
	}
	res.Raw = p.raw(b)
	return res, nil
}

func (p *Provider) confidence(body any) (float64, bool) {
	v, ok := p.field(body, "confidence")
	if !ok {
		return 0, false
	}
	return asConfidence(v)
}

// LookupCAC asks the CAC endpoint with {rcNumber}. Directors and beneficial owners are read from
// their mapped paths as arrays of {name, nationality, appointmentDate} and {name, percentage}.
// Errors: identity.ErrOutage, identity.ErrUnsupported.
func (p *Provider) LookupCAC(ctx context.Context, req identity.CompanyLookup) (identity.CompanyResult, error) {
	rep, err := p.call(ctx, identity.VerifyCAC, map[string]any{"rcNumber": req.RCNumber})
	if err != nil {
		return identity.CompanyResult{}, err
	}
	res := identity.CompanyResult{Provider: p.Name(), ProviderSource: identity.SourceBYOL}
	if rep.notFound || !p.found(rep.body, "companyName") {
		res.Raw = json.RawMessage(`{"found":false}`)
		return res, nil
	}
	b := rep.body
	c := identity.Company{
		RCNumber: cmpOr(p.str(b, "rcNumber"), req.RCNumber), CompanyName: p.str(b, "companyName"),
		Address: p.str(b, "address"), RegistrationDate: p.str(b, "registrationDate"), Status: p.str(b, "status"),
		Directors: []identity.Director{}, BeneficialOwners: []identity.BeneficialOwner{},
	}
	if d, ok := identity.ParseDate(c.RegistrationDate); ok {
		c.RegistrationDate = d.Format("2006-01-02")
	}
	p.array(b, "directors", &c.Directors)
	p.array(b, "beneficialOwners", &c.BeneficialOwners)
	res.Found, res.Company, res.Raw = true, &c, p.raw(b)
	return res, nil
}

// array re-decodes the value at our field's path into out; a malformed array is left empty.
func (p *Provider) array(body any, ours string, out any) {
	v, ok := p.field(body, ours)
	if !ok {
		return
	}
	if b, err := json.Marshal(v); err == nil {
		_ = json.Unmarshal(b, out)
	}
}

// Liveness asks the liveness endpoint with {selfieImage} (base64). isLive and confidence come from
// their mapped paths; a reply without isLive is taken as live when confidence ≥ the threshold.
// Errors: identity.ErrOutage, identity.ErrUnsupported.
func (p *Provider) Liveness(ctx context.Context, req identity.LivenessCheck) (identity.LivenessResult, error) {
	rep, err := p.call(ctx, identity.VerifyLiveness, map[string]any{"selfieImage": req.Selfie.Base64()})
	if err != nil {
		return identity.LivenessResult{}, err
	}
	res := identity.LivenessResult{Provider: p.Name(), ProviderSource: identity.SourceBYOL}
	if rep.notFound {
		res.ReasonCode = identity.ReasonNoFace
		return res, nil
	}
	res.Confidence, _ = p.confidence(rep.body)
	if v, ok := p.field(rep.body, "isLive"); ok {
		res.IsLive, _ = asBool(v)
	} else {
		res.IsLive = res.Confidence >= p.threshold
	}
	if !res.IsLive {
		res.ReasonCode = identity.ReasonLivenessFailed
	}
	res.Raw = p.raw(rep.body)
	return res, nil
}

// FaceMatch asks the face-match endpoint with {selfieImage, referenceImage} (base64). Errors:
// identity.ErrOutage, identity.ErrUnsupported.
func (p *Provider) FaceMatch(ctx context.Context, req identity.FaceMatchCheck) (identity.FaceMatchResult, error) {
	rep, err := p.call(ctx, identity.VerifyFaceMatch, map[string]any{
		"selfieImage": req.Selfie.Base64(), "referenceImage": req.Reference.Base64(),
	})
	if err != nil {
		return identity.FaceMatchResult{}, err
	}
	res := identity.FaceMatchResult{Provider: p.Name(), ProviderSource: identity.SourceBYOL}
	if rep.notFound {
		return res, nil
	}
	res.Confidence, _ = p.confidence(rep.body)
	if v, ok := p.field(rep.body, "match"); ok {
		res.Match, _ = asBool(v)
	} else {
		res.Match = res.Confidence >= p.threshold
	}
	res.Raw = p.raw(rep.body)
	return res, nil
}
