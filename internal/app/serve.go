package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// serve migrates, then serves every protocol on cfg.Addr until ctx ends. ready, when set, is
// called with the bound address (tests listen on 127.0.0.1:0).
func serve(ctx context.Context, cfg config, log *slog.Logger, ready func(addr string)) error {
	db, err := openDB(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := buildApp(ctx, cfg, db, log, appOptions{})
	if err != nil {
		return err
	}
	defer a.Close()
	return runApp(ctx, a, cfg, log, ready)
}

// runApp starts the workers and background tasks, serves until ctx ends, then stops the
// workers (used by serve and dev).
func runApp(ctx context.Context, a *app, cfg config, log *slog.Logger, ready func(string)) error {
	l, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", cfg.Addr, err)
	}
	return runAppOn(ctx, a, cfg, l, log, ready)
}

// runAppOn is runApp on a listener already bound (dev binds its address before any other work).
func runAppOn(ctx context.Context, a *app, cfg config, l net.Listener, log *slog.Logger, ready func(string)) error {
	if err := a.Runner.Start(ctx); err != nil {
		l.Close()
		return fmt.Errorf("start workers: %w", err)
	}
	a.startBackground(ctx)
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = a.Runner.Stop(stopCtx)
	}()
	return serveListener(ctx, l, newHTTPServer(a.Handler, cfg.HTTP), log, ready)
}

func serveListener(ctx context.Context, l net.Listener, srv *http.Server, log *slog.Logger, ready func(string)) error {
	log.Info("complyd serving", "addr", l.Addr().String())
	if ready != nil {
		ready(l.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func migrateOnly(ctx context.Context, cfg config, log *slog.Logger) error {
	db, err := openDB(ctx, cfg, log)
	if err != nil {
		return err
	}
	db.Close()
	log.Info("migrations applied")
	return nil
}
