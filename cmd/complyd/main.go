// Command complyd is the compliance screening service and its operator CLI: serve, migrate, dev,
// tenant create, wallet credit, watchlist import/eval. The wiring lives in internal/app, where
// the API and end-to-end tests can build it; main only sets the process up.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/complyd/complyd/internal/app"
	"github.com/complyd/complyd/internal/requestid"
)

// defaultGCPercent is the garbage collector's target when GOGC is not set: the service's live
// heap is small (the sanctions index and caches, about 70 MB) while the screening path
// allocates some 70 MB/s at 3,000 screenings/s, so the runtime's default of 100 collects every
// second, and each collection's marking slows every screening in flight. 1000 collects about
// every ten seconds for a peak heap of under 1 GB; set GOGC (and GOMEMLIMIT in a container) to
// choose otherwise (docs/configuration.md).
const defaultGCPercent = 1000

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(requestid.Handler{Handler: slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})})
	if err := app.Run(ctx, os.Args[1:], log); err != nil {
		fmt.Fprintln(os.Stderr, "complyd:", err)
		os.Exit(1)
	}
}
