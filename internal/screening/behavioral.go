package screening

import (
	"context"
	"fmt"
	"math"

	"github.com/complyd/complyd/internal/rules"
)

// Behavioral thresholds.
const (
	// MaxTravelSpeedKmh is the fastest plausible travel (an airliner): faster is impossible travel.
	MaxTravelSpeedKmh = 900
	// MinTravelKm ignores location jumps shorter than this (GPS and IP geolocation noise).
	MinTravelKm = 50
	// VelocityCount is the 60-minute count (this one included) that flags velocity; above
	// AML-007's 5 because that rule already reports rapid succession.
	VelocityCount = 10
	earthRadiusKm = 6371.0
)

// BehavioralEngine compares the transaction with the account's behavioral profile (pipeline
// step 8). It fails open in the Pipeline like sanctions.
type BehavioralEngine struct{}

// NewBehavioralEngine returns the Behavioral Analysis engine.
func NewBehavioralEngine() *BehavioralEngine { return &BehavioralEngine{} }

// Category implements Engine.
func (BehavioralEngine) Category() string { return CategoryBehavioral }

// Inline implements InlineEngine: the engine only computes in memory.
func (BehavioralEngine) Inline() bool { return true }

// Evaluate applies the signals below. Unlike the other engines the score is the sum of the
// signals' scores capped at 100, because behavioral signals compound; the outcome is the most
// severe signal's:
//   - BEHAV-NEW-DEVICE: a device id never seen on an account that has known devices → 40 REVIEW.
//   - BEHAV-DEVICE-SWITCH: a known device other than the last one → 15 APPROVE.
//   - BEHAV-VELOCITY: VelocityCount or more transactions in 60 minutes → 50 REVIEW.
//   - BEHAV-IMPOSSIBLE-TRAVEL: at least MinTravelKm from the last location at an implied speed
//     above MaxTravelSpeedKmh → 80 ESCALATE (a FRAUD_ALERT case).
//   - BEHAV-IP-CHANGE: an IP address other than the last one → 20 APPROVE.
func (BehavioralEngine) Evaluate(ctx context.Context, tx *Transaction, e *Enrichment) (EngineVerdict, error) {
	if err := ctx.Err(); err != nil {
		return EngineVerdict{}, err
	}
	b := newVerdict(CategoryBehavioral)
	sum := 0
	fire := func(r TriggeredRule, actions ...string) {
		sum += r.RiskScore
		b.trigger(r, actions...)
	}
	p := &e.Profile
	if tx.DeviceID != "" {
		switch {
		case len(p.KnownDevices) > 0 && !contains(p.KnownDevices, tx.DeviceID):
			fire(TriggeredRule{ID: "BEHAV-NEW-DEVICE", Name: "New Device", RiskScore: 40, Outcome: rules.Review,
				Details: fmt.Sprintf("device %q was never seen on this account", tx.DeviceID)},
				rules.ActionStepUpAuthentication, rules.ActionNotifyOfficer)
		case p.LastDeviceID != "" && p.LastDeviceID != tx.DeviceID:
			fire(TriggeredRule{ID: "BEHAV-DEVICE-SWITCH", Name: "Device Switch", RiskScore: 15, Outcome: rules.Approve,
				Details: fmt.Sprintf("known device %q differs from the last one %q", tx.DeviceID, p.LastDeviceID)})
		}
	}
	if n := e.History.Count60m + 1; n >= VelocityCount {
		fire(TriggeredRule{ID: "BEHAV-VELOCITY", Name: "High Velocity", RiskScore: 50, Outcome: rules.Review,
			Details: fmt.Sprintf("%d transactions within 60 minutes", n)}, rules.ActionNotifyOfficer)
	}
	if tx.Latitude != nil && tx.Longitude != nil && p.LastLatitude != nil && p.LastLongitude != nil && p.LastLocationAt != nil {
		km := HaversineKm(*p.LastLatitude, *p.LastLongitude, *tx.Latitude, *tx.Longitude)
		hours := tx.Timestamp.Sub(*p.LastLocationAt).Hours()
		if km >= MinTravelKm && (hours <= 0 || km/hours > MaxTravelSpeedKmh) {
			speed := "instantly"
			if hours > 0 {
				speed = fmt.Sprintf("at %.0f km/h", km/hours)
			}
			fire(TriggeredRule{ID: "BEHAV-IMPOSSIBLE-TRAVEL", Name: "Impossible Travel", RiskScore: 80, Outcome: rules.Escalate,
				Details: fmt.Sprintf("%.0f km from the last location, %s", km, speed)},
				rules.ActionStepUpAuthentication, rules.ActionNotifyCompliance, rules.ActionCreateCase)
		}
	}
	if tx.IPAddress != "" && p.LastIPAddress != "" && tx.IPAddress != p.LastIPAddress {
		fire(TriggeredRule{ID: "BEHAV-IP-CHANGE", Name: "IP Change", RiskScore: 20, Outcome: rules.Approve,
			Details: fmt.Sprintf("IP address %s differs from the last one %s", tx.IPAddress, p.LastIPAddress)})
	}
	b.v.Score = min(sum, 100)
	return b.verdict(), nil
}

// HaversineKm returns the great-circle distance between two coordinates in kilometres.
func HaversineKm(lat1, lon1, lat2, lon2 float64) float64 {
	rad := func(d float64) float64 { return d * math.Pi / 180 }
	dLat, dLon := rad(lat2-lat1), rad(lon2-lon1)
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(rad(lat1))*math.Cos(rad(lat2))*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(a)))
}
