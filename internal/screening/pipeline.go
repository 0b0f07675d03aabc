package screening

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/complyd/complyd/internal/rules"
)

// Default per-engine deadlines. The whole pipeline must finish in 80–200 ms at p95
// (service-spec.md 8); stage 1 and stage 2 run back to back, so the sum of the longest
// deadline of each stage stays under 200 ms.
const (
	DefaultSanctionsTimeout  = 100 * time.Millisecond
	DefaultBehavioralTimeout = 50 * time.Millisecond
	DefaultEngineTimeout     = 50 * time.Millisecond
)

// PipelineDeps are the Pipeline's engines and options. Every engine is required.
type PipelineDeps struct {
	Sanctions  Engine
	Regulatory Engine
	Identity   Engine
	Custom     Engine
	Decision   Engine
	Behavioral Engine
	// Timeouts per category; a missing category gets its default above.
	Timeouts map[string]time.Duration
	// Now is the clock used for latencies; time.Now when nil.
	Now func() time.Time
}

// Pipeline runs the engines of one screening (pipeline steps 3–8).
type Pipeline struct {
	engines  [6]Engine // in spec order: sanctions, regulatory, identity, custom, decision, behavioral
	timeouts [6]time.Duration
	now      func() time.Time
}

// Indices into Pipeline.engines, in the spec's riskBreakdown order.
const (
	idxSanctions = iota
	idxRegulatory
	idxIdentity
	idxCustom
	idxDecision
	idxBehavioral
)

// NewPipeline returns a Pipeline; it panics on a nil engine.
func NewPipeline(d PipelineDeps) *Pipeline {
	p := &Pipeline{
		engines: [6]Engine{d.Sanctions, d.Regulatory, d.Identity, d.Custom, d.Decision, d.Behavioral},
		now:     d.Now,
	}
	if p.now == nil {
		p.now = time.Now
	}
	for i, e := range p.engines {
		if e == nil {
			panic(fmt.Sprintf("screening.NewPipeline: engine %d is nil", i))
		}
		t, ok := d.Timeouts[e.Category()]
		if !ok || t <= 0 {
			t = defaultTimeout(e.Category())
		}
		p.timeouts[i] = t
	}
	return p
}

func defaultTimeout(category string) time.Duration {
	switch category {
	case CategorySanctions:
		return DefaultSanctionsTimeout
	case CategoryBehavioral:
		return DefaultBehavioralTimeout
	}
	return DefaultEngineTimeout
}

// FailsOpen reports whether an engine's failure lets the screening continue: only sanctions
// and behavioral analysis (service-spec.md 1, fail-open policy).
func FailsOpen(category string) bool {
	return category == CategorySanctions || category == CategoryBehavioral
}

// Result is one screening's outcome, ready to persist and return (service-spec.md 2.4).
type Result struct {
	Aggregate
	// Breakdown has one verdict per engine in the spec's order, skipped ones included.
	Breakdown      []EngineVerdict
	TriggeredRules []TriggeredRule
	FX             *FX // the applied conversion for a non-NGN transaction
	TotalLatencyMs int64
	// RetroScreening is set when a fail-open engine was skipped: the caller queues the
	// transaction for retroactive screening (the partial screening is logged, spec part 1).
	RetroScreening bool
	Case           *CaseDecision // nil for APPROVE
}

// Run evaluates tx with e. Stage 1 runs sanctions, identity, decision and behavioral
// concurrently; stage 2 runs regulatory and custom rules once sanctions has produced the PEP
// hits, on a copy of e carrying them. Each engine has its own deadline. A sanctions or
// behavioral failure (error or deadline) marks that verdict Skipped and sets RetroScreening;
// any other engine failure fails the screening with that engine's error.
func (p *Pipeline) Run(ctx context.Context, tx *Transaction, e *Enrichment) (Result, error) {
	start := p.now()
	var out [6]EngineVerdict
	var errs [6]error
	var wg sync.WaitGroup
	spawn := func(i int, e *Enrichment) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = p.runEngine(ctx, i, tx, e)
		}()
	}
	spawn(idxIdentity, e)
	spawn(idxDecision, e)
	spawn(idxBehavioral, e)
	out[idxSanctions], errs[idxSanctions] = p.runEngine(ctx, idxSanctions, tx, e)

	stage2 := *e
	stage2.PEPHits = senderPEPHits(out[idxSanctions])
	spawn(idxRegulatory, &stage2)
	out[idxCustom], errs[idxCustom] = p.runEngine(ctx, idxCustom, tx, &stage2)
	wg.Wait()

	if err := errors.Join(errs[:]...); err != nil {
		return Result{}, err
	}
	res := Result{Breakdown: out[:], Aggregate: AggregateVerdicts(out[:])}
	for _, v := range out {
		res.TriggeredRules = append(res.TriggeredRules, v.RulesTriggered...)
		if v.Skipped {
			res.RetroScreening = true
		}
		if v.FX != nil && res.FX == nil {
			res.FX = v.FX
		}
	}
	res.Case = DecideCase(res.Breakdown, res.Aggregate)
	res.TotalLatencyMs = p.now().Sub(start).Milliseconds()
	return res, nil
}

type engineResult struct {
	v   EngineVerdict
	err error
}

// runEngine runs engine i under its deadline. The engine runs in its own goroutine so that one
// ignoring ctx cannot hold the screening past the deadline; its late result is dropped.
func (p *Pipeline) runEngine(parent context.Context, i int, tx *Transaction, e *Enrichment) (EngineVerdict, error) {
	eng := p.engines[i]
	cat := eng.Category()
	start := p.now()
	ctx, cancel := context.WithTimeout(parent, p.timeouts[i])
	defer cancel()
	done := make(chan engineResult, 1)
	go func() {
		v, err := eng.Evaluate(ctx, tx, e)
		done <- engineResult{v, err}
	}()
	var r engineResult
	select {
	case r = <-done:
	case <-ctx.Done():
		r.err = ctx.Err()
	}
	if r.err == nil {
		r.v.Category = cat
		r.v.LatencyMs = p.now().Sub(start).Milliseconds()
		return r.v, nil
	}
	if FailsOpen(cat) {
		reason := "engine error: " + r.err.Error()
		if errors.Is(r.err, context.DeadlineExceeded) {
			reason = fmt.Sprintf("deadline of %s exceeded", p.timeouts[i])
		}
		return EngineVerdict{Category: cat, Outcome: rules.Approve, Skipped: true, SkipReason: reason,
			LatencyMs: p.now().Sub(start).Milliseconds()}, nil
	}
	return EngineVerdict{}, fmt.Errorf("%s: %w", cat, r.err)
}
