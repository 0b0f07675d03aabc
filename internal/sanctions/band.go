package sanctions

// The sanctions outcome bands of docs/design/design-choices.md §8, as returned by Band.
const (
	BandBlock    = "BLOCK"
	BandEscalate = "ESCALATE"
	BandReview   = "REVIEW"
)

// Band maps a match score to its docs/design/design-choices.md §8 outcome: ≥0.95 BLOCK,
// ≥0.85 ESCALATE, ≥0.75 REVIEW, else "" (no hit). Lower bounds are inclusive.
func Band(score float64) string {
	switch {
	case score >= 0.95:
		return BandBlock
	case score >= 0.85:
		return BandEscalate
	case score >= 0.75:
		return BandReview
	}
	return ""
}
