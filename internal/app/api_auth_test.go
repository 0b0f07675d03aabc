package app

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/pquerna/otp/totp"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/pgtest"
)

func TestLoginAndMeOverEveryProtocol(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, _ := s.tenant()
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			var access string
			if proto == "rest" {
				env := s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": f.AdminEmail, "password": pgtest.Password})
				require.Equal(t, http.StatusOK, env.Status)
				var out struct {
					AccessToken  string `json:"accessToken"`
					RefreshToken string `json:"refreshToken"`
					ExpiresIn    int    `json:"expiresIn"`
				}
				env.decode(t, &out)
				require.Equal(t, 900, out.ExpiresIn)
				require.True(t, strings.HasPrefix(out.RefreshToken, "rt_"))
				access = out.AccessToken
				me := s.rest("GET", "/api/v1/auth/me", cred{Bearer: access}, nil)
				var p struct {
					Email  string `json:"email"`
					Role   string `json:"role"`
					Tenant struct {
						Slug    string  `json:"slug"`
						LogoURL *string `json:"logoUrl"`
					} `json:"tenant"`
				}
				me.decode(t, &p)
				require.Equal(t, f.AdminEmail, p.Email)
				require.Equal(t, "BANK_ADMIN", p.Role)
				require.Equal(t, f.Slug, p.Tenant.Slug)
				require.Contains(t, string(me.Raw), `"logoUrl":null`)
				return
			}
			res, err := s.authClient(proto, cred{}).Login(context.Background(), connect.NewRequest(&complydv1.LoginRequest{Email: f.AdminEmail, Password: pgtest.Password}))
			require.NoError(t, err)
			require.Equal(t, int32(900), res.Msg.GetExpiresIn())
			me, err := s.authClient(proto, cred{Bearer: res.Msg.GetAccessToken()}).Me(context.Background(), connect.NewRequest(&complydv1.MeRequest{}))
			require.NoError(t, err)
			require.Equal(t, f.AdminEmail, me.Msg.Email)
			require.Equal(t, "BANK_ADMIN", me.Msg.Role)
			require.Equal(t, f.Slug, me.Msg.Tenant.Slug)
		})
	}
}

func TestAuthErrorCodes(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	ctx := context.Background()

	t.Run("INVALID_CREDENTIALS", func(t *testing.T) {
		env := s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": f.AdminEmail, "password": "wrong-password"})
		requireRESTError(t, env, 401, "INVALID_CREDENTIALS")
		env = s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": "nobody@nowhere.test", "password": "wrong-password"})
		requireRESTError(t, env, 401, "INVALID_CREDENTIALS")
		for _, proto := range []string{"connect", "grpc"} {
			_, err := s.authClient(proto, cred{}).Login(ctx, connect.NewRequest(&complydv1.LoginRequest{Email: f.AdminEmail, Password: "nope-nope"}))
			code, info := errorInfo(t, err)
			require.Equal(t, connect.CodeUnauthenticated, code)
			require.Equal(t, "INVALID_CREDENTIALS", info.Code)
		}
	})
	t.Run("UNAUTHENTICATED", func(t *testing.T) {
		requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{}, nil), 401, "UNAUTHENTICATED")
		requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: "garbage"}, nil), 401, "UNAUTHENTICATED")
		requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{APIKey: "ck_nope"}, nil), 401, "UNAUTHENTICATED")
		_, err := s.authClient("grpc", cred{}).Me(ctx, connect.NewRequest(&complydv1.MeRequest{}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeUnauthenticated, code)
		require.Equal(t, "UNAUTHENTICATED", info.Code)
	})
	t.Run("FORBIDDEN", func(t *testing.T) {
		_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
		requireRESTError(t, s.rest("GET", "/api/v1/auth/users", cred{Bearer: analyst}, nil), 403, "FORBIDDEN")
		_, err := s.userClient("connect", cred{Bearer: analyst}).ListUsers(ctx, connect.NewRequest(&complydv1.ListUsersRequest{}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodePermissionDenied, code)
		require.Equal(t, "FORBIDDEN", info.Code)
	})
	t.Run("VALIDATION_ERROR", func(t *testing.T) {
		env := s.rest("POST", "/api/v1/auth/users", cred{Bearer: admin}, map[string]any{"email": "not-an-email", "password": "short",
			"firstName": "A", "lastName": "B", "role": "ROOT"})
		requireRESTError(t, env, 400, "VALIDATION_ERROR")
		fields := map[string]bool{}
		for _, d := range env.Error.Details {
			var fe struct{ Field, Message string }
			require.NoError(t, jsonUnmarshal(d, &fe))
			require.NotEmpty(t, fe.Message)
			fields[fe.Field] = true
		}
		require.Equal(t, map[string]bool{"email": true, "password": true, "role": true}, fields)
		requireRESTError(t, s.rest("GET", "/api/v1/auth/users?page=0", cred{Bearer: admin}, nil), 400, "VALIDATION_ERROR")
		requireRESTError(t, s.rest("POST", "/api/v1/auth/users", cred{Bearer: admin}, "{not json"), 400, "VALIDATION_ERROR")
		_, err := s.userClient("grpc", cred{Bearer: admin}).CreateUser(ctx, connect.NewRequest(&complydv1.CreateUserRequest{Email: "x@y.ng", Password: "short"}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeInvalidArgument, code)
		require.Equal(t, "VALIDATION_ERROR", info.Code)
		require.NotEmpty(t, info.Details)
	})
	t.Run("USER_ALREADY_EXISTS", func(t *testing.T) {
		body := map[string]any{"email": "dup-" + f.Slug + "@x.ng", "password": "longenough", "firstName": "A", "lastName": "B", "role": "ANALYST"}
		env := s.rest("POST", "/api/v1/auth/users", cred{Bearer: admin}, body)
		require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
		requireRESTError(t, s.rest("POST", "/api/v1/auth/users", cred{Bearer: admin}, body), 409, "USER_ALREADY_EXISTS")
		body["email"] = strings.ToUpper(body["email"].(string))
		requireRESTError(t, s.rest("POST", "/api/v1/auth/users", cred{Bearer: admin}, body), 409, "USER_ALREADY_EXISTS")
		_, err := s.userClient("grpc", cred{Bearer: admin}).CreateUser(ctx, connect.NewRequest(&complydv1.CreateUserRequest{
			Email: "dup-" + f.Slug + "@x.ng", Password: "longenough", FirstName: "A", LastName: "B", Role: "ANALYST"}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeAlreadyExists, code)
		require.Equal(t, "USER_ALREADY_EXISTS", info.Code)
	})
	t.Run("NOT_FOUND", func(t *testing.T) {
		requireRESTError(t, s.rest("GET", "/api/v1/no/such/route", cred{Bearer: admin}, nil), 404, "NOT_FOUND")
		requireRESTError(t, s.rest("PATCH", "/api/v1/auth/users/00000000-0000-4000-8000-000000000000", cred{Bearer: admin},
			map[string]any{"firstName": "X"}), 404, "NOT_FOUND")
	})
	t.Run("ACCOUNT_DISABLED", func(t *testing.T) {
		u := pgtest.User(ctx, t, s.DB, f.ID, &pgtest.UserOpts{Role: auth.RoleAnalyst, Inactive: true})
		requireRESTError(t, s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": u.Email, "password": pgtest.Password}), 403, "ACCOUNT_DISABLED")
		requireRESTError(t, s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": u.Email, "password": "wrong-one"}), 401, "INVALID_CREDENTIALS")
	})
	t.Run("INVALID_REFRESH_TOKEN", func(t *testing.T) {
		requireRESTError(t, s.rest("POST", "/api/v1/auth/refresh", cred{}, map[string]any{"refreshToken": "rt_nope"}), 401, "INVALID_REFRESH_TOKEN")
	})
}

func TestLoginRateLimit(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, _ := s.tenant()
	var last envelope
	for i := 0; i < 11; i++ {
		last = s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": f.AdminEmail, "password": "wrong-password"})
	}
	requireRESTError(t, last, 429, "RATE_LIMITED")
	require.NotEmpty(t, last.Header.Get("Retry-After"))
}

func TestRefreshRotationAndReuseDetection(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, _ := s.tenant()
	type pair struct {
		AccessToken  string `json:"accessToken"`
		RefreshToken string `json:"refreshToken"`
	}
	var first pair
	s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": f.AdminEmail, "password": pgtest.Password}).decode(t, &first)

	var second pair
	s.rest("POST", "/api/v1/auth/refresh", cred{}, map[string]any{"refreshToken": first.RefreshToken}).decode(t, &second)
	require.NotEqual(t, first.RefreshToken, second.RefreshToken)
	require.True(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: second.AccessToken}, nil).Success)

	// Reusing the rotated token is theft: 401, and the whole family is revoked.
	requireRESTError(t, s.rest("POST", "/api/v1/auth/refresh", cred{}, map[string]any{"refreshToken": first.RefreshToken}), 401, "INVALID_REFRESH_TOKEN")
	requireRESTError(t, s.rest("POST", "/api/v1/auth/refresh", cred{}, map[string]any{"refreshToken": second.RefreshToken}), 401, "INVALID_REFRESH_TOKEN")
	requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: second.AccessToken}, nil), 401, "UNAUTHENTICATED")

	// An unrelated session of the same user is untouched.
	other := s.login(f.AdminEmail, pgtest.Password)
	require.True(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: other}, nil).Success)

	// Expiry: a refresh token dies after 7 days, an access token after 15 minutes.
	var third pair
	s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": f.AdminEmail, "password": pgtest.Password}).decode(t, &third)
	s.Clock.Advance(16 * time.Minute)
	requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: third.AccessToken}, nil), 401, "UNAUTHENTICATED")
	s.Clock.Advance(7 * 24 * time.Hour)
	requireRESTError(t, s.rest("POST", "/api/v1/auth/refresh", cred{}, map[string]any{"refreshToken": third.RefreshToken}), 401, "INVALID_REFRESH_TOKEN")
}

func TestLogoutRevokesFamily(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, _ := s.tenant()
	var p struct {
		AccessToken  string `json:"accessToken"`
		RefreshToken string `json:"refreshToken"`
	}
	s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": f.AdminEmail, "password": pgtest.Password}).decode(t, &p)
	env := s.rest("POST", "/api/v1/auth/logout", cred{Bearer: p.AccessToken}, map[string]any{})
	require.True(t, env.Success, "%s", env.Raw)
	requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: p.AccessToken}, nil), 401, "UNAUTHENTICATED")
	requireRESTError(t, s.rest("POST", "/api/v1/auth/refresh", cred{}, map[string]any{"refreshToken": p.RefreshToken}), 401, "INVALID_REFRESH_TOKEN")
}

func TestCookieSession(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, _ := s.tenant()
	jar := newJar()
	c := &http.Client{Jar: jar}
	res, err := c.Post(s.URL+"/api/v1/auth/login", "application/json",
		strings.NewReader(`{"email":"`+f.AdminEmail+`","password":"`+pgtest.Password+`","useCookies":true}`))
	require.NoError(t, err)
	body := readAll(t, res)
	require.Equal(t, 200, res.StatusCode, body)
	require.NotContains(t, body, "eyJ", "no token in the body in cookie form")
	names := map[string]*http.Cookie{}
	for _, ck := range res.Cookies() {
		names[ck.Name] = ck
	}
	require.Contains(t, names, "svc_access_token")
	require.Contains(t, names, "svc_refresh_token")
	for _, ck := range names {
		require.True(t, ck.HttpOnly)
		require.Equal(t, http.SameSiteStrictMode, ck.SameSite)
	}

	res, err = c.Get(s.URL + "/api/v1/auth/me")
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode, readAll(t, res))

	oldRefresh := jar.value("svc_refresh_token")
	res, err = c.Post(s.URL+"/api/v1/auth/refresh", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode, readAll(t, res))
	require.NotEqual(t, oldRefresh, jar.value("svc_refresh_token"), "refresh rotates the cookie")
	res, err = c.Get(s.URL + "/api/v1/auth/me")
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode, readAll(t, res))

	res, err = c.Post(s.URL+"/api/v1/auth/logout", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode, readAll(t, res))
	res, err = c.Get(s.URL + "/api/v1/auth/me")
	require.NoError(t, err)
	require.Equal(t, 401, res.StatusCode, readAll(t, res))
}

func TestMFA(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	env := s.rest("PATCH", "/api/v1/tenants/me/security", cred{Bearer: admin}, map[string]any{"mfaRequired": true})
	require.True(t, env.Success, "%s", env.Raw)

	type challenge struct {
		AccessToken      *string `json:"accessToken"`
		MFARequired      bool    `json:"mfaRequired"`
		MFASetupRequired bool    `json:"mfaSetupRequired"`
		TempToken        string  `json:"tempToken"`
	}
	loginChallenge := func() challenge {
		var c challenge
		s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": f.AdminEmail, "password": pgtest.Password}).decode(t, &c)
		return c
	}
	c := loginChallenge()
	require.True(t, c.MFASetupRequired)
	require.Nil(t, c.AccessToken)
	require.NotEmpty(t, c.TempToken)

	var setup struct {
		Secret     string `json:"secret"`
		OtpauthURL string `json:"otpauthUrl"`
	}
	s.rest("POST", "/api/v1/auth/mfa/setup", cred{}, map[string]any{"tempToken": c.TempToken}).decode(t, &setup)
	require.NotEmpty(t, setup.Secret)
	require.True(t, strings.HasPrefix(setup.OtpauthURL, "otpauth://totp/"))

	requireRESTError(t, s.rest("POST", "/api/v1/auth/mfa/verify", cred{}, map[string]any{"tempToken": c.TempToken, "code": "000000"}), 401, "INVALID_CREDENTIALS")
	requireRESTError(t, s.rest("POST", "/api/v1/auth/mfa/verify", cred{}, map[string]any{"tempToken": c.TempToken, "code": "12"}), 400, "VALIDATION_ERROR")
	code, err := totp.GenerateCode(setup.Secret, s.Clock.Now())
	require.NoError(t, err)
	var tokens struct {
		AccessToken string `json:"accessToken"`
	}
	s.rest("POST", "/api/v1/auth/mfa/verify", cred{}, map[string]any{"tempToken": c.TempToken, "code": code}).decode(t, &tokens)
	require.True(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: tokens.AccessToken}, nil).Success)
	// Single use.
	requireRESTError(t, s.rest("POST", "/api/v1/auth/mfa/verify", cred{}, map[string]any{"tempToken": c.TempToken, "code": code}), 401, "UNAUTHENTICATED")
	// A code is accepted once: the enrolment code fails on a fresh challenge in the same window,
	// and so does an earlier step's code (issue 12, finding 3).
	fresh := loginChallenge()
	requireRESTError(t, s.rest("POST", "/api/v1/auth/mfa/verify", cred{}, map[string]any{"tempToken": fresh.TempToken, "code": code}), 401, "INVALID_CREDENTIALS")
	earlier, _ := totp.GenerateCode(setup.Secret, s.Clock.Now().Add(-30*time.Second))
	requireRESTError(t, s.rest("POST", "/api/v1/auth/mfa/verify", cred{}, map[string]any{"tempToken": fresh.TempToken, "code": earlier}), 401, "INVALID_CREDENTIALS")

	// Enrolled now: the next login asks for a code, and a 5-minute-old tempToken is dead.
	c = loginChallenge()
	require.True(t, c.MFARequired)
	require.False(t, c.MFASetupRequired)
	s.Clock.Advance(6 * time.Minute)
	code, _ = totp.GenerateCode(setup.Secret, s.Clock.Now())
	requireRESTError(t, s.rest("POST", "/api/v1/auth/mfa/verify", cred{}, map[string]any{"tempToken": c.TempToken, "code": code}), 401, "UNAUTHENTICATED")
	c = loginChallenge()
	code, _ = totp.GenerateCode(setup.Secret, s.Clock.Now())
	require.True(t, s.rest("POST", "/api/v1/auth/mfa/verify", cred{}, map[string]any{"tempToken": c.TempToken, "code": code}).Success)

	// The TOTP seed is sealed at rest, never stored in clear.
	var stored string
	require.NoError(t, s.admin().QueryRow(context.Background(), "select totp_secret from users where id = $1", f.AdminID).Scan(&stored))
	require.True(t, strings.HasPrefix(stored, "sealed:v1:"), stored)
	require.NotContains(t, stored, setup.Secret)
}

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	var k struct {
		ID     string  `json:"id"`
		Key    *string `json:"key"`
		Prefix string  `json:"prefix"`
	}
	s.rest("POST", "/api/v1/auth/api-keys", cred{Bearer: admin}, map[string]any{"name": "core-banking"}).decode(t, &k)
	require.NotNil(t, k.Key)
	require.True(t, strings.HasPrefix(*k.Key, k.Prefix))
	for _, proto := range protocols {
		if proto == "rest" {
			require.True(t, s.rest("GET", "/api/v1/auth/me", cred{APIKey: *k.Key}, nil).Success)
			continue
		}
		_, err := s.authClient(proto, cred{APIKey: *k.Key}).Me(context.Background(), connect.NewRequest(&complydv1.MeRequest{}))
		require.NoError(t, err, proto)
	}
	list := s.rest("GET", "/api/v1/auth/api-keys", cred{Bearer: admin}, nil)
	require.True(t, list.Success)
	require.NotContains(t, string(list.Raw), *k.Key, "the list never shows the key")

	// The key acts with its creator's current role: demoting the creator demotes the key.
	officer, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_ = officerTok
	require.True(t, s.rest("PATCH", "/api/v1/auth/users/"+officer.ID, cred{Bearer: admin}, map[string]any{"role": "BANK_ADMIN"}).Success)
	officerAdmin := s.login(officer.Email, pgtest.Password)
	var k2 struct {
		Key string `json:"key"`
	}
	s.rest("POST", "/api/v1/auth/api-keys", cred{Bearer: officerAdmin}, map[string]any{"name": "k2"}).decode(t, &k2)
	require.True(t, s.rest("GET", "/api/v1/auth/users", cred{APIKey: k2.Key}, nil).Success)
	require.True(t, s.rest("PATCH", "/api/v1/auth/users/"+officer.ID, cred{Bearer: admin}, map[string]any{"role": "ANALYST"}).Success)
	requireRESTError(t, s.rest("GET", "/api/v1/auth/users", cred{APIKey: k2.Key}, nil), 403, "FORBIDDEN")
	// Deactivating the creator kills the key at once.
	require.True(t, s.rest("DELETE", "/api/v1/auth/users/"+officer.ID, cred{Bearer: admin}, nil).Success)
	requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{APIKey: k2.Key}, nil), 401, "UNAUTHENTICATED")

	// Revocation is immediate.
	require.True(t, s.rest("DELETE", "/api/v1/auth/api-keys/"+k.ID, cred{Bearer: admin}, nil).Success)
	requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{APIKey: *k.Key}, nil), 401, "UNAUTHENTICATED")
	// Expired keys stop working.
	var k3 struct {
		Key string `json:"key"`
	}
	s.rest("POST", "/api/v1/auth/api-keys", cred{Bearer: admin}, map[string]any{"name": "short", "expiresAt": s.Clock.Now().Add(time.Hour).Format(time.RFC3339)}).decode(t, &k3)
	require.True(t, s.rest("GET", "/api/v1/auth/me", cred{APIKey: k3.Key}, nil).Success)
	s.Clock.Advance(2 * time.Hour)
	requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{APIKey: k3.Key}, nil), 401, "UNAUTHENTICATED")
}

func TestDeactivationStopsTokensAtOnce(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	u, tok := s.userWithRole(f.ID, auth.RoleAnalyst)
	require.True(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: tok}, nil).Success)
	var out struct {
		IsActive bool `json:"isActive"`
	}
	s.rest("DELETE", "/api/v1/auth/users/"+u.ID, cred{Bearer: admin}, nil).decode(t, &out)
	require.False(t, out.IsActive)
	requireRESTError(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: tok}, nil), 401, "UNAUTHENTICATED")
	requireRESTError(t, s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": u.Email, "password": pgtest.Password}), 403, "ACCOUNT_DISABLED")
	// Nobody deactivates themselves.
	requireRESTError(t, s.rest("DELETE", "/api/v1/auth/users/"+f.AdminID, cred{Bearer: admin}, nil), 409, "CONFLICT")
}

func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	a, adminA := s.tenant()
	b, adminB := s.tenant()
	userB := pgtest.User(context.Background(), t, s.DB, b.ID, nil)
	_ = a
	// Another tenant's user is 404, never 403, on every user route.
	requireRESTError(t, s.rest("PATCH", "/api/v1/auth/users/"+userB.ID, cred{Bearer: adminA}, map[string]any{"firstName": "Hacked"}), 404, "NOT_FOUND")
	requireRESTError(t, s.rest("DELETE", "/api/v1/auth/users/"+userB.ID, cred{Bearer: adminA}, nil), 404, "NOT_FOUND")
	var list struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
		Total int `json:"total"`
	}
	s.rest("GET", "/api/v1/auth/users", cred{Bearer: adminA}, nil).decode(t, &list)
	require.Equal(t, 1, list.Total)
	for _, it := range list.Items {
		require.NotEqual(t, userB.ID, it.ID)
	}
	s.rest("GET", "/api/v1/auth/users", cred{Bearer: adminB}, nil).decode(t, &list)
	require.Equal(t, 2, list.Total)
	// API keys of B are invisible to A and cannot be revoked by A.
	var k struct {
		ID string `json:"id"`
	}
	s.rest("POST", "/api/v1/auth/api-keys", cred{Bearer: adminB}, map[string]any{"name": "b"}).decode(t, &k)
	requireRESTError(t, s.rest("DELETE", "/api/v1/auth/api-keys/"+k.ID, cred{Bearer: adminA}, nil), 404, "NOT_FOUND")
}

func TestUserListPagingAndFilter(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	for i := 0; i < 3; i++ {
		pgtest.User(context.Background(), t, s.DB, f.ID, &pgtest.UserOpts{Role: auth.RoleAuditor})
	}
	var page struct {
		Items      []map[string]any `json:"items"`
		Total      int              `json:"total"`
		Page       int              `json:"page"`
		Limit      int              `json:"limit"`
		TotalPages int              `json:"totalPages"`
	}
	s.rest("GET", "/api/v1/auth/users?role=AUDITOR&limit=2&page=2", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 3, page.Total)
	require.Equal(t, 2, page.Page)
	require.Equal(t, 2, page.Limit)
	require.Equal(t, 2, page.TotalPages)
	require.Len(t, page.Items, 1)
	s.rest("GET", "/api/v1/auth/users?limit=500", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 100, page.Limit, "limit is clamped to the maximum")
	s.rest("GET", "/api/v1/auth/users", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 50, page.Limit, "default user page size")
	require.Equal(t, 4, page.Total)
	requireRESTError(t, s.rest("GET", "/api/v1/auth/users?role=ROOT", cred{Bearer: admin}, nil), 400, "VALIDATION_ERROR")
}

func TestTenantRateLimit(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.RateLimitAPI = 5 }})
	_, admin := s.tenant()
	_, other := s.tenant()
	limited := 0
	var last envelope
	for i := 0; i < 12; i++ {
		env := s.rest("GET", "/api/v1/auth/me", cred{Bearer: admin}, nil)
		if !env.Success {
			limited++
			last = env
		}
	}
	require.GreaterOrEqual(t, limited, 5, "a burst over the ceiling is refused")
	requireRESTError(t, last, 429, "RATE_LIMITED")
	require.NotEmpty(t, last.Header.Get("Retry-After"))
	require.True(t, s.rest("GET", "/api/v1/auth/me", cred{Bearer: other}, nil).Success, "another tenant has its own budget")
	// gRPC gets the same limit. A burst of its own: the REST burst's tokens refill at 5 a second,
	// so a single call after it may find one (CI, on a busy machine: "An error is expected").
	grpc := s.authClient("grpc", cred{Bearer: admin})
	refused := 0
	for range 12 {
		_, err := grpc.Me(context.Background(), connect.NewRequest(&complydv1.MeRequest{}))
		if err == nil {
			continue
		}
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeResourceExhausted, code)
		require.Equal(t, "RATE_LIMITED", info.Code)
		refused++
	}
	require.GreaterOrEqual(t, refused, 5, "a gRPC burst over the ceiling is refused")
}
