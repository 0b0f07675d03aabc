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

// defaultGCPercent is the garbage collector's target when GOGC is not set. The live heap is about
// 100 MB (the sanctions index and caches) and the screening path allocates about 70 kB per
// screening, so the runtime's default of 100 collects every couple of seconds at 1,000/s, and
// each collection's marking slows every screening in flight. A high target has its own cost:
// the heap grows to the target before the first collections reuse it, and every page it touches
// for the first time is a page fault the kernel zeroes. At 1000 that growth (to 2 GB in one run)
// took 14 % of the server's CPU in its first minute under load; at 400 the first minute costs
// about 60 µs less per screening and later minutes the same, within the noise
// (docs/guide/screening.md "GC"). Set GOGC (and GOMEMLIMIT in a container) to choose otherwise
// (docs/reference/configuration.md).
const defaultGCPercent = 400

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
