package restapi

import (
	"context"
	"encoding/csv"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// The streamed CSV exports of the list screens (docs/guide/dashboard.md "Exports"): plain HTTP GET
// routes beside the facade, authenticated like every call (cookie session, bearer token or API
// key), scoped to the caller's tenant, taking the list's own filter query parameters. Rows are
// written page by page as the store returns them (keyset pages of ExportPageSize rows), so an
// export of millions of rows holds one page in memory.

// Export routes; registered on the mux beside the /api/ facade, and more specific, they win.
const (
	TransactionsExportPattern = "GET /api/v1/transactions/export.csv"
	CasesExportPattern        = "GET /api/v1/cases/export.csv"
	AuditExportPattern        = "GET /api/v1/audit-events/export.csv"
)

// ExportPageSize is the rows read per database round trip.
const ExportPageSize = 1000

// ExportPager returns the rows after cursor ("" = from the start) and the next cursor ("" = no
// more). Errors: VALIDATION_ERROR, INTERNAL.
type ExportPager func(ctx context.Context, cursor string, limit int) ([][]string, string, error)

// ExportStore is what the export routes read (screenstore.ExportStore).
type ExportStore interface {
	ExportTransactions(ctx context.Context, tenant tenancy.TenantID, f screening.ListParams, cursor string, limit int) ([][]string, string, error)
	ExportCases(ctx context.Context, tenant tenancy.TenantID, f cases.ListParams, cursor string, limit int) ([][]string, string, error)
	ExportAudit(ctx context.Context, tenant tenancy.TenantID, f audit.ListParams, cursor string, limit int) ([][]string, string, error)
}

// TransactionsExport serves TransactionsExportPattern: the filters of GET /transactions
// (outcome, type, from, to, account, minAmount, maxAmount, riskLevel, ruleId). Every role may read transactions.
func TransactionsExport(authn *connectapi.Authenticator, st ExportStore, header []string, now func() time.Time, log *slog.Logger) http.Handler {
	return exportHandler(authn, auth.AnyRole, "transactions", header, now, log, func(q url.Values, p auth.Principal) (ExportPager, error) {
		f := screening.ListParams{Outcome: param(q, "outcome"), Type: param(q, "type"), Account: param(q, "account"),
			RiskLevel: param(q, "riskLevel", "risk_level"), RuleID: param(q, "ruleId", "rule_id")}
		var err error
		if f.From, err = timeParam(q, "from"); err != nil {
			return nil, err
		}
		if f.To, err = timeParam(q, "to"); err != nil {
			return nil, err
		}
		if f.MinAmount, err = decimalParam(q, "minAmount", "min_amount"); err != nil {
			return nil, err
		}
		if f.MaxAmount, err = decimalParam(q, "maxAmount", "max_amount"); err != nil {
			return nil, err
		}
		return func(ctx context.Context, cursor string, limit int) ([][]string, string, error) {
			return st.ExportTransactions(ctx, p.TenantID, f, cursor, limit)
		}, nil
	})
}

// CasesExport serves CasesExportPattern: the filters of GET /cases (status, type, priority,
// assigneeId, includeUnassigned), newest first. Every role may read cases.
func CasesExport(authn *connectapi.Authenticator, st ExportStore, header []string, now func() time.Time, log *slog.Logger) http.Handler {
	return exportHandler(authn, auth.AnyRole, "cases", header, now, log, func(q url.Values, p auth.Principal) (ExportPager, error) {
		f := cases.ListParams{Status: param(q, "status"), Type: param(q, "type"), Priority: param(q, "priority"),
			AssigneeID: param(q, "assigneeId", "assignee_id"), IncludeUnassigned: param(q, "includeUnassigned", "include_unassigned") == "true"}
		f.Page, f.Limit = 1, 20
		if _, err := f.Normalize(); err != nil {
			return nil, err
		}
		return func(ctx context.Context, cursor string, limit int) ([][]string, string, error) {
			return st.ExportCases(ctx, p.TenantID, f, cursor, limit)
		}, nil
	})
}

// AuditExport serves AuditExportPattern: the filters of GET /audit-events (actorId, action,
// resourceType, from, to). BANK_ADMIN and AUDITOR, like the audit log.
func AuditExport(authn *connectapi.Authenticator, st ExportStore, header []string, now func() time.Time, log *slog.Logger) http.Handler {
	return exportHandler(authn, auth.AdminAndAuditor, "audit-events", header, now, log, func(q url.Values, p auth.Principal) (ExportPager, error) {
		f := audit.ListParams{ActorID: param(q, "actorId", "actor_id"), Action: param(q, "action"),
			ResourceType: param(q, "resourceType", "resource_type")}
		var err error
		if f.From, err = timeParam(q, "from"); err != nil {
			return nil, err
		}
		if f.To, err = timeParam(q, "to"); err != nil {
			return nil, err
		}
		return func(ctx context.Context, cursor string, limit int) ([][]string, string, error) {
			return st.ExportAudit(ctx, p.TenantID, f, cursor, limit)
		}, nil
	})
}

// param returns the first non-empty value of the names (camelCase, as the list endpoints
// accept, or snake_case).
func param(q url.Values, names ...string) string {
	for _, n := range names {
		if v := strings.TrimSpace(q.Get(n)); v != "" {
			return v
		}
	}
	return ""
}

func timeParam(q url.Values, name string) (*time.Time, error) {
	v := param(q, name)
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		t, err = time.Parse(time.DateOnly, v) // a date is its UTC midnight
	}
	if err != nil {
		return nil, apperr.Invalid(name, "must be an ISO 8601 timestamp, for example 2026-01-31T00:00:00Z")
	}
	return &t, nil
}

func decimalParam(q url.Values, names ...string) (*decimal.Decimal, error) {
	v := param(q, names...)
	if v == "" {
		return nil, nil
	}
	d, err := decimal.NewFromString(v)
	if err != nil || d.IsNegative() {
		return nil, apperr.Invalid(names[0], "must be a non-negative decimal string")
	}
	return &d, nil
}

// exportHandler authenticates, parses the filters (failures answer the failure envelope with
// their status), then streams the CSV: the header row, then each page as it comes, flushed.
// A failure after the first byte cannot change the status any more: the connection is aborted,
// so the client sees a failed download rather than a silently short file.
func exportHandler(authn *connectapi.Authenticator, roles auth.Roles, name string, header []string, now func() time.Time, log *slog.Logger,
	open func(url.Values, auth.Principal) (ExportPager, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := connectapi.WithTransport(r.Context(), "rest")
		p, err := authn.Authenticate(r, roles)
		if err != nil {
			writeErr(ctx, w, log, err)
			return
		}
		pager, err := open(r.URL.Query(), p)
		if err != nil {
			writeErr(ctx, w, log, err)
			return
		}
		// The first page is read before any byte is written, so that its failure is an envelope.
		rows, cursor, err := pager(ctx, "", ExportPageSize)
		if err != nil {
			writeErr(ctx, w, log, err)
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.csv"`, name, now().UTC().Format("20060102T150405Z")))
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		cw := csv.NewWriter(w)
		flusher, _ := w.(http.Flusher)
		if err := cw.Write(header); err != nil {
			return
		}
		for {
			for _, row := range rows {
				for i, c := range row {
					row[i] = SafeCell(c)
				}
				if err := cw.Write(row); err != nil {
					return // the client went away
				}
			}
			cw.Flush()
			if cw.Error() != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
			if cursor == "" {
				return
			}
			if rows, cursor, err = pager(ctx, cursor, ExportPageSize); err != nil {
				log.ErrorContext(ctx, "export aborted", "export", name, "err", err)
				panic(http.ErrAbortHandler)
			}
		}
	})
}

// SafeCell neutralises CSV (formula) injection: a cell that a spreadsheet would read as a
// formula, one starting with = + - @ or a tab or carriage return, is prefixed with a single
// quote, which spreadsheets show as text (OWASP "CSV Injection").
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
