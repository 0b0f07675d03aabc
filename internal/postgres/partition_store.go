package postgres

import (
	"context"
	"fmt"
	"time"
)

// PartitionStore maintains the monthly partitions of the tables partitioned by time
// (migrations 0050 and 0051, docs/performance-at-scale.md "Partitioning"). The DDL runs in the
// migrations' SECURITY DEFINER functions, so the application role creates partitions and
// nothing else.
type PartitionStore struct {
	db *DB
}

// NewPartitionStore returns a PartitionStore over db.
func NewPartitionStore(db *DB) *PartitionStore { return &PartitionStore{db: db} }

// partitionedTables are the tables kept in monthly partitions (ensure_monthly_partitions).
var partitionedTables = []string{"transactions", "audit_events"}

// EnsurePartitions creates the missing partitions of now's UTC month and the monthsAhead after
// it, for every partitioned table, and returns how many it created.
func (s *PartitionStore) EnsurePartitions(ctx context.Context, now time.Time, monthsAhead int) (int, error) {
	from := now.UTC()
	to := from.AddDate(0, monthsAhead, 0)
	total := 0
	for _, t := range partitionedTables {
		var n int
		if err := s.db.Pool.QueryRow(ctx, `select ensure_monthly_partitions($1, $2, $3)`, t, from, to).Scan(&n); err != nil {
			return total, fmt.Errorf("ensure %s partitions: %w", t, err)
		}
		total += n
	}
	return total, nil
}
