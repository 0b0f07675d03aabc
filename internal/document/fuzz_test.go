package document_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document"
)

// The fuzz targets of what an upload reaches before it is stored: content sniffing, the
// streaming ingest (size limit and hash) and the cleaning of the client's file name. Seeds
// (tiny real JPEG, PNG and PDF files) are under testdata/fuzz/<Target>/.

// FuzzSniff checks that Sniff answers only one of the three allowed media types or "", that it
// answers a type exactly when the content starts with that type's magic bytes, and that it
// looks at no more than SniffLen bytes.
func FuzzSniff(f *testing.F) {
	f.Add([]byte("%PDF-1.7\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := document.Sniff(data)
		want := ""
		switch {
		case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
			want = document.MIMEJPEG
		case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
			want = document.MIMEPNG
		case bytes.HasPrefix(data, []byte("%PDF-")):
			want = document.MIMEPDF
		}
		if got != want {
			t.Fatalf("Sniff(%q) = %q, want %q", data, got, want)
		}
		if head := data[:min(len(data), document.SniffLen)]; document.Sniff(head) != got {
			t.Fatalf("Sniff looks past its %d-byte head", document.SniffLen)
		}
	})
}

// FuzzCleanFileName checks the promises of CleanFileName on any client-supplied name: valid
// UTF-8, non-empty, at most 200 bytes, no control character, quote, slash or backslash, no
// space or dot at either end (the header and the file systems downloads land on), and that
// cleaning a cleaned name changes nothing.
func FuzzCleanFileName(f *testing.F) {
	for _, s := range []string{"passport.pdf", `C:\Users\x\id card.jpg`, "../../etc/passwd", "a\"b\x00c.png", " . ", strings.Repeat("é", 150) + ".pdf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := document.CleanFileName(name)
		switch {
		case got == "":
			t.Fatal("empty result")
		case !utf8.ValidString(got):
			t.Fatalf("invalid UTF-8: %q", got)
		case len(got) > 200:
			t.Fatalf("%d bytes", len(got))
		case strings.ContainsAny(got, "\"/\\"):
			t.Fatalf("quote or slash left in %q", got)
		case strings.Trim(got, " .") != got:
			t.Fatalf("space or dot at an end of %q", got)
		case strings.ContainsFunc(got, unicode.IsControl):
			t.Fatalf("control character left in %q", got)
		}
		if again := document.CleanFileName(got); again != got {
			t.Fatalf("not idempotent: %q then %q", got, again)
		}
	})
}

// chunkReader yields data at most n bytes at a time, as a network body does.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), c.n, len(c.data))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}

// FuzzIngest streams any upload, at any size limit and in any chunking, through Ingest: content
// that is not JPEG, PNG or PDF is UNSUPPORTED_MEDIA_TYPE and nothing is stored; content over the
// limit is PAYLOAD_TOO_LARGE and nothing is stored; anything else is stored byte for byte with
// the right size, media type and SHA-256.
func FuzzIngest(f *testing.F) {
	f.Add([]byte("%PDF-1.4\n%%EOF\n"), uint16(0), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, limit uint16, chunk uint8) {
		blobs := &memBlobs{objects: map[string][]byte{}}
		const key = "t/doc"
		st, err := document.Ingest(context.Background(), blobs, key, &chunkReader{data: data, n: int(chunk%64) + 1}, int64(limit))
		effLimit := int64(limit)
		if effLimit == 0 {
			effLimit = document.MaxUploadBytes
		}
		mime := document.Sniff(data)
		switch {
		case mime == "":
			if apperr.CodeOf(err) != apperr.UnsupportedMediaType {
				t.Fatalf("unsniffable content: err %v, want UNSUPPORTED_MEDIA_TYPE", err)
			}
		case int64(len(data)) > effLimit:
			if apperr.CodeOf(err) != apperr.PayloadTooLarge {
				t.Fatalf("%d bytes over a %d limit: err %v, want PAYLOAD_TOO_LARGE", len(data), effLimit, err)
			}
		default:
			if err != nil {
				t.Fatalf("ingest %d bytes of %s: %v", len(data), mime, err)
			}
			sum := sha256.Sum256(data)
			if st.Size != int64(len(data)) || st.MimeType != mime || st.SHA256 != hex.EncodeToString(sum[:]) {
				t.Fatalf("stored %+v for %d bytes of %s", st, len(data), mime)
			}
			if !bytes.Equal(blobs.objects[key], data) {
				t.Fatal("stored bytes differ from the upload")
			}
			return
		}
		if _, ok := blobs.objects[key]; ok {
			t.Fatal("a refused upload left an object behind")
		}
	})
}
