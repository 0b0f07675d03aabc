package postgres

// Names the sub-package screenstore uses (docs/design/architecture.md "Storage adapter"):
// exported wrappers, so that the files that declare them stay as they are.

import (
	"context"
	"log/slog"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

type TextArray = textArray

type NullText = nullText

type TimeArray = timeArray

type NullTime = nullTime

// ParseUUIDs is parseUUIDs, exported.
func ParseUUIDs(ids []string) (uuidArray, error) {
	return parseUUIDs(ids)
}

// InsertAudit is insertAudit, exported.
func InsertAudit(ctx context.Context, tx writer, ev audit.Event, now time.Time) error {
	return insertAudit(ctx, tx, ev, now)
}

// NullIfEmpty is nullIfEmpty, exported.
func NullIfEmpty(s string) *string {
	return nullIfEmpty(s)
}

// Deref is deref, exported.
func Deref(s *string) string {
	return deref(s)
}

// ComplianceOfficersQuery is complianceOfficersQuery, exported.
func ComplianceOfficersQuery(tenantID tenancy.TenantID) sq.SelectBuilder {
	return complianceOfficersQuery(tenantID)
}

const TakeCaseNumbersSQL = takeCaseNumbersSQL

// CreateCaseTx is createCaseTx, exported.
func (db *DB) CreateCaseTx(ctx context.Context, tx writer, tenantID tenancy.TenantID, p cases.NewParams) (cases.Case, error) {
	return db.createCaseTx(ctx, tx, tenantID, p)
}

// PrepareAutomaticCases is prepareAutomaticCases, exported.
func PrepareAutomaticCases(tenantID tenancy.TenantID, ps []cases.NewParams) error {
	return prepareAutomaticCases(tenantID, ps)
}

// WriteCases is writeCases, exported.
func (db *DB) WriteCases(ctx context.Context, tx writer, tenantID tenancy.TenantID, ps []cases.NewParams, a cases.Actor, last int) ([]cases.Case, error) {
	return db.writeCases(ctx, tx, tenantID, ps, a, last)
}

var Psql = psql

// Now is the DB's now.
func (x *DB) Now() time.Time { return x.now() }

// Logger is the DB's logger.
func (x *DB) Logger() *slog.Logger { return x.logger }

// Enqueue is enqueue, exported.
func (db *DB) Enqueue(ctx context.Context, w writer, args river.JobArgs, opts *river.InsertOpts) error {
	return db.enqueue(ctx, w, args, opts)
}

// Collect is collect, exported.
func Collect[T any](ctx context.Context, tx writer, b sq.Sqlizer) ([]T, error) {
	return collect[T](ctx, tx, b)
}

// One is one, exported.
func One[T any](ctx context.Context, tx writer, b sq.Sqlizer, what string) (T, error) {
	return one[T](ctx, tx, b, what)
}

// Count is count, exported.
func Count(ctx context.Context, tx writer, b sq.SelectBuilder) (int, error) {
	return count(ctx, tx, b)
}

// IsUUID is isUUID, exported.
func IsUUID(id string) bool {
	return isUUID(id)
}

// KycBVNHash is kycBVNHash, exported.
func (db *DB) KycBVNHash(tenantID tenancy.TenantID, bvn string) []byte {
	return db.kycBVNHash(tenantID, bvn)
}

type Pipelined = pipelined

// Urls is the pipelined's urls.
func (x *pipelined) Urls() map[tenancy.TenantID]string { return x.urls }

// Officers is the pipelined's officers.
func (x *pipelined) Officers() map[tenancy.TenantID][]userRow { return x.officers }

// SetRowsHint sets the pipelined writer's rowsHint.
func (x *pipelined) SetRowsHint(n int) { x.rowsHint = n }

// NewPipelined is newPipelined, exported.
func NewPipelined(tx pgx.Tx) *pipelined {
	return newPipelined(tx)
}

// Flush is flush, exported.
func (p *pipelined) Flush(ctx context.Context, db *DB) error {
	return p.flush(ctx, db)
}

// NonNil is nonNil, exported.
func NonNil(s []string) []string {
	return nonNil(s)
}

// EncodeVerdicts is encodeVerdicts, exported.
func EncodeVerdicts(vs []screening.EngineVerdict) ([]byte, error) {
	return encodeVerdicts(vs)
}

// DecodeVerdicts is decodeVerdicts, exported.
func DecodeVerdicts(b []byte) ([]screening.EngineVerdict, []screening.TriggeredRule, error) {
	return decodeVerdicts(b)
}

// DbErr is dbErr, exported.
func DbErr(err error) error {
	return dbErr(err)
}

type UserRow = userRow

// QueueWebhook is queueWebhook, exported.
func (db *DB) QueueWebhook(ctx context.Context, tx writer, tenantID tenancy.TenantID, event string, data any) error {
	return db.queueWebhook(ctx, tx, tenantID, event, data)
}

const WebhookURLSQL = webhookURLSQL

// ValidateAutomaticCases is validateAutomaticCases, exported.
func (db *DB) ValidateAutomaticCases(tenantID tenancy.TenantID, ps []cases.NewParams) (cases.Actor, error) {
	return db.validateAutomaticCases(tenantID, ps)
}

// QueueWrites queues the writes p holds onto b, as its flush sends them (the case-lane
// benchmark counts them without a database round trip).
func (x *pipelined) QueueWrites(b *pgx.Batch) {
	for _, q := range x.writes {
		q.queue(b)
	}
}
