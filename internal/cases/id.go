package cases

import (
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"strings"
)

// Id prefixes (service-spec.md Conventions 6: prefixed opaque ids).
const (
	PrefixCase         = "case_"
	PrefixEvent        = "cevt_"
	PrefixProposal     = "prop_"
	PrefixInterdiction = "intd_"
)

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewID returns prefix followed by 26 lowercase base32 characters of 128 random bits.
func NewID(prefix string) string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return prefix + strings.ToLower(idEncoding.EncodeToString(b[:]))
}

// FormatNumber returns the case number CASE-<year>-<5-digit sequence>, e.g.
// FormatNumber(2026, 42) = "CASE-2026-00042" (service-spec.md 2.3). Sequences above 99999 keep
// all their digits rather than wrap.
func FormatNumber(year, seq int) string {
	return fmt.Sprintf("CASE-%04d-%05d", year, seq)
}
