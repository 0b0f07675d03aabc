package restapi

import (
	"bufio"
	"log/slog"
	"net/http"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/reports"
)

// ReportExportPattern is the route of a day's export (docs/guide/reports.md "Downloads"): a ZIP of
// the goAML XML of every approved or filed report of a type on a day, streamed as it is
// written. It is plain HTTP because a ZIP is not a JSON envelope.
const ReportExportPattern = "GET /api/v1/reports/export"

// ReportExport serves ReportExportPattern: ?type=CTR&day=yyyy-mm-dd, every role (the reports
// are readable by all, docs/design/design-choices.md §4 as extended by docs/guide/reports.md).
func ReportExport(authn *connectapi.Authenticator, svc *reports.Service, ds reports.DayStore, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := connectapi.WithTransport(r.Context(), "rest")
		p, err := authn.Authenticate(r, auth.AnyRole)
		if err != nil {
			writeErr(ctx, w, log, err)
			return
		}
		typ := r.URL.Query().Get("type")
		if !reports.ValidType(typ) {
			writeErr(ctx, w, log, apperr.Invalid("type", "must be one of CTR, STR, SAR, FTR"))
			return
		}
		day, err := time.Parse("2006-01-02", r.URL.Query().Get("day"))
		if err != nil {
			writeErr(ctx, w, log, apperr.Invalid("day", "must be a date yyyy-mm-dd"))
			return
		}
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", `attachment; filename="`+typ+"-"+day.Format("2006-01-02")+`.zip"`)
		bw := bufio.NewWriterSize(w, 64<<10)
		n, err := svc.ExportDay(ctx, ds, p.TenantID, typ, day, bw)
		if err == nil {
			err = bw.Flush()
		}
		if err != nil {
			// Headers are gone once the first chunk was written: the truncated archive is the
			// client's signal (a ZIP without its central directory does not open).
			log.ErrorContext(ctx, "report export failed", "err", err, "written", n)
		}
	})
}
