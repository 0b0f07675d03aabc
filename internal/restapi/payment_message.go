package restapi

import (
	"encoding/json"
	"mime"
	"net/http"
	"strings"
)

// paymentMessagePath is the /api/v1 route of TransactionService.ScreenPaymentMessage.
const paymentMessagePath = "/api/v1/transactions/iso20022"

// wantsStatusReport says whether r is an ISO 20022 screening whose caller asked for the pacs.002
// itself (Accept: application/xml or text/xml) rather than the JSON envelope (docs/guide/iso20022.md).
// Read before transcoding: the transcoder rewrites the request's path.
func wantsStatusReport(r *http.Request) bool {
	if r.Method != http.MethodPost || r.URL.Path != paymentMessagePath {
		return false
	}
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err == nil && (mt == "application/xml" || mt == "text/xml") {
			return true
		}
	}
	return false
}

// writeStatusReport answers a successful ISO 20022 screening with its pacs.002 XML (the
// statusReport of the JSON answer); false when the answer holds none (then the envelope is
// written as usual).
func writeStatusReport(w http.ResponseWriter, body []byte) bool {
	var out struct {
		StatusReport string `json:"statusReport"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.StatusReport == "" {
		return false
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(out.StatusReport))
	return true
}
