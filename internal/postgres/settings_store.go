package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/tenancy"
)

// SettingsChannel is the LISTEN/NOTIFY channel on which a change of a tenant's screening
// settings (trust mode, FX rates, limits, custom rules) is announced; the payload is the tenant
// id. Every replica's SettingsCache drops that tenant's entry.
const SettingsChannel = "complyd_screening_settings"

// SettingsStore reads and changes the tenant settings screening uses.
type SettingsStore struct{ db *DB }

// NewSettingsStore returns the store.
func NewSettingsStore(db *DB) *SettingsStore { return &SettingsStore{db: db} }

// notifySettings announces a change of tenant's settings when tx commits.
func notifySettings(ctx context.Context, tx pgx.Tx, tenant tenancy.TenantID) error {
	_, err := tx.Exec(ctx, "select pg_notify($1, $2)", SettingsChannel, string(tenant))
	return err
}
