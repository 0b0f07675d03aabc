package customers

import (
	"fmt"
	"slices"
	"time"

	"github.com/complyd/complyd/internal/screening"
)

// Ratings, lowest first.
const (
	RatingLow    = "LOW"
	RatingMedium = "MEDIUM"
	RatingHigh   = "HIGH"
)

// Bands of the score (0..100): LOW < 25 <= MEDIUM < 50 <= HIGH.
const (
	MediumFrom = 25
	HighFrom   = 50
)

// Factor is one input that added points to a score.
type Factor struct {
	Name   string `json:"name"`
	Points int    `json:"points"`
	Detail string `json:"detail"`
}

// Inputs are the facts a rating is computed from, read by the store.
type Inputs struct {
	// Type is INDIVIDUAL or BUSINESS.
	Type string
	// KYCStatus and KYCTier of the latest KYC application with the profile's BVN ("" if none).
	KYCStatus, KYCTier string
	// KYBStatus of the latest KYB application with the profile's RC number ("" if none).
	KYBStatus string
	// Cases linked to the customer, by type and status.
	Cases []CaseFact
	// Transactions of the last 90 days sent with the customer's BVN.
	Transactions90d int
	// Alerts90d: those screened REVIEW, ESCALATE or BLOCK.
	Alerts90d int
	// CrossBorder90d: those to a receiver country other than NG.
	CrossBorder90d int
	// Cash90d: deposits and withdrawals.
	Cash90d int
	// Countries the customer sent to in the 90 days (ISO codes).
	Countries []string
}

// CaseFact is one linked case.
type CaseFact struct{ Type, Status string }

// Rating is a computed rating.
type Rating struct {
	Rating  string
	Score   int
	Factors []Factor
}

// Rate computes the rating of in (docs/guide/customers.md "Rating" documents every factor). The
// score is the factors' sum capped at 100; some factors also set a floor on the rating
// (a PEP, a sanctions hit, a call-for-action country: enhanced due diligence, FATF R.12, R.19).
func Rate(in Inputs) Rating {
	var fs []Factor
	floor := RatingLow
	add := func(name string, points int, detail string) {
		fs = append(fs, Factor{Name: name, Points: points, Detail: detail})
	}
	raise := func(r string) {
		if rank(r) > rank(floor) {
			floor = r
		}
	}

	// Identity verification.
	status, what := in.KYCStatus, "KYC"
	if in.Type == "BUSINESS" {
		status, what = in.KYBStatus, "KYB"
	}
	switch status {
	case "APPROVED":
	case "":
		add("IDENTITY_UNVERIFIED", 25, fmt.Sprintf("no %s application", what))
	case "REJECTED":
		add("IDENTITY_REJECTED", 40, fmt.Sprintf("the latest %s application was rejected", what))
	case "EXPIRED":
		add("IDENTITY_EXPIRED", 20, fmt.Sprintf("the latest %s application expired", what))
	default:
		add("IDENTITY_PENDING", 15, fmt.Sprintf("the latest %s application is %s", what, status))
	}
	if in.Type != "BUSINESS" && in.KYCStatus == "APPROVED" {
		switch in.KYCTier {
		case "TIER_1":
			add("KYC_TIER", 10, "TIER_1: the least identification")
		case "TIER_2":
			add("KYC_TIER", 5, "TIER_2")
		}
	}

	// PEP and sanctions, from linked cases not resolved as false positives.
	openCases, truePositives := 0, 0
	for _, c := range in.Cases {
		live := c.Status != "RESOLVED_FALSE_POSITIVE"
		switch {
		case c.Type == "PEP_MATCH" && live:
			if !slices.ContainsFunc(fs, func(f Factor) bool { return f.Name == "PEP" }) {
				add("PEP", 30, "a politically exposed person match not resolved as a false positive")
			}
			raise(RatingHigh)
		case c.Type == "SANCTIONS_HIT" && live:
			if !slices.ContainsFunc(fs, func(f Factor) bool { return f.Name == "SANCTIONS" }) {
				add("SANCTIONS", 40, "a sanctions hit not resolved as a false positive")
			}
			raise(RatingHigh)
		}
		switch c.Status {
		case "RESOLVED_TRUE_POSITIVE":
			truePositives++
		case "RESOLVED_FALSE_POSITIVE", "CLOSED":
		default:
			openCases++
		}
	}
	if openCases > 0 {
		add("OPEN_CASES", min(10*openCases, 20), countOf(openCases, "open case", "open cases"))
	}
	if truePositives > 0 {
		add("CONFIRMED_CASES", min(25*truePositives, 50), countOf(truePositives, "case", "cases")+" resolved as true positive")
	}

	// Screening alerts.
	switch a := in.Alerts90d; {
	case a >= 20:
		add("ALERTS", 20, fmt.Sprintf("%d screening alerts in 90 days", a))
	case a >= 5:
		add("ALERTS", 10, fmt.Sprintf("%d screening alerts in 90 days", a))
	case a >= 1:
		add("ALERTS", 5, countOf(a, "screening alert", "screening alerts")+" in 90 days")
	}

	// Countries (the FATF lists screening uses).
	cfg := screening.DefaultDecisionConfig()
	var cfa, grey []string
	for _, c := range in.Countries {
		switch {
		case slices.Contains(cfg.CallForAction, c):
			cfa = append(cfa, c)
		case slices.Contains(cfg.Monitored, c):
			grey = append(grey, c)
		}
	}
	if len(cfa) > 0 {
		add("COUNTRY_CALL_FOR_ACTION", 30, fmt.Sprintf("sent to %v (FATF call for action)", cfa))
		raise(RatingHigh)
	} else if len(grey) > 0 {
		add("COUNTRY_MONITORED", 15, fmt.Sprintf("sent to %v (FATF increased monitoring)", grey))
	}

	// Products and channels.
	if n := in.Transactions90d; n >= 4 {
		if in.CrossBorder90d*4 >= n {
			add("CROSS_BORDER", 10, fmt.Sprintf("%d of %d transactions cross-border", in.CrossBorder90d, n))
		}
		if in.Cash90d*2 >= n {
			add("CASH_INTENSIVE", 10, fmt.Sprintf("%d of %d transactions are deposits or withdrawals", in.Cash90d, n))
		}
	}

	score := 0
	for _, f := range fs {
		score += f.Points
	}
	score = min(score, 100)
	r := RatingLow
	switch {
	case score >= HighFrom:
		r = RatingHigh
	case score >= MediumFrom:
		r = RatingMedium
	}
	if rank(floor) > rank(r) {
		r = floor
	}
	if fs == nil {
		fs = []Factor{}
	}
	return Rating{Rating: r, Score: score, Factors: fs}
}

func rank(r string) int {
	switch r {
	case RatingHigh:
		return 2
	case RatingMedium:
		return 1
	}
	return 0
}

// ReviewInterval is the time between periodic reviews of a rating: HIGH every year, MEDIUM
// every two, LOW every three (docs/guide/customers.md "Periodic review" gives the sources).
func ReviewInterval(rating string) time.Duration {
	const year = 365 * 24 * time.Hour
	switch rating {
	case RatingHigh:
		return year
	case RatingMedium:
		return 2 * year
	}
	return 3 * year
}

// NextReview is the review date of a rating: the interval after the last review, or after the
// first rating when the customer was never reviewed.
func NextReview(rating string, lastReviewed *time.Time, firstRated time.Time) time.Time {
	from := firstRated
	if lastReviewed != nil {
		from = *lastReviewed
	}
	return from.Add(ReviewInterval(rating))
}

// countOf writes a count with its noun in the right number: "1 open case", "2 open cases".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
