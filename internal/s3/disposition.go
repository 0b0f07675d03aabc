package s3

import "mime"

// contentDisposition formats an attachment header value; mime.FormatMediaType quotes the
// name and switches to RFC 2231 filename* for non-ASCII names.
func contentDisposition(name string) string {
	if v := mime.FormatMediaType("attachment", map[string]string{"filename": name}); v != "" {
		return v
	}
	return "attachment"
}
