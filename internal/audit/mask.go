package audit

import (
	"strings"
	"unicode/utf8"
)

// Masking keeps personal data out of the audit log, which is immutable and readable by
// AUDITOR: a record names the identifier (enough for an auditor to tell two apart) without
// holding it (NDPA 2023 data minimisation; docs/guide/kyc.md "What is stored"). Migration
// 0011_kyc_pii_sealed.sql applies the same masks to records written before this existed; keep
// the two in step.

// MaskTail masks all but the last four characters of s ("22234567801" → "*******7801"). A
// value of four characters or fewer is masked entirely; "" stays "".
func MaskTail(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= 4 {
		return strings.Repeat("*", n)
	}
	r := []rune(s)
	return strings.Repeat("*", n-4) + string(r[n-4:])
}

// MaskEmail keeps the first character of the local part and the domain
// ("ada.obi@example.com" → "a***@example.com"); "" stays "", and a value without a local part
// or a domain becomes "***".
func MaskEmail(s string) string {
	if s == "" {
		return ""
	}
	i := strings.LastIndex(s, "@")
	if i <= 0 || i == len(s)-1 {
		return "***"
	}
	first, _ := utf8.DecodeRuneInString(s)
	return string(first) + "***@" + s[i+1:]
}
