package app

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/postgres"
)

// wireInterdictions wires issue 16 point 1: the in-memory cache of the interdictions in force
// that screening reads (invalidated on every replica by LISTEN/NOTIFY), and InterdictionService
// (the queue across cases and the four-eyes lift). It runs before wireCases, which hooks the
// cache's invalidation to confirmations, and wireScreening, which reads it.
func wireInterdictions(w *wiring) error {
	store := postgres.NewInterdictionStore(w.db)
	cache := postgres.NewInterdictionCache(store, w.log)
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan struct{})
	go cache.Listen(ctx, w.db, func() { close(ready) })
	select { // screen with the invalidation channel in place, or warn: the cache then never learns
	case <-ready:
	case <-time.After(5 * time.Second):
		w.log.Warn("interdiction listener not ready; it keeps reconnecting and empties the cache when it does")
	}
	w.closers = append(w.closers, stop)
	w.interdictions = cache

	caseStore := postgres.NewCaseStore(w.db)
	svc := cases.NewService(caseStore, postgres.NewCaseUsers(w.db), w.now)
	svc.OnInterdictionChange = cache.Invalidate
	p, h := complydv1connect.NewInterdictionServiceHandler(connectapi.NewInterdictionHandler(svc, store, caseStore, w.log), w.handlerOpts...)
	w.addService(complydv1connect.InterdictionServiceName, p, h)
	return nil
}
