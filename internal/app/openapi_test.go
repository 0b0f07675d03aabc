package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/complyd/complyd/internal/auth"
	_ "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/restapi"
)

// protoRoutes lists "METHOD /path" of every google.api.http rule (and additional binding) of the
// complyd.v1 services compiled into the binary.
func protoRoutes(t *testing.T) []string {
	t.Helper()
	var routes []string
	add := func(r *annotations.HttpRule) {
		switch p := r.GetPattern().(type) {
		case *annotations.HttpRule_Get:
			routes = append(routes, "GET "+p.Get)
		case *annotations.HttpRule_Post:
			routes = append(routes, "POST "+p.Post)
		case *annotations.HttpRule_Put:
			routes = append(routes, "PUT "+p.Put)
		case *annotations.HttpRule_Patch:
			routes = append(routes, "PATCH "+p.Patch)
		case *annotations.HttpRule_Delete:
			routes = append(routes, "DELETE "+p.Delete)
		default:
			t.Fatalf("unexpected http rule %v", r)
		}
	}
	protoregistry.GlobalFiles.RangeFilesByPackage("complyd.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := range fd.Services().Len() {
			ms := fd.Services().Get(i).Methods()
			for j := range ms.Len() {
				rule, ok := proto.GetExtension(ms.Get(j).Options(), annotations.E_Http).(*annotations.HttpRule)
				if !ok || rule == nil {
					continue
				}
				add(rule)
				for _, b := range rule.GetAdditionalBindings() {
					add(b)
				}
			}
		}
		return true
	})
	sort.Strings(routes)
	return routes
}

func fetchOpenAPI(t *testing.T, s *testServer) []byte {
	t.Helper()
	res, err := http.Get(s.URL + restapi.OpenAPIPath)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return b
}

// TestOpenAPICoversEveryRoute: the served document is valid OpenAPI 3.1 (libopenapi builds its
// model and the validator checks it against the 3.1 schema), it has every /api/v1 route of the
// protos, every operation answers in the envelope with the failure responses, and it points
// inside the repository only.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	b := fetchOpenAPI(t, s)

	doc, err := libopenapi.NewDocument(b)
	require.NoError(t, err)
	model, err := doc.BuildV3Model()
	require.NoError(t, err)
	require.Equal(t, "3.1.0", model.Model.Version)
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	ok, verrs := v.ValidateDocument()
	for _, e := range verrs {
		t.Errorf("openapi: %s (%s)", e.Message, e.Reason)
	}
	require.True(t, ok)

	var raw struct {
		Paths map[string]map[string]struct {
			OperationID string                     `json:"operationId"`
			Responses   map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(b, &raw))
	routes := protoRoutes(t)
	require.Greater(t, len(routes), 90, "the protos' /api/v1 routes")
	for _, r := range routes {
		method, path, _ := strings.Cut(r, " ")
		require.True(t, strings.HasPrefix(path, "/api/v1/"), r)
		op, ok := raw.Paths[path][strings.ToLower(method)]
		if !assertTrue(t, ok, "route %s is missing from the OpenAPI document", r) {
			continue
		}
		success := string(op.Responses["200"]) + string(op.Responses["201"])
		require.Contains(t, success, `"success"`, "%s answers in the success envelope", r)
		require.Contains(t, string(op.Responses["400"]), "#/components/responses/400", r)
		require.Contains(t, string(op.Responses["401"]), "#/components/responses/401", r)
	}
	for _, bad := range []string{"decisions.md", "service-spec.md", "../shared"} { // cite:ignore: the old names it forbids
		require.NotContains(t, string(b), bad)
	}
	// No link leads outside: addresses in it are loopback or example ones.
	for _, u := range regexp.MustCompile(`https?://[^\s"'\\)]+`).FindAllString(string(b), -1) {
		require.Regexp(t, `^https?://(127\.0\.0\.1|[a-z.]*example(\.com)?)[:/]`, u, "a link outside the repository")
	}
	require.Contains(t, string(b), `"DUPLICATE_EXTERNAL_ID"`)
	require.Contains(t, string(b), `"RESOLVED_TRUE_POSITIVE"`)
}

func assertTrue(t *testing.T, ok bool, format string, args ...any) bool {
	t.Helper()
	if !ok {
		t.Errorf(format, args...)
	}
	return ok
}

// TestOpenAPIExamplesAccepted sends every request example of the document, verbatim, to a real
// server as the demo tenant's admin (the examples log in as it): each must succeed, and the
// request and the answer must both match the document.
func TestOpenAPIExamplesAccepted(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{OwnDB: true})
	ctx := context.Background()
	_, _, err := s.App.Auth.CreateTenant(ctx, auth.CreateTenantParams{Name: "Demo Bank", Slug: demoSlug,
		Admin: auth.NewUser{Email: demoEmail, Password: demoPassword, FirstName: "Demo", LastName: "Admin"}})
	require.NoError(t, err)
	token := s.login(demoEmail, demoPassword)

	b := fetchOpenAPI(t, s)
	doc, err := libopenapi.NewDocument(b)
	require.NoError(t, err)
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)

	var raw struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			RequestBody struct {
				Content map[string]struct {
					Example json.RawMessage `json:"example"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(b, &raw))
	sent := 0
	for path, item := range raw.Paths {
		for method, op := range item {
			ex := op.RequestBody.Content["application/json"].Example
			if len(ex) == 0 {
				continue
			}
			require.NotContains(t, path, "{", "examples are given for routes without path parameters")
			sent++
			req, err := http.NewRequest(strings.ToUpper(method), s.URL+path, bytes.NewReader(ex))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			ok, verrs := v.ValidateHttpRequest(req)
			for _, e := range verrs {
				t.Errorf("%s: example request does not match the document: %s (%s)", op.OperationID, e.Message, e.Reason)
				for _, f := range e.SchemaValidationErrors {
					t.Errorf("  %s: %s", f.FieldPath, f.Reason)
				}
			}
			require.True(t, ok, op.OperationID)
			req.Body = io.NopCloser(bytes.NewReader(ex))
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			require.NoError(t, err)
			require.Less(t, res.StatusCode, 300, "%s %s: %s", op.OperationID, ex, body)
			res.Body = io.NopCloser(bytes.NewReader(body))
			ok, verrs = v.ValidateHttpResponse(req, res)
			for _, e := range verrs {
				t.Errorf("%s: answer does not match the document: %s (%s)", op.OperationID, e.Message, e.Reason)
				for _, f := range e.SchemaValidationErrors {
					t.Errorf("  %s: %s", f.FieldPath, f.Reason)
				}
			}
			assertTrue(t, ok, "%s: %s", op.OperationID, body)
		}
	}
	require.GreaterOrEqual(t, sent, 10)
}
