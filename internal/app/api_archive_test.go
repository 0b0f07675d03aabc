package app

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/s3"
	"github.com/complyd/complyd/internal/s3/s3test"
)

// TestArchiveAPI: retention, legal holds and archives over /api/v1 and Connect. A legal hold
// placed over Connect keeps its account's old screening in the database while `complyd archive
// run` archives (to versitygw), verifies and drops the rest of the month; an examiner (AUDITOR)
// lists the archive and reads the rows an officer restored; an analyst may not; the retention
// may not go below five years; every change is audited.
func TestArchiveAPI(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	endpoint := s3test.StartVersityGW(t)
	st, err := s3.NewStore(s3.Config{Endpoint: endpoint, Bucket: "complyd", Region: "us-east-1",
		AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey})
	require.NoError(t, err)
	_, err = st.Client().CreateBucket(ctx, &awss3.CreateBucketInput{Bucket: aws.String("complyd")})
	require.NoError(t, err)
	s := newTestServer(t, &serverOpts{Config: func(c *config) {
		c.S3Endpoint, c.S3Bucket, c.S3Region = endpoint, "complyd", "us-east-1"
		c.S3AccessKeyID, c.S3SecretAccessKey = s3test.AccessKey, s3test.SecretKey
	}})
	f, admin := s.tenant()
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)

	// Retention: five years by default, never less.
	var ret struct {
		RetentionYears, MinimumYears int
	}
	s.rest("GET", "/api/v1/tenants/me/retention", cred{Bearer: analyst}, nil).decode(t, &ret)
	require.Equal(t, 5, ret.RetentionYears)
	require.Equal(t, 5, ret.MinimumYears)
	requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/retention", cred{Bearer: admin}, map[string]any{"retentionYears": 4}),
		400, "VALIDATION_ERROR")
	requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/retention", cred{Bearer: officer}, map[string]any{"retentionYears": 7}),
		403, "FORBIDDEN")
	s.rest("PATCH", "/api/v1/tenants/me/retention", cred{Bearer: admin}, map[string]any{"retentionYears": 6}).decode(t, &ret)
	require.Equal(t, 6, ret.RetentionYears)

	// Seven-year-old screenings: two of a held account, three others.
	admin0 := pgtest.AdminOf(ctx, t, s.DBURL)
	month := time.Date(time.Now().UTC().Year()-7, 3, 1, 0, 0, 0, 0, time.UTC)
	insert := func(sender string, at time.Time) string {
		id := uuid.NewString()
		_, err := admin0.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions, engine_verdicts,
  total_latency_ms, processed_at, created_at)
values ($1::uuid, $2, 'ext-' || $1::text, 'TRANSFER', 'MOBILE', 5000, 'NGN', 5000, $3, 'Sender', $4, 'vrd', 'APPROVE', 'LOW', 10, '{}', '[]', 5, $4, $4)`,
			id, string(f.ID), sender, at)
		require.NoError(t, err)
		return id
	}
	held := []string{insert("4444444444", month.Add(time.Hour)), insert("4444444444", month.Add(2*time.Hour))}
	for i := range 3 {
		insert("5555555555", month.Add(time.Duration(i+3)*time.Hour))
	}

	hc, opts := s.clientOpts("connect", cred{Bearer: officer})
	holds := complydv1connect.NewLegalHoldServiceClient(hc, s.URL, opts...)
	h, err := holds.PlaceLegalHold(ctx, connect.NewRequest(&complydv1.PlaceLegalHoldRequest{SubjectType: "ACCOUNT",
		SubjectId: "4444444444", Reason: "court order 17/2026"}))
	require.NoError(t, err)
	require.True(t, h.Msg.Active)
	hc, opts = s.clientOpts("connect", cred{Bearer: analyst})
	_, err = complydv1connect.NewLegalHoldServiceClient(hc, s.URL, opts...).PlaceLegalHold(ctx,
		connect.NewRequest(&complydv1.PlaceLegalHoldRequest{SubjectType: "ACCOUNT", SubjectId: "1", Reason: "x"}))
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err))
	var holdList struct {
		Items []struct {
			ID, SubjectType, SubjectID string
			Active                     bool
		}
		Total int
	}
	s.rest("GET", "/api/v1/legal-holds?activeOnly=true", cred{Bearer: analyst}, nil).decode(t, &holdList)
	require.Equal(t, 1, holdList.Total)
	require.Equal(t, "4444444444", holdList.Items[0].SubjectID)

	// `complyd archive run` for the tenant, over the server's S3 store.
	svc, _ := newArchiveService(&wiring{db: s.DB, blobs: st, now: time.Now, log: slog.New(slog.DiscardHandler)})
	var out bytes.Buffer
	require.NoError(t, runArchiveCmd(ctx, s.DB, svc, &out, "run", f.Slug, ""))
	require.JSONEq(t, `{"tenantId": "`+string(f.ID)+`", "monthsDropped": 1}`, out.String())
	// `complyd archive partitions`: the month's rows are in the default partition (no partition
	// of its own), so there is no partition to drop.
	out.Reset()
	require.NoError(t, runArchiveCmd(ctx, s.DB, svc, &out, "partitions", "", ""))
	require.JSONEq(t, `{"partitionsDropped": 0}`, out.String())
	var left []string
	rows, err := admin0.Query(ctx, `select id::text from transactions where tenant_id = $1 order by id`, string(f.ID))
	require.NoError(t, err)
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		left = append(left, id)
	}
	require.NoError(t, rows.Err())
	require.ElementsMatch(t, held, left, "the held account's screenings stay")

	// Found by an examiner; not by an analyst.
	type archiveOut struct {
		ID, Table, Month, State, Sha256, DataKey string
		Rows, HeldRows                           string // int64 is a JSON string in proto3 JSON
		RestoredRows                             *string
	}
	var list struct {
		Items []archiveOut
		Total int
	}
	s.rest("GET", "/api/v1/archives", cred{Bearer: auditor}, nil).decode(t, &list)
	require.Equal(t, 1, list.Total)
	a := list.Items[0]
	require.Equal(t, "DROPPED", a.State)
	require.Equal(t, month.Format("2006-01"), a.Month)
	require.Equal(t, "3", a.Rows)
	require.Equal(t, "2", a.HeldRows)
	requireRESTError(t, s.rest("GET", "/api/v1/archives", cred{Bearer: analyst}, nil), 403, "FORBIDDEN")
	requireRESTError(t, s.rest("GET", "/api/v1/archives/"+a.ID+"/rows", cred{Bearer: auditor}, nil), 409, "CONFLICT")

	// Restored by an officer, read by the examiner.
	requireRESTError(t, s.rest("POST", "/api/v1/archives/"+a.ID+"/restore", cred{Bearer: auditor}, map[string]any{}), 403, "FORBIDDEN")
	var restored archiveOut
	s.rest("POST", "/api/v1/archives/"+a.ID+"/restore", cred{Bearer: officer}, map[string]any{}).decode(t, &restored)
	require.NotNil(t, restored.RestoredRows)
	require.Equal(t, "3", *restored.RestoredRows)
	var page struct {
		Rows  []string
		Total int
	}
	s.rest("GET", "/api/v1/archives/"+a.ID+"/rows?limit=2", cred{Bearer: auditor}, nil).decode(t, &page)
	require.Equal(t, 3, page.Total)
	require.Len(t, page.Rows, 2)
	var row map[string]any
	require.NoError(t, json.Unmarshal([]byte(page.Rows[0]), &row))
	require.Equal(t, "5555555555", row["sender_account_number"])

	// Over Connect too.
	hc, opts = s.clientOpts("grpc", cred{Bearer: auditor})
	got, err := complydv1connect.NewArchiveServiceClient(hc, s.URL, opts...).GetArchive(ctx,
		connect.NewRequest(&complydv1.GetArchiveRequest{Id: a.ID}))
	require.NoError(t, err)
	require.Equal(t, a.Sha256, got.Msg.Sha256)

	// Lifted over REST; audited.
	var lifted struct{ Active bool }
	s.rest("DELETE", "/api/v1/legal-holds/"+h.Msg.Id+"?reason=order+expired", cred{Bearer: officer}, nil).decode(t, &lifted)
	require.False(t, lifted.Active)
	for _, action := range []string{"tenant.retention_updated", "legal_hold.placed", "legal_hold.lifted", "archive.written",
		"archive.verified", "archive.dropped", "archive.restored"} {
		var events struct{ Total int }
		s.rest("GET", "/api/v1/audit-events?action="+action, cred{Bearer: admin}, nil).decode(t, &events)
		require.Equal(t, 1, events.Total, action)
	}
}
