package reports

import (
	"bytes"
	"context"
	"fmt"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// validate checks doc (encoded as xml) against the tenant's goAML schema in structure and
// against its code list in codes, with the rules of each report type (docs/guide/reports.md
// "Validation"). It returns every problem by element path; an error when the schema
// validator could not run (then nothing can be said to pass).
func (s *Service) validate(ctx context.Context, tenantID tenancy.TenantID, doc *Doc, xml []byte) ([]apperr.FieldError, error) {
	if s.schema == nil {
		return nil, apperr.New(apperr.Unavailable, "no goAML schema validator is configured: reports cannot be validated")
	}
	set, err := s.store.Settings(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	if set.SchemaName != "" && !s.schema.Has(set.SchemaName) {
		return nil, apperr.New(apperr.Validation, fmt.Sprintf("the tenant's report settings name the goAML schema %q, which this deployment does not configure", set.SchemaName))
	}
	return Validate(ctx, s.schema, set.SchemaName, doc, xml)
}

// Validate checks doc, encoded as xml, with v against schema (structure) and against the code
// list doc was built with (codes), with the rules of each report type: every problem by
// element path. An error when the validator could not run.
func Validate(ctx context.Context, v SchemaValidator, schema string, doc *Doc, xml []byte) ([]apperr.FieldError, error) {
	problems, err := v.Validate(ctx, schema, xml)
	if err != nil {
		return nil, apperr.New(apperr.Unavailable, "the goAML schema validator failed: "+err.Error())
	}
	return append(doc.Check(), schemaFields(xml, problems)...), nil
}

// validBefore validates report id when it is in status (the status approving or filing moves
// it from) and answers VALIDATION_ERROR naming every problem by element path: a report that
// goAML would reject is neither approved nor filed. A report in another status is left to the
// status machine's answer.
func (s *Service) validBefore(ctx context.Context, tenantID tenancy.TenantID, id, status, doing string) error {
	r, err := s.store.Get(ctx, tenantID, id)
	if err != nil || r.Status != status {
		return err
	}
	doc, err := s.document(ctx, r)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := doc.Encode(&buf); err != nil {
		return err
	}
	errs, err := s.validate(ctx, tenantID, doc, buf.Bytes())
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		e := apperr.InvalidFields(errs...)
		e.Message = "the report would be rejected by goAML: fix the fields in details before " + doing
		return e
	}
	return nil
}

// TxHit is a sanctions hit of one of a report's transactions.
type TxHit struct {
	TransactionID string
	Hit
}

// Grounding returns what grounds r as its goAML XML says it: every indicator (from its rules,
// its transactions' sanctions hits and those added by hand) and the sanctions hits themselves.
func (s *Service) Grounding(ctx context.Context, r *Report) ([]string, []TxHit, error) {
	txs, err := s.store.Transactions(ctx, r.TenantID, r.TransactionIDs)
	if err != nil {
		return nil, nil, err
	}
	var hits []TxHit
	for _, t := range txs {
		for _, h := range t.Hits {
			hits = append(hits, TxHit{TransactionID: t.ID, Hit: h})
		}
	}
	set, err := s.store.Settings(ctx, r.TenantID)
	if err != nil {
		return nil, nil, err
	}
	return ReportIndicators(r, txs, set.Codes()), hits, nil
}
