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

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(app.DefaultGCPercent) // the collector's target: see app.DefaultGCPercent
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(requestid.Handler{Handler: slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})})
	if err := app.Run(ctx, os.Args[1:], log); err != nil {
		fmt.Fprintln(os.Stderr, "complyd:", err)
		os.Exit(1)
	}
}
