package document

import (
	"bytes"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The only media types an upload may have (docs/design/design-choices.md §7).
const (
	MIMEJPEG = "image/jpeg"
	MIMEPNG  = "image/png"
	MIMEPDF  = "application/pdf"
)

// SniffLen is how many leading bytes Sniff needs at most.
const SniffLen = 8

var magics = []struct {
	prefix []byte
	mime   string
}{
	{[]byte{0xFF, 0xD8, 0xFF}, MIMEJPEG},                           // SOI + first marker
	{[]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, MIMEPNG}, // PNG signature
	{[]byte("%PDF-"), MIMEPDF},                                     // PDF header
}

// Sniff returns the media type of content whose first bytes are head, judged only by magic
// bytes: JPEG, PNG or PDF. It returns "" for anything else. The file name and the client's
// Content-Type are never consulted (docs/design/design-choices.md §7). A PDF must start with "%PDF-" at byte 0;
// PDFs with leading garbage, which readers tolerate, are refused.
func Sniff(head []byte) string {
	for _, m := range magics {
		if bytes.HasPrefix(head, m.prefix) {
			return m.mime
		}
	}
	return ""
}

// maxFileName bounds a cleaned file name, in bytes.
const maxFileName = 200

// CleanFileName makes a client-supplied file name safe to store and to put in a
// Content-Disposition header: it keeps the last path element (either slash), drops control
// characters, quotes and backslashes, trims spaces and dots at the ends, repairs invalid UTF-8,
// and caps the length at 200 bytes. An empty result becomes "document".
func CleanFileName(name string) string {
	name = strings.ReplaceAll(name, `\`, "/")
	name = path.Base(name)
	name = strings.ToValidUTF8(name, "")
	var b strings.Builder
	for _, r := range name {
		if unicode.IsControl(r) || r == '"' || r == '/' || r == utf8.RuneError {
			continue
		}
		b.WriteRune(r)
	}
	name = b.String()
	for len(name) > maxFileName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	// Trimmed after the cap: cutting at 200 bytes can leave a space or a dot at the end.
	name = strings.Trim(name, " .")
	if name == "" {
		return "document"
	}
	return name
}
