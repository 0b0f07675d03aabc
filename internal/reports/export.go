package reports

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// exportChunk is how many reports one read of the day export fetches: each chunk is read in a
// short transaction of its own, then written, so no transaction stays open while the client
// reads (docs/guide/reports.md "Downloads").
const exportChunk = 250

// ExportDay streams to w a ZIP archive of the goAML XML of every approved or filed report of
// typ on day (one <id>.xml per report, the form goAML's web portal takes for a batch upload).
// A report that fails the checks is left out and listed, with its broken fields, in
// problems.txt at the end of the archive. It returns how many reports were written.
func (s *Service) ExportDay(ctx context.Context, ds DayStore, tenantID tenancy.TenantID, typ string, day time.Time, w io.Writer) (int, error) {
	if !ValidType(typ) {
		return 0, apperr.Invalid("type", "must be one of CTR, STR, SAR, FTR")
	}
	set, err := s.store.Settings(ctx, tenantID)
	if err != nil {
		return 0, err
	}
	zw := zip.NewWriter(w)
	now := s.now()
	var problems strings.Builder
	written, after := 0, ""
	for {
		rs, txs, err := ds.DayReports(ctx, tenantID, typ, day, after, exportChunk)
		if err != nil {
			return written, err
		}
		byID := make(map[string]*Transaction, len(txs))
		for i := range txs {
			byID[txs[i].ID] = &txs[i]
		}
		for i := range rs {
			r := &rs[i]
			mine := make([]Transaction, 0, len(r.TransactionIDs))
			for _, id := range r.TransactionIDs {
				if t, ok := byID[id]; ok {
					mine = append(mine, *t)
				}
			}
			doc := Build(r, mine, set, now)
			var buf bytes.Buffer
			if err := doc.Encode(&buf); err != nil {
				return written, err
			}
			// The in-process checks (rules of the type, code lists) only: the structure was
			// validated against the XSD at approval and again at filing, and one xmllint run
			// per report would cost a 1,000-report day minutes (docs/guide/reports.md "Validation").
			if errs := doc.Check(); len(errs) > 0 {
				for _, e := range errs {
					fmt.Fprintf(&problems, "%s\t%s\t%s\n", r.ID, e.Field, e.Message)
				}
				continue
			}
			f, err := zw.Create(r.ID + ".xml")
			if err != nil {
				return written, err
			}
			if _, err := f.Write(buf.Bytes()); err != nil {
				return written, err
			}
			written++
		}
		if len(rs) < exportChunk {
			break
		}
		after = rs[len(rs)-1].ID
	}
	if problems.Len() > 0 {
		f, err := zw.Create("problems.txt")
		if err != nil {
			return written, err
		}
		if _, err := io.WriteString(f, problems.String()); err != nil {
			return written, err
		}
	}
	return written, zw.Close()
}
