package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/google/uuid"

	"github.com/complyd/complyd/internal/tenancy"
)

// Opaque token prefixes. Every opaque secret embeds its tenant (<prefix>_<tenant hex>_<secret>),
// so the store can scope the lookup by tenant before row-level security is satisfied.
const (
	PrefixRefresh = "rt"
	PrefixAPIKey  = "ck"
	PrefixMFA     = "mfa"
)

// NewOpaque returns a fresh opaque secret for tenant and the SHA-256 hash that is stored.
func NewOpaque(prefix string, tenant tenancy.TenantID) (token string, hash []byte) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand: " + err.Error())
	}
	tid := strings.ReplaceAll(string(tenant), "-", "")
	token = prefix + "_" + tid + "_" + base64.RawURLEncoding.EncodeToString(b)
	return token, HashOpaque(token)
}

// HashOpaque is the stored form of an opaque secret.
func HashOpaque(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// ParseOpaque returns the tenant embedded in an opaque secret of the given prefix.
func ParseOpaque(prefix, token string) (tenancy.TenantID, bool) {
	rest, ok := strings.CutPrefix(token, prefix+"_")
	if !ok {
		return "", false
	}
	tid, secret, ok := strings.Cut(rest, "_")
	if !ok || len(secret) < 40 {
		return "", false
	}
	id, err := uuid.Parse(tid)
	if err != nil {
		return "", false
	}
	return tenancy.TenantID(id.String()), true
}
