package restapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/connectapi"
)

// generatedOpenAPI is protoc-gen-connect-openapi's output for the google.api.http routes
// (buf.gen.yaml). It knows nothing of the envelope, the status codes or the roles; OpenAPI adds
// them.
//
//go:embed openapi/complyd.openapi.json
var generatedOpenAPI []byte

// OpenAPIPath is where the document is served (no authentication).
const OpenAPIPath = "/api/v1/openapi.json"

var openAPIOnce = sync.OnceValues(buildOpenAPI)

// OpenAPI returns the OpenAPI 3.1 document of /api/v1: the generated paths and schemas with every
// answer wrapped in the success or failure envelope (docs/reference/api-conventions.md), the HTTP status of
// each error code (design choices §2), 201 on creations, the roles allowed on each operation,
// security schemes, request examples and the routes that are not RPCs (multipart upload,
// health, this document).
func OpenAPI() ([]byte, error) { return openAPIOnce() }

// OpenAPIHandler serves OpenAPI.
func OpenAPIHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := OpenAPI()
		if err != nil {
			WriteFailure(w, apperr.New(apperr.Internal, "openapi document unavailable"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(b)
	})
}

type obj = map[string]any

func buildOpenAPI() ([]byte, error) {
	var doc obj
	if err := json.Unmarshal(generatedOpenAPI, &doc); err != nil {
		return nil, fmt.Errorf("parse generated openapi: %w", err)
	}
	services, _ := doc["info"].(obj)["description"].(string)
	doc["info"] = obj{
		"title":       "complyd /api/v1",
		"version":     "v1",
		"summary":     "Multi-tenant AML/CFT screening, KYC/KYB, cases and webhooks",
		"description": openAPIIntro + "\n\n# Services\n\n" + services,
		"license":     obj{"name": "Proprietary"},
	}
	doc["servers"] = []any{obj{"url": "/", "description": "this complyd (a local `complyd dev`: http://127.0.0.1:8080)"}}
	doc["security"] = []any{obj{"bearerAuth": []any{}}, obj{"apiKeyAuth": []any{}}}
	comps := doc["components"].(obj)
	comps["securitySchemes"] = obj{
		"bearerAuth": obj{"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
			"description": "accessToken from POST /api/v1/auth/login (15 minutes; renew with POST /api/v1/auth/refresh)"},
		"apiKeyAuth": obj{"type": "apiKey", "in": "header", "name": "X-API-Key",
			"description": "key from POST /api/v1/auth/api-keys (shown once); acts with its creator's role"},
	}
	schemas := comps["schemas"].(obj)
	schemas["Failure"] = failureSchema()
	comps["responses"] = errorResponses()
	addEnums(schemas)
	nullableMessages(schemas)
	shortenWellKnownDescriptions(doc)

	perms := connectapi.Permissions()
	createdRoutes := createdMatcher()
	paths := doc["paths"].(obj)
	for path, item := range paths {
		for method, v := range item.(obj) {
			op, ok := v.(obj)
			if !ok || !slices.Contains([]string{"get", "post", "put", "patch", "delete"}, method) {
				continue
			}
			opID, _ := op["operationId"].(string)
			i := strings.LastIndex(opID, ".")
			procedure := "/" + opID[:i] + "/" + opID[i+1:] // complyd.v1.CaseService.GetCase → /complyd.v1.CaseService/GetCase
			status := "200"
			req, _ := http.NewRequest(strings.ToUpper(method), path, nil)
			if _, pattern := createdRoutes.Handler(req); pattern != "" {
				status = "201"
			}
			wrapOperation(op, status, strings.ToUpper(method), perms[procedure])
			if ex, ok := requestExamples[opID]; ok {
				if rb, ok := op["requestBody"].(obj); ok {
					rb["content"].(obj)["application/json"].(obj)["example"] = ex
				}
			}
		}
	}
	addPlainRoutes(paths)
	return json.MarshalIndent(doc, "", "  ")
}

// wrapOperation puts the success envelope around the generated 200 answer (moved to 201 on
// creations) and adds the failure answers and the roles.
func wrapOperation(op obj, status, method string, access connectapi.Access) {
	responses := op["responses"].(obj)
	var data any = obj{"type": "object"}
	if ok, _ := responses["200"].(obj); ok != nil {
		if c, _ := ok["content"].(obj); c != nil {
			if j, _ := c["application/json"].(obj); j != nil {
				data = j["schema"]
			}
		}
	}
	delete(responses, "200")
	delete(responses, "default")
	desc := "Success"
	if status == "201" {
		desc = "Created"
	}
	responses[status] = obj{"description": desc, "content": obj{"application/json": obj{"schema": obj{
		"type": "object", "required": []any{"success", "data"},
		"properties": obj{"success": obj{"const": true}, "data": data},
	}}}}
	for _, st := range []string{"400", "401", "403", "404", "429", "500"} {
		responses[st] = obj{"$ref": "#/components/responses/" + st}
	}
	if method != "GET" {
		responses["409"] = obj{"$ref": "#/components/responses/409"}
	}
	for _, st := range []string{"402", "422", "503"} {
		responses[st] = obj{"$ref": "#/components/responses/" + st}
	}
	roles := "Public: no credentials needed."
	switch {
	case access.Public:
		op["security"] = []any{}
	case access.Optional:
		roles = "Credentials optional."
	case len(access.Roles) > 0:
		var names []string
		for _, r := range access.Roles {
			names = append(names, string(r))
		}
		roles = "Roles: " + strings.Join(names, ", ") + " (design choices §4; others get 403 FORBIDDEN)."
		op["x-roles"] = names
	}
	d, _ := op["description"].(string)
	op["description"] = strings.TrimSpace(d + "\n\n" + roles)
}

func failureSchema() obj {
	codes := []any{}
	for _, c := range errorCodes() {
		codes = append(codes, string(c))
	}
	return obj{
		"type": "object", "required": []any{"success", "error"},
		"description": "The failure envelope of every /api/v1 answer that is not a success (docs/reference/api-conventions.md).",
		"properties": obj{
			"success": obj{"const": false},
			"error": obj{
				"type": "object", "required": []any{"code", "message"},
				"properties": obj{
					"code":    obj{"type": "string", "enum": codes, "description": "machine-readable code; its HTTP status is fixed (design choices §2)"},
					"message": obj{"type": "string", "description": "human-readable; never carries internals"},
					"details": obj{"type": "array", "description": "VALIDATION_ERROR: one entry per invalid field",
						"items": obj{"type": "object", "required": []any{"field", "message"},
							"properties": obj{"field": obj{"type": "string"}, "message": obj{"type": "string"}}}},
					"data": obj{"type": "object", "description": "DUPLICATE_EXTERNAL_ID: the original {transactionId, outcome, riskLevel, aggregateScore}; " +
						"INVALID_STATUS_TRANSITION: {from, to, allowed}"},
				},
			},
		},
		"example": obj{"success": false, "error": obj{"code": "VALIDATION_ERROR", "message": "validation failed",
			"details": []any{obj{"field": "amount", "message": "must be greater than 0"}}}},
	}
}

// errorCodes lists the codes in a stable order (by HTTP status, then name).
func errorCodes() []apperr.Code {
	codes := make([]apperr.Code, 0, len(httpStatus))
	for c := range httpStatus {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(a, b apperr.Code) int {
		if httpStatus[a] != httpStatus[b] {
			return httpStatus[a] - httpStatus[b]
		}
		return strings.Compare(string(a), string(b))
	})
	return codes
}

// errorResponses is one reusable response per HTTP status, naming the codes it carries.
func errorResponses() obj {
	byStatus := map[int][]string{}
	for _, c := range errorCodes() {
		byStatus[httpStatus[c]] = append(byStatus[httpStatus[c]], string(c))
	}
	out := obj{}
	for st, codes := range byStatus {
		r := obj{"description": http.StatusText(st) + ": " + strings.Join(codes, ", "),
			"content": obj{"application/json": obj{"schema": obj{"$ref": "#/components/schemas/Failure"}}}}
		if st == http.StatusTooManyRequests {
			r["headers"] = obj{"Retry-After": obj{"description": "seconds to wait", "schema": obj{"type": "integer"}}}
		}
		out[fmt.Sprint(st)] = r
	}
	return out
}

// responseEnums are the enum strings of answer fields the generator sees as plain strings
// (request fields get theirs from the protovalidate rules).
var responseEnums = map[string]map[string][]any{
	"complyd.v1.Case": {
		"status":   {"OPEN", "IN_PROGRESS", "PENDING_REVIEW", "ESCALATED", "RESOLVED_TRUE_POSITIVE", "RESOLVED_FALSE_POSITIVE", "CLOSED"},
		"priority": {"LOW", "MEDIUM", "HIGH", "CRITICAL"},
		"type": {"SUSPICIOUS_TRANSACTION", "AML_ALERT", "SANCTIONS_HIT", "PEP_MATCH", "FRAUD_ALERT", "KYC_REVIEW",
			"REGULATORY_INQUIRY", "BEHAVIORAL_ANOMALY"},
	},
	"complyd.v1.ScreeningResult": {
		"outcome":   {"APPROVE", "REVIEW", "ESCALATE", "BLOCK"},
		"riskLevel": {"LOW", "MEDIUM", "HIGH", "CRITICAL"},
	},
	"complyd.v1.KycApplication": {
		"status": {"PENDING", "DOCUMENT_UPLOADED", "NIN_VERIFIED", "BVN_VERIFIED", "LIVENESS_PASSED", "APPROVED", "REJECTED", "EXPIRED"},
		"tier":   {"TIER_1", "TIER_2", "TIER_3"},
	},
	"complyd.v1.KybApplication": {
		"status": {"PENDING", "DOCUMENT_UPLOADED", "CAC_VERIFIED", "DIRECTORS_VERIFIED", "BENEFICIAL_OWNERS_VERIFIED",
			"SCREENING_PASSED", "APPROVED", "REJECTED"},
	},
}

func addEnums(schemas obj) {
	for name, fields := range responseEnums {
		s, ok := schemas[name].(obj)
		if !ok {
			continue
		}
		props, _ := s["properties"].(obj)
		for field, values := range fields {
			if p, ok := props[field].(obj); ok && p["enum"] == nil {
				p["enum"] = values
			}
		}
	}
}

// nullableMessages lets every message-typed field (wrappers, timestamps, nested messages) be
// null: the envelope writes an unset one as null (docs/reference/api-conventions.md "JSON shapes").
func nullableMessages(schemas obj) {
	for _, s := range schemas {
		props, _ := s.(obj)["properties"].(obj)
		for name, p := range props {
			prop, _ := p.(obj)
			ref, ok := prop["$ref"]
			if !ok {
				continue
			}
			delete(prop, "$ref")
			prop["anyOf"] = []any{obj{"$ref": ref}, obj{"type": "null"}}
			props[name] = prop
		}
	}
}

// wellKnownDescriptions replace the protobuf well-known types' long comments (written for proto
// authors, with links to outside references) by what a caller of /api/v1 needs.
var wellKnownDescriptions = map[string]string{
	"A Timestamp represents": "RFC 3339 timestamp in UTC, for example 2026-11-24T10:15:00Z.",
	"Wrapper message for `":  "The value, or null when unset.",
	"`Struct` represents":    "A JSON object.",
	"`Value` represents":     "Any JSON value.",
	"`ListValue` is":         "A JSON array.",
	"`NullValue` is":         "JSON null.",
}

// shortenWellKnownDescriptions walks the document and applies wellKnownDescriptions.
func shortenWellKnownDescriptions(v any) {
	switch t := v.(type) {
	case obj:
		if d, ok := t["description"].(string); ok {
			for prefix, short := range wellKnownDescriptions {
				if strings.HasPrefix(d, prefix) {
					t["description"] = short
				}
			}
		}
		for _, c := range t {
			shortenWellKnownDescriptions(c)
		}
	case []any:
		for _, c := range t {
			shortenWellKnownDescriptions(c)
		}
	}
}

// addPlainRoutes documents the /api/v1 routes that are plain HTTP handlers, not RPCs.
func addPlainRoutes(paths obj) {
	upload := func(tag, what string) obj {
		return obj{"post": obj{
			"tags": []any{tag}, "summary": "Upload" + what + "Document", "operationId": "upload" + what + "Document",
			"description": "Multipart upload of one document (10 MiB at most; JPEG, PNG or PDF, checked by content). " +
				"Roles: BANK_ADMIN, COMPLIANCE_OFFICER, ANALYST. gRPC and Connect clients use the Upload RPC.",
			"parameters": []any{obj{"name": "id", "in": "path", "required": true, "schema": obj{"type": "string"}}},
			"requestBody": obj{"required": true, "content": obj{"multipart/form-data": obj{"schema": obj{
				"type": "object", "required": []any{"file", "documentType"},
				"properties": obj{"file": obj{"type": "string", "contentMediaType": "application/octet-stream"},
					"documentType": obj{"type": "string", "example": "PASSPORT"}}}}}},
			"responses": obj{
				"200": obj{"description": "the stored document", "content": obj{"application/json": obj{"schema": obj{
					"type": "object", "required": []any{"success", "data"},
					"properties": obj{"success": obj{"const": true}, "data": obj{"type": "object"}}}}}},
				"400": obj{"$ref": "#/components/responses/400"}, "401": obj{"$ref": "#/components/responses/401"},
				"403": obj{"$ref": "#/components/responses/403"}, "404": obj{"$ref": "#/components/responses/404"},
				"413": obj{"$ref": "#/components/responses/413"}, "415": obj{"$ref": "#/components/responses/415"},
				"500": obj{"$ref": "#/components/responses/500"},
			},
		}}
	}
	for path, svc := range map[string]string{"/api/v1/kyc/applications/{id}/documents": "Kyc", "/api/v1/kyc/kyb/applications/{id}/documents": "Kyb"} {
		item, _ := paths[path].(obj)
		if item == nil {
			item = obj{}
			paths[path] = item
		}
		item["post"] = upload(svc+"Service", svc)["post"]
	}
	paths["/api/v1/health"] = obj{"get": obj{
		"tags": []any{"Health"}, "summary": "Health", "operationId": "health", "security": []any{},
		"description": "Liveness and dependencies; no authentication. 503 with the failure envelope when the database is unreachable.",
		"responses": obj{"200": obj{"description": "Success", "content": obj{"application/json": obj{"schema": obj{
			"type": "object", "properties": obj{"success": obj{"const": true}, "data": obj{"type": "object", "properties": obj{
				"status": obj{"type": "string", "enum": []any{"ok", "degraded"}},
				"checks": obj{"type": "object", "properties": obj{
					"database":  obj{"type": "string", "enum": []any{"ok", "error"}},
					"sanctions": obj{"type": "string", "enum": []any{"ok", "empty", "error"}}}},
				"sanctionsLists": obj{"type": "array", "description": "Each global sanctions list in force: version, entries, import time, publication date when known (the shipped snapshot) and age in days.",
					"items": obj{"type": "object", "properties": obj{
						"list": obj{"type": "string"}, "version": obj{"type": "integer"}, "entries": obj{"type": "integer"},
						"importedAt": obj{"type": "string", "format": "date-time"}, "publishedOn": obj{"type": "string", "format": "date"},
						"ageDays": obj{"type": "integer"}}}}}}}}}}},
			"503": obj{"$ref": "#/components/responses/503"}},
	}}
	paths[OpenAPIPath] = obj{"get": obj{
		"tags": []any{"Health"}, "summary": "OpenAPI", "operationId": "openapi", "security": []any{},
		"description": "This document (not wrapped in the envelope).",
		"responses":   obj{"200": obj{"description": "the OpenAPI 3.1 document", "content": obj{"application/json": obj{"schema": obj{"type": "object"}}}}},
	}}
}
