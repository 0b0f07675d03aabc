package webhook

import "time"

// MaxAttempts is the number of attempts of one delivery before it is dead-lettered
// (docs/reference/specification.md part 6 rule 2, docs/design/design-choices.md §7).
const MaxAttempts = 5

// DeadLetterRetention is how long a DEAD delivery is kept (docs/reference/specification.md part 6 rule 2).
const DeadLetterRetention = 7 * 24 * time.Hour

// JitterFraction is the ± spread applied to each base delay.
const JitterFraction = 0.2

// baseDelays[i] is the wait after attempt i+1 failed (docs/design/design-choices.md §7: about 10 s, 1 min,
// 5 min, 30 min).
var baseDelays = [MaxAttempts - 1]time.Duration{10 * time.Second, time.Minute, 5 * time.Minute, 30 * time.Minute}

// Jitter is a source of uniform numbers in [0, 1); *math/rand/v2.Rand and *math/rand.Rand
// satisfy it.
type Jitter interface {
	Float64() float64
}

// NextAttemptDelay returns the wait before the next attempt after attempt (1-based) failed:
// 10 s, 1 min, 5 min, 30 min for attempts 1 to 4, each spread uniformly by ±20 % with rnd (no
// spread when rnd is nil) so that a receiver outage does not end in a synchronized burst. It
// returns 0 once attempt reaches MaxAttempts: there is no next attempt. Attempt values below 1
// count as 1.
func NextAttemptDelay(attempt int, rnd Jitter) time.Duration {
	attempt = max(attempt, 1)
	if attempt >= MaxAttempts {
		return 0
	}
	base := baseDelays[attempt-1]
	if rnd == nil {
		return base
	}
	f := 1 - JitterFraction + 2*JitterFraction*rnd.Float64()
	return time.Duration(float64(base) * f)
}
