// Package prose spells amounts and wire values inside the sentences the server writes for
// people (a case's description, a rule's reason, a timeline event), the way the dashboard spells
// them (web/src/ui/format.ts money and enumLabel; issue 50 point 4): "₦12,500,000.00", "in
// progress", "tier 1", "KYC". It is a leaf: it imports only shopspring/decimal, never a
// capability, a database or a transport.
package prose

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// symbols are the currencies written with a symbol before the amount; the others take their
// code after it ("1,500.00 XOF"), as web/src/ui/format.ts money does.
var symbols = map[string]string{"NGN": "₦", "USD": "$", "EUR": "€", "GBP": "£"}

// Money writes d with its currency's symbol, thousands separators and two decimals, from the
// decimal's own digits (never a float): 12500000 NGN → "₦12,500,000.00", -5 USD → "−$5.00",
// 1500.5 XOF → "1,500.50 XOF".
func Money(d decimal.Decimal, currency string) string {
	cur := strings.ToUpper(currency)
	s := d.StringFixed(2)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteString("−")
	}
	sym, ok := symbols[cur]
	b.WriteString(sym)
	for i, c := range []byte(intPart) {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(c)
	}
	b.WriteByte('.')
	b.WriteString(frac)
	if !ok && cur != "" {
		b.WriteString(" " + cur)
	}
	return b.String()
}

// Naira writes an NGN amount: Money(d, "NGN").
func Naira(d decimal.Decimal) string { return Money(d, "NGN") }

// acronyms keep their capitals inside words (the list of web/src/ui/format.ts); read only.
var acronyms = map[string]bool{
	"BVN": true, "NIN": true, "CAC": true, "KYC": true, "KYB": true, "PEP": true, "FX": true,
	"NGN": true, "STR": true, "CTR": true, "SAR": true, "FTR": true, "ID": true, "POS": true,
	"ATM": true, "USSD": true, "API": true, "URL": true, "CEL": true, "AML": true, "FATF": true,
	"UBO": true, "TIN": true, "RC": true, "OFAC": true, "UN": true, "EU": true, "UK": true,
	"MFA": true, "BYOL": true, "ISO": true, "NUBAN": true, "CBN": true, "NFIU": true, "IP": true,
	"SMS": true, "OTP": true, "TOTP": true, "HTTP": true, "JSON": true, "CSV": true, "SDN": true,
	"HMT": true, "ECOWAS": true, "SWIFT": true, "BIC": true, "LEI": true, "UETR": true,
}

// Enum writes a wire enum value as lower-case words for the middle of a sentence, acronyms
// kept: "IN_PROGRESS" → "in progress", "TIER_1" → "tier 1", "POST_NO_DEBIT" → "post no debit",
// "KYC_STATUS" → "KYC status". An empty value stays empty.
func Enum(v string) string {
	words := strings.FieldsFunc(v, func(r rune) bool { return r == '_' || r == ' ' })
	for i, w := range words {
		if acronyms[strings.ToUpper(w)] {
			words[i] = strings.ToUpper(w)
		} else {
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}

// Capital starts a sentence with a capital letter: "post no debit requested" → "Post no debit
// requested".
func Capital(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
