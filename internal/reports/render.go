package reports

import (
	"context"
	"html/template"
	"io"

	"github.com/complyd/complyd/internal/tenancy"
)

// The human-readable rendering of a report for the file (docs/guide/reports.md "Downloads"): the
// same facts as the goAML XML, laid out for a reader and for printing to PDF from a browser.
var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{"money": group3}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.R.Type}} {{.R.ID}}</title>
<style>body{font-family:sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #999;padding:4px;text-align:left;vertical-align:top}h1{font-size:1.4em}</style></head>
<body>
<h1>{{.Title}} — {{.R.ID}}</h1>
<table>
<tr><th>Status</th><td>{{.R.Status}}</td><th>Deadline</th><td>{{.R.DeadlineAt.In .Lagos | printf "%s"}}</td></tr>
<tr><th>Reporting entity</th><td>{{.S.RentityID}} {{.S.InstitutionName}}</td><th>Reporting person</th><td>{{.S.ReportingPerson.FirstName}} {{.S.ReportingPerson.LastName}} {{.S.ReportingPerson.Email}}</td></tr>
<tr><th>Customer</th><td>{{.R.CustomerName}} ({{.R.CustomerAccount}})</td><th>Day</th><td>{{.R.Day.Format "2006-01-02"}}</td></tr>
<tr><th>Case</th><td>{{.R.CaseID}}</td><th>Rules</th><td>{{range .R.Rules}}{{.}} {{end}}</td></tr>
<tr><th>Filing</th><td colspan="3">{{if .R.FilingReference}}{{.R.FilingMethod}} {{.R.FilingReference}}{{else}}not filed{{end}}</td></tr>
</table>
<h2>Reason</h2><p>{{.R.Reason}}</p>
<h2>Action</h2><p>{{.R.Action}}</p>
<h2>Narrative</h2><p>{{.R.Narrative}}</p>
<h2>Transactions</h2>
<table><tr><th>Reference</th><th>Date (Lagos)</th><th>Type</th><th>Amount</th><th>NGN</th><th>From</th><th>To</th></tr>
{{range .T}}<tr><td>{{.ExternalID}}</td><td>{{(.Timestamp.In $.Lagos).Format "2006-01-02 15:04"}}</td><td>{{.Type}}</td>
<td>{{.Currency}} {{money .Amount}}</td><td>{{money .AmountNGN}}</td><td>{{.SenderName}} {{.SenderAccountNumber}}</td>
<td>{{.ReceiverName}} {{.ReceiverAccountNumber}} {{.ReceiverCountry}}</td></tr>{{end}}
</table>
</body></html>
`))

// RenderHTML writes the human-readable rendering of a report.
func (s *Service) RenderHTML(ctx context.Context, tenantID tenancy.TenantID, id string, w io.Writer) error {
	r, err := s.store.Get(ctx, tenantID, id)
	if err != nil {
		return err
	}
	txs, err := s.store.Transactions(ctx, tenantID, r.TransactionIDs)
	if err != nil {
		return err
	}
	set, err := s.store.Settings(ctx, tenantID)
	if err != nil {
		return err
	}
	return htmlTemplate.Execute(w, map[string]any{"R": r, "T": txs, "S": set, "Lagos": Lagos, "Title": typeNames[r.Type]})
}
