package app

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

type tierStanding struct {
	ApplicationID      string `json:"applicationId"`
	CurrentTier        string `json:"currentTier"`
	QualifiedTier      *string
	NextTier           *string
	MissingForNextTier []struct{ Code, Description string }
	Tiers              []struct {
		Tier         string
		Met, Missing []struct{ Code string }
	}
}

func codes(rs []struct{ Code, Description string }) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Code)
	}
	return out
}

// TestKYCTierRequirements: the tier table, and an application's standing moving as its facts
// do: nothing verified, then a verified NIN (TIER_1 met; TIER_2 lacks a verified BVN and an ID),
// then a verified BVN. Over /api/v1, Connect and gRPC; another tenant's application is 404.
func TestKYCTierRequirements(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)
	s.credit(f, "1000", "tier-test")

	var table struct {
		Tiers []struct {
			Tier         string
			Requirements []struct{ Code, Description string }
		}
	}
	s.rest("GET", "/api/v1/kyc/tier-requirements", cred{Bearer: auditor}, nil).decode(t, &table)
	require.Len(t, table.Tiers, 3)
	require.Equal(t, "TIER_2", table.Tiers[1].Tier)
	require.Equal(t, []string{"VERIFIED_BVN", "ID_DOCUMENT"}, codes(table.Tiers[1].Requirements))
	require.Equal(t, []string{"VERIFIED_BVN_OR_NIN", "ID_DOCUMENT", "PROOF_OF_ADDRESS", "LIVENESS_CHECK"}, codes(table.Tiers[2].Requirements))

	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye", "nin": adebayo["nin"]})
	get := func() tierStanding {
		var g tierStanding
		s.rest("GET", "/api/v1/kyc/applications/"+a.ID+"/tier-requirements", cred{Bearer: auditor}, nil).decode(t, &g)
		return g
	}
	g := get()
	require.Equal(t, a.ID, g.ApplicationID)
	require.Equal(t, "TIER_1", g.CurrentTier)
	require.Nil(t, g.QualifiedTier, "nothing verified yet")
	require.Equal(t, "TIER_2", *g.NextTier)
	require.Equal(t, []string{"VERIFIED_BVN", "ID_DOCUMENT"}, codes(g.MissingForNextTier))

	env := s.verify(admin, a.ID, "nin", ninBody(adebayo))
	require.Equal(t, 200, env.Status, "%s", env.Raw)
	g = get()
	require.Equal(t, "TIER_1", *g.QualifiedTier)
	require.Empty(t, g.Tiers[0].Missing)
	require.Equal(t, []string{"VERIFIED_BVN", "ID_DOCUMENT"}, codes(g.MissingForNextTier), "a verified NIN alone is not enough")

	env = s.verify(admin, a.ID, "bvn", bvnBody(adebayo))
	require.Equal(t, 200, env.Status, "%s", env.Raw)
	g = get()
	require.Equal(t, "TIER_2", g.CurrentTier, "BVN and NIN both present")
	require.Equal(t, "TIER_3", *g.NextTier)
	require.Equal(t, []string{"ID_DOCUMENT", "PROOF_OF_ADDRESS", "LIVENESS_CHECK"}, codes(g.MissingForNextTier))

	_, other := s.tenant()
	requireRESTError(t, s.rest("GET", "/api/v1/kyc/applications/"+a.ID+"/tier-requirements", cred{Bearer: other}, nil), 404, "NOT_FOUND")
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: auditor})
		c := complydv1connect.NewKycTierServiceClient(hc, s.URL, opts...)
		res, err := c.GetApplicationTierRequirements(context.Background(), connect.NewRequest(&complydv1.GetApplicationTierRequirementsRequest{Id: a.ID}))
		require.NoError(t, err, proto)
		require.Equal(t, "TIER_3", res.Msg.GetNextTier())
		require.Len(t, res.Msg.MissingForNextTier, 3)
		hc, opts = s.clientOpts(proto, cred{Bearer: other})
		c = complydv1connect.NewKycTierServiceClient(hc, s.URL, opts...)
		_, err = c.GetApplicationTierRequirements(context.Background(), connect.NewRequest(&complydv1.GetApplicationTierRequirementsRequest{Id: a.ID}))
		code, _ := errorInfo(t, err)
		require.Equal(t, connect.CodeNotFound, code, proto)
	}
}

type assignedApp struct {
	ID         string
	AssignedTo *string `json:"assignedTo"`
}

// TestApplicationAssignment: officers assign and unassign KYC and KYB applications; the
// assignee must be an active user of the tenant with a role that may decide (an analyst, a
// deactivated officer and another tenant's officer are refused); analysts may not assign; every
// change is audited; the queue filter assignedTo=me|<id>|unassigned lists the right ones. Over
// /api/v1, Connect and gRPC.
func TestApplicationAssignment(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	officer, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	analyst, analystTok := s.userWithRole(f.ID, auth.RoleAnalyst)
	gone, _ := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_, err := s.admin().Exec(context.Background(), `update users set is_active = false where id = $1`, gone.ID)
	require.NoError(t, err)
	of, _ := s.tenant()
	stranger, _ := s.userWithRole(of.ID, auth.RoleComplianceOfficer)

	k1 := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ada", "lastName": "Obi"})
	k2 := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Bola", "lastName": "Ade"})
	b1 := s.createKYB(admin, map[string]any{"companyName": "Lagos Fresh Ltd"})

	assign := func(tok, path, assignee string) envelope {
		return s.rest("PATCH", path+"/assign", cred{Bearer: tok}, map[string]any{"assigneeId": assignee})
	}
	kycPath := "/api/v1/kyc/applications/" + k1.ID
	kybPath := "/api/v1/kyc/kyb/applications/" + b1.ID

	var got assignedApp
	assign(admin, kycPath, officer.ID).decode(t, &got)
	require.Equal(t, officer.ID, *got.AssignedTo)
	require.Equal(t, officer.ID, *s.getKYCAssignee(admin, k1.ID))
	assign(officerTok, kybPath, officer.ID).decode(t, &got)
	require.Equal(t, officer.ID, *got.AssignedTo)

	requireRESTError(t, assign(analystTok, kycPath, officer.ID), 403, "FORBIDDEN")
	requireRESTError(t, assign(admin, kycPath, analyst.ID), 400, "VALIDATION_ERROR")
	requireRESTError(t, assign(admin, kycPath, gone.ID), 400, "VALIDATION_ERROR")
	requireRESTError(t, assign(admin, kycPath, stranger.ID), 404, "NOT_FOUND")
	requireRESTError(t, assign(admin, kycPath, "not-a-uuid"), 400, "VALIDATION_ERROR")
	requireRESTError(t, assign(admin, "/api/v1/kyc/applications/kyc_nope", officer.ID), 404, "NOT_FOUND")
	require.Equal(t, officer.ID, *s.getKYCAssignee(admin, k1.ID), "refused assignments change nothing")

	// The queue.
	list := func(tok, path, filter string) []string {
		var page struct{ Items []assignedApp }
		s.rest("GET", path+"?assignedTo="+filter, cred{Bearer: tok}, nil).decode(t, &page)
		ids := []string{}
		for _, it := range page.Items {
			ids = append(ids, it.ID)
		}
		return ids
	}
	require.Equal(t, []string{k1.ID}, list(officerTok, "/api/v1/kyc/applications", "me"))
	require.Equal(t, []string{k1.ID}, list(admin, "/api/v1/kyc/applications", officer.ID))
	require.Equal(t, []string{k2.ID}, list(admin, "/api/v1/kyc/applications", "unassigned"))
	require.Empty(t, list(admin, "/api/v1/kyc/applications", "me"))
	require.Equal(t, []string{b1.ID}, list(officerTok, "/api/v1/kyc/kyb/applications", "me"))
	require.Empty(t, list(admin, "/api/v1/kyc/kyb/applications", "unassigned"))
	requireRESTError(t, s.rest("GET", "/api/v1/kyc/applications?assignedTo=someone", cred{Bearer: admin}, nil), 400, "VALIDATION_ERROR")

	// Unassign over REST, then assign and unassign over Connect and gRPC.
	s.rest("PATCH", kybPath+"/unassign", cred{Bearer: admin}, map[string]any{}).decode(t, &got)
	require.Nil(t, got.AssignedTo)
	require.Equal(t, []string{b1.ID}, list(admin, "/api/v1/kyc/kyb/applications", "unassigned"))
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: officerTok})
		c := complydv1connect.NewApplicationAssignmentServiceClient(hc, s.URL, opts...)
		res, err := c.AssignKycApplication(context.Background(), connect.NewRequest(&complydv1.AssignKycApplicationRequest{Id: k2.ID, AssigneeId: officer.ID}))
		require.NoError(t, err, proto)
		require.Equal(t, officer.ID, res.Msg.GetAssignedTo().GetValue())
		res, err = c.UnassignKycApplication(context.Background(), connect.NewRequest(&complydv1.UnassignKycApplicationRequest{Id: k2.ID}))
		require.NoError(t, err, proto)
		require.Nil(t, res.Msg.GetAssignedTo())
		_, err = c.AssignKybApplication(context.Background(), connect.NewRequest(&complydv1.AssignKybApplicationRequest{Id: b1.ID, AssigneeId: analyst.ID}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeInvalidArgument, code, proto)
		require.Equal(t, "VALIDATION_ERROR", info.Code)
		hc, opts = s.clientOpts(proto, cred{Bearer: analystTok})
		c = complydv1connect.NewApplicationAssignmentServiceClient(hc, s.URL, opts...)
		_, err = c.UnassignKycApplication(context.Background(), connect.NewRequest(&complydv1.UnassignKycApplicationRequest{Id: k1.ID}))
		code, _ = errorInfo(t, err)
		require.Equal(t, connect.CodePermissionDenied, code, proto)
	}

	// Audited: who, before and after.
	var page struct {
		Items []struct {
			Action, ResourceID string
			Before, After      map[string]any
		}
		Total int
	}
	s.rest("GET", "/api/v1/audit-events?action=kyc.assigned", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 3, page.Total, "k1 over REST, k2 over Connect and gRPC")
	s.rest("GET", "/api/v1/audit-events?action=kyc.unassigned", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 2, page.Total)
	require.Equal(t, officer.ID, page.Items[0].Before["assignedTo"])
	require.Nil(t, page.Items[0].After["assignedTo"])
	s.rest("GET", "/api/v1/audit-events?action=kyb.unassigned", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 1, page.Total)
	require.Equal(t, b1.ID, page.Items[0].ResourceID)
}

func (s *testServer) getKYCAssignee(tok, id string) *string {
	s.t.Helper()
	var a assignedApp
	s.rest("GET", "/api/v1/kyc/applications/"+id, cred{Bearer: tok}, nil).decode(s.t, &a)
	return a.AssignedTo
}

// TestBehavioralProfile: the profile of an account is built from its screenings: known devices,
// the last device, IP and location, the 24-hour and 60-minute counts and the amount statistics,
// with the time it last changed; a second screening from a new device moves it. An account never
// screened is 404, and so is one of another tenant. Over /api/v1, Connect and gRPC.
func TestBehavioralProfile(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	const acct = "0246813579"
	now := time.Now().UTC()
	for i, d := range []struct {
		dev, ip string
		amount  float64
		ago     time.Duration
	}{{"dev-a", "10.0.0.1", 1000, 3 * time.Hour}, {"dev-b", "10.0.0.2", 3000, 30 * time.Minute}} {
		body := screenBody(ext(fmt.Sprintf("bp%d", i)), acct, d.amount)
		body["deviceId"], body["ipAddress"] = d.dev, d.ip
		body["latitude"], body["longitude"] = 6.45, 3.39
		body["timestamp"] = now.Add(-d.ago).Format(time.RFC3339)
		_, env := s.screen(admin, body)
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	}
	var p struct {
		AccountNumber  string
		AsOf           time.Time
		WindowDays     int
		LastUpdatedAt  *time.Time
		LastActivityAt *time.Time
		KnownDevices   []string
		LastDeviceID   *string `json:"lastDeviceId"`
		LastIPAddress  *string `json:"lastIpAddress"`
		LastLocation   *struct {
			Latitude, Longitude float64
			SeenAt              time.Time
		}
		Count60m  int    `json:"count60m"`
		Count24h  int    `json:"count24h"`
		Sum24hNgn string `json:"sum24hNgn"`
		Amounts   struct {
			Count              int
			MeanNgn, StdDevNgn string
		}
	}
	env := s.rest("GET", "/api/v1/behavioral-profiles/"+acct, cred{Bearer: admin}, nil)
	env.decode(t, &p)
	require.Equal(t, acct, p.AccountNumber)
	require.Equal(t, 90, p.WindowDays)
	require.ElementsMatch(t, []string{"dev-a", "dev-b"}, p.KnownDevices, "%s", env.Raw)
	require.Equal(t, "dev-b", *p.LastDeviceID)
	require.Equal(t, "10.0.0.2", *p.LastIPAddress)
	require.InDelta(t, 6.45, p.LastLocation.Latitude, 1e-9)
	require.Equal(t, 1, p.Count60m)
	require.Equal(t, 2, p.Count24h)
	require.Equal(t, "4000.00", p.Sum24hNgn)
	require.Equal(t, 2, p.Amounts.Count)
	require.Equal(t, "2000.00", p.Amounts.MeanNgn)
	require.Equal(t, "1000.00", p.Amounts.StdDevNgn)
	require.NotNil(t, p.LastUpdatedAt)
	first := *p.LastUpdatedAt

	// A new device moves the baseline and its update time.
	body := screenBody(ext("bp2"), acct, 2000)
	body["deviceId"] = "dev-c"
	_, env = s.screen(admin, body)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	s.rest("GET", "/api/v1/behavioral-profiles/"+acct, cred{Bearer: admin}, nil).decode(t, &p)
	require.ElementsMatch(t, []string{"dev-a", "dev-b", "dev-c"}, p.KnownDevices)
	require.Equal(t, "dev-c", *p.LastDeviceID)
	require.True(t, p.LastUpdatedAt.After(first))

	requireRESTError(t, s.rest("GET", "/api/v1/behavioral-profiles/1111111111", cred{Bearer: admin}, nil), 404, "NOT_FOUND")
	requireRESTError(t, s.rest("GET", "/api/v1/behavioral-profiles/12345", cred{Bearer: admin}, nil), 400, "VALIDATION_ERROR")
	_, other := s.tenant()
	requireRESTError(t, s.rest("GET", "/api/v1/behavioral-profiles/"+acct, cred{Bearer: other}, nil), 404, "NOT_FOUND")
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: admin})
		c := complydv1connect.NewBehavioralProfileServiceClient(hc, s.URL, opts...)
		res, err := c.GetBehavioralProfile(context.Background(), connect.NewRequest(&complydv1.GetBehavioralProfileRequest{AccountNumber: acct}))
		require.NoError(t, err, proto)
		require.Equal(t, "dev-c", res.Msg.GetLastDeviceId())
		require.Equal(t, int32(3), res.Msg.GetCount_24H())
	}
}
