package dashboard_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/dashboard"
)

// TestNewPeriod: defaults, widening to whole UTC buckets, and the limits.
func TestNewPeriod(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 25, 10, 30, 0, 0, time.UTC)
	at := func(s string) *time.Time { v, err := time.Parse(time.RFC3339, s); require.NoError(t, err); return &v }
	cases := []struct {
		name     string
		from, to *time.Time
		g        dashboard.Granularity
		want     [2]string // from, to
		buckets  int
		err      bool
	}{
		{"default days", nil, nil, "", [2]string{"2026-10-26T00:00:00Z", "2026-11-26T00:00:00Z"}, 31, false},
		{"default hours", nil, nil, dashboard.Hour, [2]string{"2026-11-23T10:00:00Z", "2026-11-25T11:00:00Z"}, 49, false},
		{"whole days kept", at("2026-01-10T00:00:00Z"), at("2026-01-13T00:00:00Z"), dashboard.Day, [2]string{"2026-01-10T00:00:00Z", "2026-01-13T00:00:00Z"}, 3, false},
		{"widened to days", at("2026-01-10T05:00:00Z"), at("2026-01-12T01:00:00Z"), dashboard.Day, [2]string{"2026-01-10T00:00:00Z", "2026-01-13T00:00:00Z"}, 3, false},
		{"an offset is UTC", at("2026-01-10T00:30:00+01:00"), at("2026-01-10T02:00:00+01:00"), dashboard.Hour, [2]string{"2026-01-09T23:00:00Z", "2026-01-10T01:00:00Z"}, 2, false},
		{"31 days by hour", at("2026-01-01T00:00:00Z"), at("2026-02-01T00:00:00Z"), dashboard.Hour, [2]string{"2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"}, 744, false},
		{"32 days by hour", at("2026-01-01T00:00:00Z"), at("2026-02-02T00:00:00Z"), dashboard.Hour, [2]string{}, 0, true},
		{"366 days", at("2025-01-01T00:00:00Z"), at("2026-01-02T00:00:00Z"), dashboard.Day, [2]string{"2025-01-01T00:00:00Z", "2026-01-02T00:00:00Z"}, 366, false},
		{"367 days", at("2025-01-01T00:00:00Z"), at("2026-01-03T00:00:00Z"), dashboard.Day, [2]string{}, 0, true},
		{"from after to", at("2026-01-02T00:00:00Z"), at("2026-01-01T00:00:00Z"), dashboard.Day, [2]string{}, 0, true},
		{"from equals to", at("2026-01-01T00:00:00Z"), at("2026-01-01T00:00:00Z"), dashboard.Day, [2]string{}, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := dashboard.NewPeriod(c.from, c.to, c.g, now)
			if c.err {
				require.Equal(t, apperr.Validation, apperr.CodeOf(err))
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.want, [2]string{p.From.Format(time.RFC3339), p.To.Format(time.RFC3339)})
			require.Len(t, p.Buckets(), c.buckets)
			require.Equal(t, 0, p.Index(p.From))
			require.Equal(t, -1, p.Index(p.To))
			require.Equal(t, c.buckets-1, p.Index(p.To.Add(-time.Nanosecond)))
		})
	}
}
