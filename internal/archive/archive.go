// Package archive is retention and archiving (issue 54 point 3, docs/guide/retention.md): a
// tenant's stored screenings older than its retention period are exported per month to the
// object store (gzipped JSON lines and a manifest with SHA-256 checksums and row counts),
// verified by reading them back, and only then dropped from the database; legal holds, open
// cases and reports keep their evidence in place; an archive can be found and restored for an
// examiner.
//
// archive is core: it imports apperr, audit, paging and tenancy, never an adapter.
package archive

import (
	"context"
	"crypto/md5" //nolint:gosec // a row-set digest shared with SQL's md5(), not a security boundary
	"encoding/hex"
	"io"
	"math/big"
	"strconv"
	"time"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// MinRetentionYears is the law's minimum (Nigeria: five years of transaction records) and the
// default retention.
const MinRetentionYears = 5

// Tables that are archived.
const (
	TableTransactions = "transactions"
	TableAuditEvents  = "audit_events"
)

// Tables are the archived tables, in the order a pass archives them.
var Tables = []string{TableTransactions, TableAuditEvents}

// archived reports whether table is one of Tables.
func archived(table string) bool { return table == TableTransactions || table == TableAuditEvents }

// States of an archive.
const (
	StateWritten  = "WRITTEN"
	StateVerified = "VERIFIED"
	StateFailed   = "FAILED"
	StateDropped  = "DROPPED"
)

// SchemaVersion is the version of the archive format (manifest.json's schemaVersion).
const SchemaVersion = 1

// Archive is one tenant-month of one table in the object store.
type Archive struct {
	ID          string
	TenantID    tenancy.TenantID
	Table       string
	Month       time.Time // first day of the month, UTC
	Prefix      string
	DataKey     string
	ManifestKey string
	Rows        int64 // rows in the data object
	HeldRows    int64 // rows of the month kept in place by a hold, not archived
	Bytes       int64 // size of the data object
	SHA256      string
	IDDigest    string // decimal sum of the rows' id hashes (IDHash)
	State       string
	Failure     string
	CreatedAt   time.Time
	VerifiedAt  *time.Time
	DroppedAt   *time.Time
	RestoredAt  *time.Time
	// RestoredRows is how many rows the last restore loaded for the examiner.
	RestoredRows *int64
}

// Manifest is manifest.json: what the archive holds, enough to read it without complyd.
type Manifest struct {
	SchemaVersion    int            `json:"schemaVersion"`
	MigrationVersion int64          `json:"migrationVersion"`
	ArchiveID        string         `json:"archiveId"`
	TenantID         string         `json:"tenantId"`
	Table            string         `json:"table"`
	TimeColumn       string         `json:"timeColumn"`
	From             time.Time      `json:"from"`
	To               time.Time      `json:"to"`
	CreatedAt        time.Time      `json:"createdAt"`
	Files            []ManifestFile `json:"files"`
	Columns          []Column       `json:"columns"`
	HeldRows         int64          `json:"heldRows"`
	IDDigest         string         `json:"idDigest"`
}

// ManifestFile is one data object of the archive.
type ManifestFile struct {
	Name   string `json:"name"`
	Key    string `json:"key"`
	Format string `json:"format"`
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Column is one column of the archived table, by name and PostgreSQL type.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Month is a tenant-month with rows in a table.
type Month struct {
	Month time.Time
	Rows  int64
}

// ExportInfo is what the month store reports about an export.
type ExportInfo struct {
	Columns          []Column
	TimeColumn       string
	HeldRows         int64
	MigrationVersion int64
}

// ExportParams names the rows to export.
type ExportParams struct {
	TenantID tenancy.TenantID
	Table    string
	Month    time.Time
}

// MonthStore is the database side of archiving: the months of a tenant's rows, their export
// (rows no hold protects, in id order, one JSON object each) and the drop of an archived month.
// postgres.ArchiveStore implements it on the unpartitioned schema (the drop deletes the rows
// through the SECURITY DEFINER function archive_drop_month).
type MonthStore interface {
	// Months lists the tenant's months of table with rows that end at or before cutoff, oldest
	// first.
	Months(ctx context.Context, tenantID tenancy.TenantID, table string, cutoff time.Time) ([]Month, error)
	// Export calls row for each row of the month no hold protects, ordered by id.
	Export(ctx context.Context, p ExportParams, row func(id string, json []byte) error) (ExportInfo, error)
	// DropMonth deletes the archived rows of a VERIFIED archive and marks it DROPPED; it refuses
	// when the month's unheld rows are not exactly the archived ones.
	DropMonth(ctx context.Context, tenantID tenancy.TenantID, archiveID string, ev audit.Event) (int64, error)
}

// Partitions is the partition path (migration 0049): a month that is a partition of its own
// is dropped whole, once every tenant's rows in it are archived and verified or retained
// (copied to <table>_retained), instead of having each tenant's archived rows deleted.
// postgres.ArchiveStore implements it.
type Partitions interface {
	// OwnPartition reports whether table's month is a partition of its own (else its rows are
	// in a catch-all partition and an archived tenant-month is deleted by MonthStore.DropMonth).
	OwnPartition(ctx context.Context, table string, month time.Time) (bool, error)
	// DuePartitions lists the months of table's partitions that end at or before cutoff, oldest
	// first.
	DuePartitions(ctx context.Context, table string, cutoff time.Time) ([]time.Time, error)
	// DropPartition drops table's partition of month (archive_drop_partition), auditing each
	// tenant's part with ev; CONFLICT when a tenant's rows are not archived and verified (nothing
	// changes then).
	DropPartition(ctx context.Context, table string, month time.Time, ev func(PartitionTenant) audit.Event) ([]PartitionTenant, error)
}

// PartitionTenant is one tenant's part of a dropped partition.
type PartitionTenant struct {
	TenantID  tenancy.TenantID
	ArchiveID string // the archive that became DROPPED with the partition, if any
	Archived  int64  // rows of that archive
	Retained  int64  // rows copied to <table>_retained (held, or within the tenant's retention)
}

// Store keeps the archives' records, the holds and the restored rows.
type Store interface {
	// Tenants lists every tenant (the nightly pass works tenant by tenant).
	Tenants(ctx context.Context) ([]tenancy.TenantID, error)
	RetentionYears(ctx context.Context, tenantID tenancy.TenantID) (int, error)
	CreateArchive(ctx context.Context, a Archive, ev audit.Event) error
	// SetState moves an archive to state (VERIFIED or FAILED, with failure), audited by ev.
	SetState(ctx context.Context, tenantID tenancy.TenantID, id, state, failure string, at time.Time, ev audit.Event) error
	GetArchive(ctx context.Context, tenantID tenancy.TenantID, id string) (Archive, error)
	ListArchives(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[Archive], error)
	// ArchivedMonths returns the months of table that have an archive not FAILED.
	ArchivedMonths(ctx context.Context, tenantID tenancy.TenantID, table string) (map[time.Time]bool, error)
	// Restore replaces the examiner's copy of the archive's rows with rows and records it.
	Restore(ctx context.Context, tenantID tenancy.TenantID, id string, rows [][]byte, at time.Time, ev audit.Event) error
	ListRestoredRows(ctx context.Context, tenantID tenancy.TenantID, id string, p paging.Params) (paging.Result[[]byte], error)
	PlaceHold(ctx context.Context, h Hold, ev audit.Event) error
	LiftHold(ctx context.Context, tenantID tenancy.TenantID, id string, by, reason string, at time.Time, ev func(before Hold) audit.Event) (Hold, error)
	ListHolds(ctx context.Context, tenantID tenancy.TenantID, activeOnly bool, p paging.Params) (paging.Result[Hold], error)
}

// Blobs is the object store (the documents' S3 store, document.Blobs, satisfies it).
type Blobs interface {
	Put(ctx context.Context, key string, r io.Reader, contentType string) (int64, error)
	Get(ctx context.Context, key string) (io.ReadCloser, error)
}

// IDHash is one row's share of an archive's id digest: the first 60 bits of md5(id), as SQL's
// archive_id_hash computes it.
func IDHash(id string) uint64 {
	sum := md5.Sum([]byte(id)) //nolint:gosec // see the import
	v, _ := strconv.ParseUint(hex.EncodeToString(sum[:])[:15], 16, 64)
	return v
}

// digest sums IDHash over a set of rows.
type digest struct{ sum big.Int }

func (d *digest) add(id string)  { d.sum.Add(&d.sum, new(big.Int).SetUint64(IDHash(id))) }
func (d *digest) String() string { return d.sum.String() }

// MonthOf returns the first instant of t's UTC month.
func MonthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}
