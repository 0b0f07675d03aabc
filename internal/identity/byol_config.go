package identity

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/complyd/complyd/internal/apperr"
)

// BYOLConfig is the tenant's own identity provider, as set by PATCH /kyc/providers/config
// (docs/reference/specification.md 2.2: provider name, base address, API key or app id, endpoint paths, field
// mappings, match confidence threshold, maxTier, supportedVerifications). The key names are ours
// (docs/guide/identity-providers.md); internal/idhttp calls the provider it describes.
type BYOLConfig struct {
	ProviderName string `json:"providerName"`
	BaseURL      string `json:"baseUrl"`
	// APIKey is sent in APIKeyHeader (default "Authorization"), prefixed by APIKeyPrefix (for
	// example "Bearer ").
	APIKey       string `json:"apiKey,omitempty"`
	APIKeyHeader string `json:"apiKeyHeader,omitempty"`
	APIKeyPrefix string `json:"apiKeyPrefix,omitempty"`
	// AppID is sent in AppIDHeader (default "AppId").
	AppID       string        `json:"appId,omitempty"`
	AppIDHeader string        `json:"appIdHeader,omitempty"`
	Endpoints   BYOLEndpoints `json:"endpoints"`
	// RequestFields renames our request fields (RequestFieldNames) to the provider's JSON keys;
	// a field not listed is sent under our name.
	RequestFields map[string]string `json:"requestFields,omitempty"`
	// ResponseFields maps our result fields (ResponseFieldNames) to dotted JSON paths in the
	// provider's reply ("data.firstName", "entity.directors"); a field not listed is read from
	// the top-level key of our name.
	ResponseFields map[string]string `json:"responseFields,omitempty"`
	// NotFoundStatuses are HTTP statuses meaning "no such record" (default [404]).
	NotFoundStatuses []int `json:"notFoundStatuses,omitempty"`
	// MatchThreshold is the confidence at or above which a BVN/NIN check or face match matches
	// (default 0.8).
	MatchThreshold         float64            `json:"matchThreshold,omitempty"`
	TimeoutMs              int                `json:"timeoutMs,omitempty"` // default 10000, at most 30000
	MaxTier                string             `json:"maxTier"`
	SupportedVerifications []VerificationType `json:"supportedVerifications"`
}

// BYOLEndpoints are the provider's paths, relative to BaseURL, one per verification type.
type BYOLEndpoints struct {
	BVN       string `json:"bvn,omitempty"`
	NIN       string `json:"nin,omitempty"`
	CAC       string `json:"cac,omitempty"`
	Liveness  string `json:"liveness,omitempty"`
	FaceMatch string `json:"faceMatch,omitempty"`
}

// Path returns the endpoint path for v, or "".
func (e BYOLEndpoints) Path(v VerificationType) string {
	switch v {
	case VerifyBVN:
		return e.BVN
	case VerifyNIN:
		return e.NIN
	case VerifyCAC:
		return e.CAC
	case VerifyLiveness:
		return e.Liveness
	case VerifyFaceMatch:
		return e.FaceMatch
	}
	return ""
}

// RequestFieldNames are our request fields a BYOL mapping may rename: number (the BVN or NIN),
// firstName, lastName, dateOfBirth, rcNumber, selfieImage and referenceImage (base64).
func RequestFieldNames() []string {
	return []string{"number", "firstName", "lastName", "dateOfBirth", "rcNumber", "selfieImage", "referenceImage"}
}

// ResponseFieldNames are our result fields a BYOL mapping may locate in the provider's reply.
func ResponseFieldNames() []string {
	return []string{
		"found", "confidence", "firstName", "middleName", "lastName", "dateOfBirth", "phone", "gender", "photo",
		"isLive", "match", "rcNumber", "companyName", "address", "registrationDate", "status",
		"directors", "beneficialOwners",
	}
}

// Validate checks the configuration; errors are VALIDATION_ERROR with details naming each bad
// field by its JSON path under "byol".
func (c BYOLConfig) Validate() error {
	var d []apperr.FieldError
	bad := func(field, msg string) { d = append(d, apperr.FieldError{Field: "byol." + field, Message: msg}) }
	if strings.TrimSpace(c.ProviderName) == "" {
		bad("providerName", "is required")
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		bad("baseUrl", "must be an absolute http(s) URL")
	}
	if c.APIKey == "" && c.AppID == "" {
		bad("apiKey", "an apiKey or an appId is required")
	}
	if TierRank(c.MaxTier) == 0 {
		bad("maxTier", "must be TIER_1, TIER_2 or TIER_3")
	}
	if len(c.SupportedVerifications) == 0 {
		bad("supportedVerifications", "must name at least one verification type")
	}
	for i, v := range c.SupportedVerifications {
		if !v.Valid() {
			bad(fmt.Sprintf("supportedVerifications[%d]", i), "must be one of BVN, NIN, CAC, LIVENESS, FACE_MATCH")
			continue
		}
		if p := c.Endpoints.Path(v); !strings.HasPrefix(p, "/") {
			bad("endpoints."+endpointKey(v), "a path starting with / is required for a supported verification")
		}
	}
	for k := range c.RequestFields {
		if !slices.Contains(RequestFieldNames(), k) {
			bad("requestFields."+k, "unknown field")
		}
	}
	for k, v := range c.ResponseFields {
		if !slices.Contains(ResponseFieldNames(), k) {
			bad("responseFields."+k, "unknown field")
		} else if strings.TrimSpace(v) == "" {
			bad("responseFields."+k, "must be a dotted JSON path")
		}
	}
	for i, s := range c.NotFoundStatuses {
		if s < 400 || s > 499 {
			bad(fmt.Sprintf("notFoundStatuses[%d]", i), "must be a 4xx status")
		}
	}
	if c.MatchThreshold < 0 || c.MatchThreshold > 1 {
		bad("matchThreshold", "must be between 0 and 1")
	}
	if c.TimeoutMs < 0 || c.TimeoutMs > 30000 {
		bad("timeoutMs", "must be between 0 and 30000")
	}
	if len(d) > 0 {
		return apperr.InvalidFields(d...)
	}
	return nil
}

// Redacted returns a copy safe to return or log: the API key is masked.
func (c BYOLConfig) Redacted() BYOLConfig {
	if c.APIKey != "" {
		c.APIKey = "****"
	}
	return c
}

func endpointKey(v VerificationType) string {
	if v == VerifyFaceMatch {
		return "faceMatch"
	}
	return strings.ToLower(string(v))
}
