package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/archive"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// The partition path of the archive (migration 0049, docs/guide/retention.md): a month that is
// a partition of its own is dropped whole by archive_drop_partition once every tenant's rows
// in it are archived and verified, or retained (copied to <table>_retained).

var _ archive.Partitions = (*ArchiveStore)(nil)

// OwnPartition implements archive.Partitions: whether table has a partition for month (not
// the default partition).
func (s *ArchiveStore) OwnPartition(ctx context.Context, table string, month time.Time) (bool, error) {
	if _, err := archivedTableOf(table); err != nil {
		return false, err
	}
	var own bool
	err := s.db.Pool.QueryRow(ctx, `select exists (select 1 from monthly_partitions($1::regclass) where month_from = $2)`,
		table, archive.MonthOf(month)).Scan(&own)
	if err != nil {
		return false, fmt.Errorf("partition of %s for %s: %w", table, month.Format("2006-01"), err)
	}
	return own, nil
}

// DuePartitions implements archive.Partitions.
func (s *ArchiveStore) DuePartitions(ctx context.Context, table string, cutoff time.Time) ([]time.Time, error) {
	if _, err := archivedTableOf(table); err != nil {
		return nil, err
	}
	rows, err := s.db.Pool.Query(ctx, `select month_from from monthly_partitions($1::regclass) where month_to <= $2 order by 1`,
		table, cutoff)
	if err != nil {
		return nil, fmt.Errorf("partitions of %s: %w", table, err)
	}
	ms, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	if err != nil {
		return nil, fmt.Errorf("partitions of %s: %w", table, err)
	}
	for i, m := range ms {
		ms[i] = archive.MonthOf(m)
	}
	return ms, nil
}

// DropPartition implements archive.Partitions: archive_drop_partition and, in the same
// transaction, one audit event per tenant with rows in the partition (each inserted under
// that tenant's row-level security).
func (s *ArchiveStore) DropPartition(ctx context.Context, table string, month time.Time, ev func(archive.PartitionTenant) audit.Event) ([]archive.PartitionTenant, error) {
	if _, err := archivedTableOf(table); err != nil {
		return nil, err
	}
	m := archive.MonthOf(month)
	var out []archive.PartitionTenant
	err := s.db.global(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select tenant::text, coalesce(archive::text, ''), archived, retained
			from archive_drop_partition($1::regclass, $2::date)`, table, m.Format(time.DateOnly))
		if err != nil {
			return partitionDropErr(err)
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (archive.PartitionTenant, error) {
			var pt archive.PartitionTenant
			var tenant string
			err := r.Scan(&tenant, &pt.ArchiveID, &pt.Archived, &pt.Retained)
			pt.TenantID = tenancy.TenantID(tenant)
			return pt, err
		})
		if err != nil {
			return partitionDropErr(err)
		}
		for _, pt := range out {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(pt.TenantID)); err != nil {
				return err
			}
			if err := insertAudit(ctx, tx, ev(pt), s.db.now()); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// partitionDropErr maps archive_drop_partition's refusals: no partition is NOT_FOUND, a
// tenant's rows not archived and verified (or none past retention) CONFLICT, a month not past
// VALIDATION_ERROR.
func partitionDropErr(err error) error {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch pg.Code {
		case "P0002":
			return apperr.NotFoundf("%s", pg.Message)
		case "55000":
			return apperr.New(apperr.Conflict, pg.Message)
		case "22023":
			return apperr.New(apperr.Validation, pg.Message)
		case "55P03":
			return apperr.New(apperr.Conflict, "the partition's lock was not granted in time (lock_timeout): "+pg.Message)
		}
	}
	return err
}
