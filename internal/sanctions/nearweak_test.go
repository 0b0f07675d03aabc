package sanctions

import (
	"testing"
)

// TestMayReachWeak checks that mayReachWeak, the set form, equals mayReach
// word by word on every token and joined pair of the eval queries and of
// the listed names.
func TestMayReachWeak(t *testing.T) {
	_, idx := realLists(t)
	lws := longWeakTokens()
	check := func(q *token) {
		got := mayReachWeak(q)
		for k := range lws {
			if want := mayReach(q, &lws[k]); want != (got&(1<<k) != 0) {
				t.Fatalf("%q against %q: mayReach %v, mayReachWeak %v", q.canon, lws[k].canon, want, !want)
			}
		}
	}
	n := 0
	for _, c := range loadEvalCases(t) {
		qt := tokenize(c.Query)
		for i := range qt {
			check(&qt[i])
			n++
		}
		for _, qc := range joinPairs(qt, nil) {
			if qc.canon != "" {
				check(&qc)
				n++
			}
		}
	}
	for i := range idx.names {
		for j := range idx.names[i].tokens {
			check(&idx.names[i].tokens[j])
			n++
		}
	}
	t.Logf("%d tokens", n)
}
