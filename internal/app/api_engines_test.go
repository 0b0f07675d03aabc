package app

import (
	"context"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

type engineConfigOut struct {
	ConfigID string `json:"configId"`
	Version  int
	Reason   *string
	Engines  []struct {
		Key, Category                               string
		Enabled, Mandatory, FailsOpen               bool
		Weight, DefaultWeight, MinWeight, MaxWeight float64
		DeadlineMs                                  int64 `json:"deadlineMs"`
	}
}

// TestEngines: the engines are listed with weights, bounds, deadlines and state; a BANK_ADMIN
// disables the Decision Engine (a new audited version) and the next screening runs without it
// and stores that version's id with its verdict, while the mandatory engines cannot be switched
// off and weights stay within bounds; other roles only read. Over /api/v1, Connect and gRPC.
func TestEngines(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)

	var cfg engineConfigOut
	s.rest("GET", "/api/v1/engines", cred{Bearer: analyst}, nil).decode(t, &cfg)
	require.Equal(t, "default", cfg.ConfigID)
	require.Len(t, cfg.Engines, 6)
	require.Equal(t, "SANCTIONS", cfg.Engines[0].Key)
	require.True(t, cfg.Engines[0].Mandatory)
	require.True(t, cfg.Engines[0].FailsOpen)
	require.Positive(t, cfg.Engines[0].DeadlineMs)
	require.Equal(t, "DECISION", cfg.Engines[4].Key)
	require.False(t, cfg.Engines[4].Mandatory)
	require.Equal(t, 1.0, cfg.Engines[4].Weight)
	require.Equal(t, 1.5, cfg.Engines[1].MinWeight, "a mandatory engine cannot be weakened")

	narration := func() (screenOut, string) {
		body := screenBody(ext("eng"), newAccount(), 1000)
		body["narration"] = "ransom payment"
		out, env := s.screen(admin, body)
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		var id string
		require.NoError(t, s.admin().QueryRow(context.Background(), `select engine_config_id from transactions where id = $1`, out.TransactionID).Scan(&id))
		return out, id
	}
	out, stored := narration()
	require.True(t, out.rule("High-Risk Narration"), "the Decision Engine runs by default")
	require.Equal(t, "default", stored)

	patch := func(tok, key string, body map[string]any) envelope {
		return s.rest("PATCH", "/api/v1/engines/"+key, cred{Bearer: tok}, body)
	}
	requireRESTError(t, patch(analyst, "DECISION", map[string]any{"enabled": false, "reason": "x"}), 403, "FORBIDDEN")
	requireRESTError(t, patch(admin, "REGULATORY", map[string]any{"enabled": false, "reason": "x"}), 409, "CONFLICT")
	requireRESTError(t, patch(admin, "SANCTIONS", map[string]any{"enabled": false, "reason": "x"}), 409, "CONFLICT")
	requireRESTError(t, patch(admin, "DECISION", map[string]any{"weight": 2.5, "reason": "x"}), 400, "VALIDATION_ERROR")
	requireRESTError(t, patch(admin, "IDENTITY", map[string]any{"weight": 1.0, "reason": "x"}), 400, "VALIDATION_ERROR")
	requireRESTError(t, patch(admin, "DECISION", map[string]any{"enabled": false}), 400, "VALIDATION_ERROR")

	patch(admin, "DECISION", map[string]any{"enabled": false, "reason": "keyword list under review"}).decode(t, &cfg)
	require.Regexp(t, `^ecfg_`, cfg.ConfigID)
	require.Equal(t, 1, cfg.Version)
	require.False(t, cfg.Engines[4].Enabled)
	v1 := cfg.ConfigID

	out, stored = narration()
	require.False(t, out.rule("High-Risk Narration"), "a disabled engine does not run")
	require.Equal(t, "APPROVE", out.Outcome)
	require.Equal(t, v1, stored, "the verdict names the configuration it was scored with")

	patch(admin, "BEHAVIORAL", map[string]any{"weight": 1.6, "reason": "fraud wave"}).decode(t, &cfg)
	require.Equal(t, 2, cfg.Version)
	require.Equal(t, 1.6, cfg.Engines[5].Weight)
	require.False(t, cfg.Engines[4].Enabled, "earlier changes carry over")
	_, stored = narration()
	require.Equal(t, cfg.ConfigID, stored)

	var page struct {
		Items []struct {
			Action, ResourceID string
			Before, After      map[string]any
		}
		Total int
	}
	s.rest("GET", "/api/v1/audit-events?action=engines.updated", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 2, page.Total)
	require.Equal(t, cfg.ConfigID, page.Items[0].ResourceID)
	require.Equal(t, v1, page.Items[0].Before["configId"])

	// Another tenant is untouched.
	_, other := s.tenant()
	var oc engineConfigOut
	s.rest("GET", "/api/v1/engines", cred{Bearer: other}, nil).decode(t, &oc)
	require.Equal(t, "default", oc.ConfigID)

	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: admin})
		c := complydv1connect.NewEngineServiceClient(hc, s.URL, opts...)
		on := true
		res, err := c.UpdateEngine(context.Background(), connect.NewRequest(&complydv1.UpdateEngineRequest{Key: "DECISION", Enabled: &on, Reason: proto}))
		require.NoError(t, err, proto)
		require.True(t, res.Msg.Engines[4].Enabled)
		off := false
		_, err = c.UpdateEngine(context.Background(), connect.NewRequest(&complydv1.UpdateEngineRequest{Key: "IDENTITY", Enabled: &off, Reason: proto}))
		code, info := errorInfo(t, err)
		require.Equal(t, "CONFLICT", info.Code, proto)
		require.Equal(t, connect.CodeFailedPrecondition, code, proto)
	}
	out, _ = narration()
	require.True(t, out.rule("High-Risk Narration"), "re-enabled")
}
