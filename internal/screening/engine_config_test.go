package screening

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/rules"
)

// TestAggregateWithEngineConfig: a tenant's weights change the weighted average, and a disabled
// engine counts in neither term (nor raises RETROACTIVE_REVIEW).
func TestAggregateWithEngineConfig(t *testing.T) {
	t.Parallel()
	vs := []EngineVerdict{
		{Category: CategorySanctions, Score: 0, Outcome: rules.Approve},
		{Category: CategoryRegulatory, Score: 90, Outcome: rules.Review},
		{Category: CategoryIdentity, Score: 90, Outcome: rules.Review},
		{Category: CategoryCustom, Score: 90, Outcome: rules.Review},
		{Category: CategoryDecision, Score: 90, Outcome: rules.Review},
		{Category: CategoryBehavioral, Score: 90, Outcome: rules.Review},
	}
	// Default: 90·(1.5+1.3+1.2+1.0+0.8) / 6.8 = 76.76 (above the max term 0.8·90 = 72).
	require.InDelta(t, 76.76, AggregateVerdicts(vs).Score, 0.001)
	require.InDelta(t, 76.76, aggregateWith(vs, DefaultEngineConfig()).Score, 0.001)
	// Behavioral at weight 2.0: 90·7.0 / 8.0 = 78.75.
	cfg := &EngineConfig{ID: "ecfg_x", Weights: map[string]float64{CategoryBehavioral: 2.0}, Disabled: map[string]bool{}}
	require.InDelta(t, 78.75, aggregateWith(vs, cfg).Score, 0.001)
	// Sanctions (0) at weight 2.0: 522 / 7.8 = 66.92, so the max term 72 wins.
	cfg = &EngineConfig{Weights: map[string]float64{CategorySanctions: 2.0}, Disabled: map[string]bool{}}
	require.InDelta(t, 72, aggregateWith(vs, cfg).Score, 0.001)
	// Disabled behavioral: left out of both terms, no retro-review: 90·5.0 / 6.0 = 75.
	vs[5] = EngineVerdict{Category: CategoryBehavioral, Outcome: rules.Approve, Disabled: true}
	agg := aggregateWith(vs, &EngineConfig{Disabled: map[string]bool{CategoryBehavioral: true}})
	require.InDelta(t, 75, agg.Score, 0.001)
	require.NotContains(t, agg.Actions, rules.ActionRetroactiveReview)
}

// TestEngineConfigApply: mandatory engines cannot be disabled or weakened; weights are bounded.
func TestEngineConfigApply(t *testing.T) {
	t.Parallel()
	off, on := false, true
	w := func(f float64) *float64 { return &f }
	cur := DefaultEngineConfig()
	for _, key := range []string{"SANCTIONS", "REGULATORY", "IDENTITY"} {
		_, err := cur.apply(EngineChange{Key: key, Enabled: &off, Reason: "x"})
		require.Equal(t, apperr.Conflict, apperr.CodeOf(err), key)
		_, err = cur.apply(EngineChange{Key: key, Weight: w(0.9), Reason: "x"})
		require.Equal(t, apperr.Validation, apperr.CodeOf(err), key)
	}
	for _, bad := range []EngineChange{{Key: "DECISION", Weight: w(0.4), Reason: "x"}, {Key: "DECISION", Weight: w(2.01), Reason: "x"},
		{Key: "NOPE", Enabled: &off, Reason: "x"}, {Key: "DECISION", Reason: "x"}, {Key: "DECISION", Enabled: &off},
		{Key: "DECISION", Weight: w(math.NaN()), Reason: "x"}, {Key: "DECISION", Weight: w(math.Inf(1)), Reason: "x"}} {
		_, err := cur.apply(bad)
		require.Equal(t, apperr.Validation, apperr.CodeOf(err), "%+v", bad)
	}
	next, err := cur.apply(EngineChange{Key: "BEHAVIORAL", Enabled: &off, Weight: w(0.5), Reason: "noisy"})
	require.NoError(t, err)
	require.True(t, next.IsDisabled(CategoryBehavioral))
	require.InDelta(t, 0.5, next.Weight(CategoryBehavioral), 1e-9)
	require.InDelta(t, 1.5, next.Weight(CategoryRegulatory), 1e-9)
	again, err := next.apply(EngineChange{Key: "BEHAVIORAL", Enabled: &on, Reason: "back"})
	require.NoError(t, err)
	require.False(t, again.IsDisabled(CategoryBehavioral))
	require.InDelta(t, 0.5, again.Weight(CategoryBehavioral), 1e-9, "other settings carry over")
}
