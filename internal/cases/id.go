package cases

import (
	"fmt"

	"github.com/complyd/complyd/internal/ids"
)

// Id prefixes (docs/reference/specification.md Conventions 6: prefixed opaque ids).
const (
	PrefixCase         = "case_"
	PrefixEvent        = "cevt_"
	PrefixProposal     = "prop_"
	PrefixInterdiction = "intd_"
)

// NewID returns prefix followed by 26 characters that sort by creation time (ids.New).
func NewID(prefix string) string { return ids.New(prefix) }

// FormatNumber returns the case number CASE-<year>-<5-digit sequence>, e.g.
// FormatNumber(2026, 42) = "CASE-2026-00042" (docs/reference/specification.md 2.3). Sequences above 99999 keep
// all their digits rather than wrap.
func FormatNumber(year, seq int) string {
	return fmt.Sprintf("CASE-%04d-%05d", year, seq)
}
