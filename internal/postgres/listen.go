package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Listener holds a dedicated connection (outside the pool) that LISTENs on one channel and
// reconnects with backoff when the connection is lost.
type Listener struct {
	db      *DB
	channel string
	// Connected runs after every (re)connection, once LISTEN is in place: notifications sent
	// while disconnected are lost, so the caller reloads its state here.
	Connected func(ctx context.Context) error
	// Notified runs for each notification's payload, in order.
	Notified func(ctx context.Context, payload string) error
	// MaxBackoff caps the reconnection delay (default 30s).
	MaxBackoff time.Duration
	// ready is closed after the first successful LISTEN.
	ready chan struct{}
}

// NewListener returns a listener on channel; start it with Run.
func (db *DB) NewListener(channel string) *Listener {
	return &Listener{db: db, channel: channel, MaxBackoff: 30 * time.Second, ready: make(chan struct{})}
}

// Ready is closed once the listener has connected the first time.
func (l *Listener) Ready() <-chan struct{} { return l.ready }

// Run listens until ctx ends.
func (l *Listener) Run(ctx context.Context) {
	backoff := 100 * time.Millisecond
	first := true
	for ctx.Err() == nil {
		err := l.session(ctx, &first)
		if ctx.Err() != nil {
			return
		}
		l.db.logger.WarnContext(ctx, "listen connection lost; reconnecting", "channel", l.channel, "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, l.MaxBackoff)
		if err == nil {
			backoff = 100 * time.Millisecond
		}
	}
}

func (l *Listener) session(ctx context.Context, first *bool) error {
	conn, err := pgx.ConnectConfig(ctx, l.db.Pool.Config().ConnConfig.Copy())
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{l.channel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if l.Connected != nil {
		if err := l.Connected(ctx); err != nil {
			l.db.logger.ErrorContext(ctx, "reload after listen", "channel", l.channel, "err", err)
		}
	}
	if *first {
		*first = false
		close(l.ready)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		}
		if l.Notified != nil {
			if err := l.Notified(ctx, n.Payload); err != nil {
				l.db.logger.ErrorContext(ctx, "handle notification", "channel", l.channel, "payload", n.Payload, "err", err)
			}
		}
	}
}
