package screening

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// EngineInfo describes one engine for GET /engines (docs/design/engines.md).
type EngineInfo struct {
	Key      string // SANCTIONS, REGULATORY, IDENTITY, CUSTOM_RULES, DECISION, BEHAVIORAL
	Category string
	// DefaultWeight is the spec's weight (docs/reference/specification.md 4.3); MinWeight and MaxWeight bound
	// a tenant's weight. A mandatory engine cannot be weakened below its default.
	DefaultWeight, MinWeight, MaxWeight float64
	// Mandatory engines carry the regulatory obligations (sanctions screening, the AML-001..009
	// rules, KYC/KYB identity risk) and cannot be disabled.
	Mandatory bool
}

// MaxEngineWeight bounds every weight; optional engines may go down to MinOptionalWeight.
const (
	MaxEngineWeight   = 2.0
	MinOptionalWeight = 0.5
)

// Engines lists the engines in the spec's riskBreakdown order.
func Engines() []EngineInfo {
	e := func(key, cat string, mandatory bool) EngineInfo {
		w := Weights[cat]
		min := MinOptionalWeight
		if mandatory {
			min = w
		}
		return EngineInfo{Key: key, Category: cat, DefaultWeight: w, MinWeight: min, MaxWeight: MaxEngineWeight, Mandatory: mandatory}
	}
	return []EngineInfo{
		e("SANCTIONS", CategorySanctions, true),
		e("REGULATORY", CategoryRegulatory, true),
		e("IDENTITY", CategoryIdentity, true),
		e("CUSTOM_RULES", CategoryCustom, false),
		e("DECISION", CategoryDecision, false),
		e("BEHAVIORAL", CategoryBehavioral, false),
	}
}

// DefaultEngineConfigID names the built-in configuration (the spec's weights, every engine
// on) in stored verdicts of a tenant that never changed its engines.
const DefaultEngineConfigID = "default"

// EngineConfig is one version of a tenant's engine configuration. Versions are immutable: a
// change stores a new one, and every verdict stores the id of the version it was scored with.
type EngineConfig struct {
	ID        string
	Version   int
	Weights   map[string]float64 // by category; a missing category has its default weight
	Disabled  map[string]bool    // by category
	Reason    string
	CreatedBy string
	CreatedAt time.Time
}

// DefaultEngineConfig is the built-in configuration.
func DefaultEngineConfig() *EngineConfig {
	return &EngineConfig{ID: DefaultEngineConfigID, Weights: map[string]float64{}, Disabled: map[string]bool{}}
}

// Weight is category's weight under c (nil c: the default).
func (c *EngineConfig) Weight(category string) float64 {
	if c != nil {
		if w, ok := c.Weights[category]; ok {
			return w
		}
	}
	return Weights[category]
}

// IsDisabled reports whether c disables category.
func (c *EngineConfig) IsDisabled(category string) bool { return c != nil && c.Disabled[category] }

// configID is the id stored with a verdict scored under c.
func (c *EngineConfig) configID() string {
	if c == nil || c.ID == "" {
		return DefaultEngineConfigID
	}
	return c.ID
}

// EngineChange is PATCH /engines/:key: nil leaves a field.
type EngineChange struct {
	Key     string
	Enabled *bool
	Weight  *float64
	Reason  string
}

// apply returns the next version of c with ch applied. Errors: VALIDATION_ERROR (unknown key,
// weight out of bounds, no change, no reason); CONFLICT (disabling a mandatory engine).
func (c *EngineConfig) apply(ch EngineChange) (EngineConfig, error) {
	var info *EngineInfo
	for _, e := range Engines() {
		if e.Key == ch.Key {
			info = &e
			break
		}
	}
	if info == nil {
		return EngineConfig{}, apperr.Invalid("key", "unknown engine")
	}
	if strings.TrimSpace(ch.Reason) == "" {
		return EngineConfig{}, apperr.Invalid("reason", "is required")
	}
	if ch.Enabled == nil && ch.Weight == nil {
		return EngineConfig{}, apperr.Invalid("enabled", "give enabled or weight")
	}
	next := EngineConfig{Weights: map[string]float64{}, Disabled: map[string]bool{}, Reason: strings.TrimSpace(ch.Reason)}
	if c != nil {
		for k, v := range c.Weights {
			next.Weights[k] = v
		}
		for k, v := range c.Disabled {
			next.Disabled[k] = v
		}
	}
	if ch.Enabled != nil {
		if !*ch.Enabled && info.Mandatory {
			return EngineConfig{}, apperr.Newf(apperr.Conflict, "%s is mandatory (regulatory) and cannot be disabled", info.Category)
		}
		if *ch.Enabled {
			delete(next.Disabled, info.Category)
		} else {
			next.Disabled[info.Category] = true
		}
	}
	if w := ch.Weight; w != nil {
		// Written so that NaN fails it too (every comparison with NaN is false): a NaN stored
		// as a weight made every later read of the configuration fail (issue 48 point 7b).
		if !(*w >= info.MinWeight && *w <= info.MaxWeight) {
			return EngineConfig{}, apperr.Invalid("weight", fmt.Sprintf("must be between %.2f and %.2f for %s", info.MinWeight, info.MaxWeight, info.Category))
		}
		next.Weights[info.Category] = *w
	}
	return next, nil
}

// EngineConfigStore persists engine configurations (internal/postgres.EngineConfigStore).
type EngineConfigStore interface {
	// Current returns the tenant's latest version, DefaultEngineConfig when none.
	Current(ctx context.Context, tenantID tenancy.TenantID) (*EngineConfig, error)
	// Update locks the tenant's configuration, runs fn on the current version and stores its
	// result as the next version with its audit event, announcing the change to every replica,
	// in one transaction.
	Update(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, fn func(cur *EngineConfig) (EngineConfig, error)) (*EngineConfig, error)
}

// EngineService lists and changes a tenant's engines.
type EngineService struct {
	store      EngineConfigStore
	timeouts   map[string]time.Duration
	invalidate func(tenancy.TenantID)
}

// NewEngineService returns the service; p gives the engines' deadlines.
func NewEngineService(store EngineConfigStore, p *Pipeline, invalidate func(tenancy.TenantID)) *EngineService {
	if store == nil || p == nil || invalidate == nil {
		panic("screening: NewEngineService needs every dependency")
	}
	t := map[string]time.Duration{}
	for i, e := range p.engines {
		t[e.Category()] = p.timeouts[i]
	}
	return &EngineService{store: store, timeouts: t, invalidate: invalidate}
}

// Deadline is category's deadline in this process.
func (s *EngineService) Deadline(category string) time.Duration { return s.timeouts[category] }

// Current returns the tenant's configuration in force.
func (s *EngineService) Current(ctx context.Context, tenantID tenancy.TenantID) (*EngineConfig, error) {
	return s.store.Current(ctx, tenantID)
}

// Update applies ch as a new version. Errors: apply's.
func (s *EngineService) Update(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, ch EngineChange) (*EngineConfig, error) {
	c, err := s.store.Update(ctx, tenantID, actor, func(cur *EngineConfig) (EngineConfig, error) { return cur.apply(ch) })
	if err == nil {
		s.invalidate(tenantID)
	}
	return c, err
}
