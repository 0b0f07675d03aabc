package sanctions

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// osaReference is the full-table optimal-string-alignment distance (capped at
// limit+1), the plain recurrence the banded osaDistance must agree with.
func osaReference(a, b string, limit int) int {
	la, lb := len(a), len(b)
	if abs(la-lb) > limit {
		return limit + 1
	}
	var buf [3][40]int
	prev2, prev, cur := buf[0][:lb+1], buf[1][:lb+1], buf[2][:lb+1]
	for j := 0; j <= lb; j++ {
		prev[j] = j
	}
	for i := 1; i <= la; i++ {
		cur[0] = i
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[lb], limit+1)
}

// TestOSADistanceBand: the banded osaDistance equals the full recurrence up
// to its limit, on random words over a small alphabet (many near matches)
// with up to four random edits, limits 0 to 4.
func TestOSADistanceBand(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcde"[rng.IntN(5)]
		}
		return string(b)
	}
	for range 100000 {
		a := word(rng.IntN(14))
		b := []byte(a)
		for e := rng.IntN(5); e > 0; e-- {
			if len(b) == 0 {
				b = append(b, 'a')
				continue
			}
			i := rng.IntN(len(b))
			switch rng.IntN(4) {
			case 0:
				b[i] = "abcde"[rng.IntN(5)]
			case 1:
				b = append(b[:i], b[i+1:]...)
			case 2:
				b = append(b[:i], append([]byte{"abcde"[rng.IntN(5)]}, b[i:]...)...)
			default:
				if i+1 < len(b) {
					b[i], b[i+1] = b[i+1], b[i]
				}
			}
		}
		for limit := 0; limit <= 4; limit++ {
			got, want := osaDistance(a, string(b), limit), osaReference(a, string(b), limit)
			if min(got, limit+1) != want {
				t.Fatalf("%q %q limit %d: got %d want %d", a, b, limit, got, want)
			}
		}
	}
}

func TestUniqueExact(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q, n         string
		wantQ, wantN uint64
	}{
		// institute and academy once on each side; of is twice in the name
		{"Institute of the Academy", "Academy Institute of Physics of Moscow", 0b1001, 0b0011},
		{"Mohamed Omar Mohamed", "Omar Mohamed", 0b010, 0b01}, // mohamed twice in the query
		{"J. Smith", "John Smith J.", 0b10, 0b010},            // an initial never counts
		{"Ahmed Ali", "Ali Ali Ahmed", 0b01, 0b100},           // ali twice in the name
	} {
		gq, gn := uniqueExact(tokenize(c.q), tokenize(c.n))
		require.Equal(t, c.wantQ, gq, "%s / %s: query", c.q, c.n)
		require.Equal(t, c.wantN, gn, "%s / %s: name", c.q, c.n)
	}
}
