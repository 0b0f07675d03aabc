package screenstore_test

import (
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/screening"
)

// TestScreeningStoreOptionalColumns: the group commit's array parameters (arrays.go) store an
// absent optional field as NULL, as the single-value nullIfEmpty does, and a present one as
// given, in the same batch or not: text, timestamps, coordinates and metadata, with the
// transaction's id and timestamp exact.
func TestScreeningStoreOptionalColumns(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, t, db)

	bare := record(ten.ID, "opt-bare", "")
	full := record(ten.ID, "opt-full", "")
	verified := time.Date(2026, 3, 4, 5, 6, 7, 123456000, time.UTC)
	lat, lon := 6.5244, 3.3792
	f := full.Tx
	f.SenderBVN, f.ReceiverAccountNumber, f.ReceiverName, f.ReceiverCountry = "22212345678", "0123456789", "Chike Okafor", "NG"
	f.Narration, f.DeviceID, f.IPAddress = "rent", "dev-1", "10.0.0.1"
	f.SenderKYCVerifiedAt, f.Latitude, f.Longitude = &verified, &lat, &lon
	f.Metadata = map[string]any{"channelRef": "abc"}
	var wg sync.WaitGroup
	for _, r := range []*screening.Record{bare, full} {
		wg.Go(func() {
			_, err := st.Save(ctx, r)
			require.NoError(t, err)
		})
	}
	wg.Wait()

	type row struct {
		ID                                          string
		Timestamp                                   time.Time
		BVN, RecvAcct, RecvName, Country, Narration *string
		Device, IP, Metadata                        *string
		Verified                                    *time.Time
		Lat, Lon                                    *float64
	}
	read := func(ext string) row {
		var r row
		require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
				return err
			}
			return tx.QueryRow(ctx, `select id::text, transaction_timestamp, sender_bvn, receiver_account_number, receiver_name,
				receiver_country, narration, device_id, ip_address, metadata::text, sender_kyc_verified_at, latitude, longitude
				from transactions where tenant_id = $1 and external_id = $2`, string(ten.ID), ext).
				Scan(&r.ID, &r.Timestamp, &r.BVN, &r.RecvAcct, &r.RecvName, &r.Country, &r.Narration, &r.Device, &r.IP,
					&r.Metadata, &r.Verified, &r.Lat, &r.Lon)
		}))
		return r
	}

	b := read("opt-bare")
	require.Equal(t, bare.ID, b.ID)
	require.True(t, bare.Tx.Timestamp.Equal(b.Timestamp))
	require.Equal(t, row{ID: b.ID, Timestamp: b.Timestamp}, b, "every absent optional field is NULL")

	g := read("opt-full")
	require.Equal(t, full.ID, g.ID)
	require.True(t, full.Tx.Timestamp.Equal(g.Timestamp))
	for name, v := range map[string]*string{"sender_bvn": g.BVN, "receiver_account_number": g.RecvAcct, "receiver_name": g.RecvName,
		"receiver_country": g.Country, "narration": g.Narration, "device_id": g.Device, "ip_address": g.IP, "metadata": g.Metadata} {
		require.NotNil(t, v, name)
	}
	require.Equal(t, []string{"22212345678", "0123456789", "Chike Okafor", "NG", "rent", "dev-1", "10.0.0.1", `{"channelRef": "abc"}`},
		[]string{*g.BVN, *g.RecvAcct, *g.RecvName, *g.Country, *g.Narration, *g.Device, *g.IP, *g.Metadata})
	require.NotNil(t, g.Verified)
	require.True(t, verified.Equal(*g.Verified))
	require.Equal(t, lat, *g.Lat)
	require.Equal(t, lon, *g.Lon)
}
