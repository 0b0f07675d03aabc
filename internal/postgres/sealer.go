package postgres

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/complyd/complyd/internal/tenancy"
)

// sealer encrypts secrets the service must read back (TOTP seeds, webhook signing secrets, BYOL
// provider credentials) with AES-256-GCM, binding each to its tenant as additional data so a
// sealed value cannot be replayed onto another tenant. The key comes from
// COMPLYD_CREDENTIALS_KEY (docs/configuration.md).
type sealer struct{ aead cipher.AEAD }

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
	return &sealer{aead: aead}, nil
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
