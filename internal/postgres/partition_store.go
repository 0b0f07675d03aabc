package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/complyd/complyd/internal/apperr"
)

// PartitionedTables are the tables partitioned by month (migrations 0043 and 0044): each has
// a partition <table>_pYYYYMM per UTC month, contiguous, and for rows outside them
// <table>_before and <table>_after (migration 0050; a <table>_default before it).
var PartitionedTables = []string{"transactions", "audit_events"}

// Partition is one monthly partition of a partitioned table: its rows have the partition
// column in [From, To), From the first instant of a UTC month and To the first of the next.
type Partition struct {
	Name string
	From time.Time
	To   time.Time
}

// PartitionStore creates and drops the monthly partitions of PartitionedTables. The
// application role owns no table, so every change goes through the migrations' SECURITY
// DEFINER functions ensure_monthly_partitions and drop_monthly_partition, which refuse any
// table that is not registered as partitioned by month (monthly_partitioned_tables).
type PartitionStore struct{ db *DB }

// NewPartitionStore returns the store of db's partitions.
func NewPartitionStore(db *DB) *PartitionStore { return &PartitionStore{db: db} }

// EnsurePartitions creates, for every table of PartitionedTables, the partitions of the UTC
// months that intersect [from, to) that do not exist yet, moving into each the rows that the
// table's default partition held for its month; it returns the names it created.
func (s *PartitionStore) EnsurePartitions(ctx context.Context, from, to time.Time) ([]string, error) {
	var created []string
	for _, table := range PartitionedTables {
		rows, err := s.db.Pool.Query(ctx, `select ensure_monthly_partitions($1::regclass, $2::date, $3::date)`,
			table, from.UTC().Format(time.DateOnly), to.UTC().Format(time.DateOnly))
		if err != nil {
			return created, fmt.Errorf("ensure partitions of %s: %w", table, err)
		}
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return created, fmt.Errorf("ensure partitions of %s: %w", table, err)
		}
		created = append(created, names...)
	}
	return created, nil
}

// ListPartitions returns parent's monthly partitions, oldest first (the catch-all partitions
// are not among them).
func (s *PartitionStore) ListPartitions(ctx context.Context, parent string) ([]Partition, error) {
	rows, err := s.db.Pool.Query(ctx, `select name, month_from, month_to from monthly_partitions($1::regclass) order by month_from`, parent)
	if err != nil {
		return nil, fmt.Errorf("list partitions of %s: %w", parent, err)
	}
	parts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Partition, error) {
		var p Partition
		err := r.Scan(&p.Name, &p.From, &p.To)
		p.From, p.To = p.From.UTC(), p.To.UTC()
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("list partitions of %s: %w", parent, err)
	}
	return parts, nil
}

// DetachAndDrop detaches parent's partition of the UTC month that month falls in and drops
// it, with its rows (for transactions, their idempotency keys in transaction_keys too). It
// refuses, with VALIDATION_ERROR, the current month and any later one (judged by the
// database's clock), and returns NOT_FOUND when the month has no partition. It does not check
// that the rows were archived: the caller (retention) does that first.
func (s *PartitionStore) DetachAndDrop(ctx context.Context, parent string, month time.Time) error {
	m := month.UTC()
	first := time.Date(m.Year(), m.Month(), 1, 0, 0, 0, 0, time.UTC)
	var dropped bool
	err := s.db.Pool.QueryRow(ctx, `select drop_monthly_partition($1::regclass, $2::date)`, parent, first.Format(time.DateOnly)).Scan(&dropped)
	if err != nil {
		var pg *pgconn.PgError
		if errors.As(err, &pg) && pg.Code == "22023" {
			return apperr.New(apperr.Validation, fmt.Sprintf("the partition of %s for %s cannot be dropped: it is the current month or later",
				parent, first.Format("2006-01")))
		}
		return fmt.Errorf("drop partition of %s for %s: %w", parent, first.Format("2006-01"), err)
	}
	if !dropped {
		return apperr.NotFoundf("%s has no partition for %s", parent, first.Format("2006-01"))
	}
	return nil
}
