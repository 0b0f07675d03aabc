package postgres

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/complyd/complyd/internal/tenancy"
)

// sealer encrypts secrets the service must read back (TOTP seeds, webhook signing secrets, BYOL
// provider credentials) with AES-256-GCM, binding each to its tenant as additional data so a
// sealed value cannot be replayed onto another tenant. The key comes from
// COMPLYD_CREDENTIALS_KEY (docs/reference/configuration.md). It also seals customers' BVNs and NINs
// (kyc_pii.go), with a keyed hash for lookups.
type sealer struct {
	aead cipher.AEAD
	// lookupKey keys the lookup hashes of sealed identifiers (lookupHash). It is derived from the
	// sealing key with a label of its own, so a hash reveals nothing about the encryption key and
	// the two uses never share a key.
	lookupKey []byte
}

// lookupKeyLabel separates the lookup-hash key from the sealing key (HMAC-SHA256 of the label
// under the sealing key).
const lookupKeyLabel = "complyd/pii-lookup-hash/v1"

// sealedPrefix marks a sealed text value; text without it is a value stored before sealing
// existed and is read as is (and sealed on its next write).
const sealedPrefix = "sealed:v1:"

func newSealer(key []byte) (*sealer, error) {
	if len(key) != 32 {
		return nil, errors.New("credentials key must be 32 bytes")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(lookupKeyLabel))
	return &sealer{aead: aead, lookupKey: m.Sum(nil)}, nil
}

// seal returns nonce||ciphertext; nil for an empty plaintext.
func (s *sealer) seal(tenantID tenancy.TenantID, plain string) []byte {
	if plain == "" {
		return nil
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("crypto/rand: " + err.Error())
	}
	return s.aead.Seal(nonce, nonce, []byte(plain), []byte(tenantID))
}

// open reverses seal.
func (s *sealer) open(tenantID tenancy.TenantID, sealed []byte) (string, error) {
	if len(sealed) == 0 {
		return "", nil
	}
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return "", errors.New("sealed credential too short")
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], []byte(tenantID))
	if err != nil {
		return "", fmt.Errorf("open sealed credential (was COMPLYD_CREDENTIALS_KEY changed?): %w", err)
	}
	return string(plain), nil
}

// sealText seals plain into a text column value.
func (s *sealer) sealText(tenantID tenancy.TenantID, plain string) string {
	if plain == "" {
		return ""
	}
	return sealedPrefix + base64.RawStdEncoding.EncodeToString(s.seal(tenantID, plain))
}

// openText reverses sealText; unsealed legacy text is returned unchanged.
func (s *sealer) openText(tenantID tenancy.TenantID, v string) (string, error) {
	rest, ok := strings.CutPrefix(v, sealedPrefix)
	if !ok {
		return v, nil
	}
	b, err := base64.RawStdEncoding.DecodeString(rest)
	if err != nil {
		return "", fmt.Errorf("decode sealed credential: %w", err)
	}
	return s.open(tenantID, b)
}

// sealBound seals plain bound to ad (additional data naming the tenant, the column and the row,
// so a sealed value cannot be moved to another row or column); nil for an empty plaintext.
func (s *sealer) sealBound(ad []byte, plain string) []byte {
	if plain == "" {
		return nil
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("crypto/rand: " + err.Error())
	}
	return s.aead.Seal(nonce, nonce, []byte(plain), ad)
}

// openBound reverses sealBound.
func (s *sealer) openBound(ad, sealed []byte) (string, error) {
	if len(sealed) == 0 {
		return "", nil
	}
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return "", errors.New("sealed value too short")
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], ad)
	if err != nil {
		return "", fmt.Errorf("open sealed value (was COMPLYD_CREDENTIALS_KEY changed?): %w", err)
	}
	return string(plain), nil
}

// lookupHash is the keyed hash (HMAC-SHA256 under lookupKey) that finds a sealed identifier by
// equality: kind (for example "bvn"), the tenant and the value, NUL-separated, so equal numbers
// of two tenants or of two kinds hash apart. nil for an empty value. Without the key the 11-digit
// space cannot be enumerated against the stored hashes.
func (s *sealer) lookupHash(kind string, tenantID tenancy.TenantID, value string) []byte {
	if value == "" {
		return nil
	}
	m := hmac.New(sha256.New, s.lookupKey)
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write([]byte(tenantID))
	m.Write([]byte{0})
	m.Write([]byte(value))
	return m.Sum(nil)
}
