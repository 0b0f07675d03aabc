// Package flight shares one read among the callers that miss a cache at the same moment: at a
// service's start, or when an entry expires, under load dozens of requests miss together, and
// each would take a pool connection of its own (a new one, at start) to read the same rows
// (issue 15: the first second's p99 was 58-256 ms at 1,000 screenings/s).
//
// flight is a leaf: it imports only the standard library and golang.org/x/sync.
package flight

import (
	"context"
	"time"

	"golang.org/x/sync/singleflight"
)

// Budget bounds a shared read, which runs without its first caller's cancellation.
const Budget = 10 * time.Second

// Group runs one fetch per key for all the callers of that key at the same time. The zero
// value is ready to use. A cache that drops entries puts its drop count in the key, so that a
// caller that misses after a drop never joins a read that began before it.
type Group[V any] struct {
	g singleflight.Group
}

// Do runs fetch once for all the callers of key at the same time, on ctx's values without its
// cancellation and bounded by Budget, so that one caller giving up fails none of the others;
// each caller still waits only as long as its own ctx allows. The value comes back with the
// error, as fetch returned them.
func (g *Group[V]) Do(ctx context.Context, key string, fetch func(context.Context) (V, error)) (V, error) {
	ch := g.g.DoChan(key, func() (any, error) {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), Budget)
		defer cancel()
		return fetch(fctx)
	})
	select {
	case r := <-ch:
		v, _ := r.Val.(V)
		return v, r.Err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}
