package screening

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/rules"
)

// Default per-engine deadlines. The whole pipeline must finish in 80–200 ms at p95
// (docs/reference/specification.md 8); stage 1 and stage 2 run back to back, so the sum of the longest
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
	inline   [6]bool // InlineEngine: run on the screening's goroutine
	now      func() time.Time
}

// InlineEngine is implemented by engines whose Evaluate only computes in memory and never
// waits on anything that can hang. The Pipeline runs them on the screening's own goroutine and
// holds them to their deadline when they return (a late verdict counts as a missed deadline),
// instead of racing each on a goroutine of its own against a timer: a screening then costs no
// goroutine, stack growth or timer per engine. Any other engine gets the goroutine and the timer,
// so that one that blocks cannot hold the screening past its deadline.
type InlineEngine interface {
	Engine
	// Inline reports whether Evaluate is in-memory only.
	Inline() bool
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
		if ie, ok := e.(InlineEngine); ok {
			p.inline[i] = ie.Inline()
		}
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
// and behavioral analysis (docs/reference/specification.md 1, fail-open policy).
func FailsOpen(category string) bool {
	return category == CategorySanctions || category == CategoryBehavioral
}

// Result is one screening's outcome, ready to persist and return (docs/reference/specification.md 2.4).
type Result struct {
	Aggregate
	// Breakdown has one verdict per engine in the spec's order, skipped ones included.
	Breakdown      []EngineVerdict
	TriggeredRules []TriggeredRule
	FX             *FX // the applied conversion for a non-NGN transaction
	TotalLatencyMs int64
	// AmountNGN is the NGN amount the rules evaluated; FXMissing is set when a foreign currency
	// had no rate (the raw amount was evaluated and FX_RATE_MISSING raised).
	AmountNGN decimal.Decimal
	FXMissing bool
	// RetroScreening is set when a fail-open engine was skipped: the caller queues the
	// transaction for retroactive screening (the partial screening is logged, spec part 1).
	RetroScreening bool
	Case           *CaseDecision // nil for APPROVE
	// shadow are the shadowed drafts' evaluations (shadow.go), taken off the Custom Rules
	// verdict so that nothing downstream of the Service sees them.
	shadow []shadowEval
}

// Run evaluates tx with e. Stage 1 runs sanctions, identity, decision and behavioral; stage 2
// runs regulatory and custom rules once sanctions has produced the PEP hits, on a copy of e
// carrying them. Engines that are not InlineEngines run concurrently, each on its own goroutine.
// Each engine has its own deadline. A sanctions or behavioral failure (error or deadline) marks
// that verdict Skipped and sets RetroScreening; any other engine failure fails the screening
// with that engine's error.
func (p *Pipeline) Run(ctx context.Context, tx *Transaction, e *Enrichment) (Result, error) {
	start := p.now()
	stage1 := *e
	amountNGN, fx, missing := ConvertToNGN(tx.Amount, tx.Currency, e.Config.FXRates)
	stage1.ngn = &ngnConversion{amount: amountNGN, fx: fx, missing: missing}
	var out [6]EngineVerdict
	var errs [6]error
	var wg sync.WaitGroup
	run := func(i int, e *Enrichment) {
		if cat := p.engines[i].Category(); e.Engines.IsDisabled(cat) {
			out[i] = EngineVerdict{Category: cat, Outcome: rules.Approve, Disabled: true}
			return
		}
		if p.inline[i] {
			out[i], errs[i] = p.runInline(ctx, i, tx, e)
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = p.runRaced(ctx, i, tx, e)
		}()
	}
	// Engines on goroutines of their own start first, so that they overlap the inline ones.
	for _, i := range [...]int{idxIdentity, idxDecision, idxBehavioral} {
		if !p.inline[i] {
			run(i, &stage1)
		}
	}
	if p.inline[idxSanctions] {
		out[idxSanctions], errs[idxSanctions] = p.runInline(ctx, idxSanctions, tx, &stage1)
	} else {
		out[idxSanctions], errs[idxSanctions] = p.runRaced(ctx, idxSanctions, tx, &stage1)
	}
	for _, i := range [...]int{idxIdentity, idxDecision, idxBehavioral} {
		if p.inline[i] {
			run(i, &stage1)
		}
	}
	stage2 := stage1
	stage2.PEPHits = senderPEPHits(out[idxSanctions])
	run(idxRegulatory, &stage2)
	run(idxCustom, &stage2)
	wg.Wait()

	if err := errors.Join(errs[:]...); err != nil {
		return Result{}, err
	}
	res := Result{Breakdown: out[:], Aggregate: aggregateWith(out[:], e.Engines), FX: fx, AmountNGN: amountNGN, FXMissing: missing}
	for _, v := range out {
		res.TriggeredRules = append(res.TriggeredRules, v.RulesTriggered...)
		if v.Skipped {
			res.RetroScreening = true
		}
	}
	res.Case = DecideCase(res.Breakdown, res.Aggregate)
	res.shadow, res.Breakdown[idxCustom].shadow = res.Breakdown[idxCustom].shadow, nil
	res.TotalLatencyMs = p.now().Sub(start).Milliseconds()
	return res, nil
}

// runInline runs engine i on the calling goroutine. A fail-open engine's verdict that comes back
// after its deadline counts as a missed deadline: its stage is skipped and retro-screening covers
// it, as when a raced engine misses its deadline. A fail-closed engine's late verdict stands: an
// inline engine only computes, so it is late when the host did not schedule it (a 2-core host at
// saturation left goroutines waiting past the 50 ms deadline), not because it hung, and its
// verdict is right. Failing the screening for the time already spent answered a completed
// screening with an error (500 through /api/v1) that its caller then retried, adding work when
// there was least room for it.
func (p *Pipeline) runInline(ctx context.Context, i int, tx *Transaction, e *Enrichment) (EngineVerdict, error) {
	start := p.now()
	v, err := p.engines[i].Evaluate(ctx, tx, e)
	if err == nil && FailsOpen(p.engines[i].Category()) && p.now().Sub(start) > p.timeouts[i] {
		err = context.DeadlineExceeded
	}
	return p.settle(i, start, v, err)
}

// runRaced runs engine i under its deadline. The engine runs in its own goroutine so that one
// ignoring ctx cannot hold the screening past the deadline; its late result is dropped.
func (p *Pipeline) runRaced(parent context.Context, i int, tx *Transaction, e *Enrichment) (EngineVerdict, error) {
	start := p.now()
	ctx, cancel := context.WithTimeout(parent, p.timeouts[i])
	defer cancel()
	done := make(chan engineResult, 1)
	go func() {
		v, err := p.engines[i].Evaluate(ctx, tx, e)
		done <- engineResult{v, err}
	}()
	var r engineResult
	select {
	case r = <-done:
	case <-ctx.Done():
		r.err = ctx.Err()
	}
	return p.settle(i, start, r.v, r.err)
}

type engineResult struct {
	v   EngineVerdict
	err error
}

// settle finishes engine i's verdict: its category and latency, or for a failure either a
// Skipped verdict with the reason (fail-open engines) or the error.
func (p *Pipeline) settle(i int, start time.Time, v EngineVerdict, err error) (EngineVerdict, error) {
	cat := p.engines[i].Category()
	if err == nil {
		v.Category = cat
		v.LatencyMs = p.now().Sub(start).Milliseconds()
		return v, nil
	}
	if FailsOpen(cat) {
		reason := "engine error: " + err.Error()
		var unavailable *EngineUnavailable
		switch {
		case errors.As(err, &unavailable):
			reason = unavailable.Reason
		case errors.Is(err, context.DeadlineExceeded):
			reason = fmt.Sprintf("deadline of %s exceeded", p.timeouts[i])
		}
		return EngineVerdict{Category: cat, Outcome: rules.Approve, Skipped: true, SkipReason: reason,
			LatencyMs: p.now().Sub(start).Milliseconds()}, nil
	}
	return EngineVerdict{}, fmt.Errorf("%s: %w", cat, err)
}
