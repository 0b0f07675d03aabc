package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/encoding/protojson"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// isoMessage reads an internal/iso20022 testdata message with a fresh id in its identifiers.
func isoMessage(t testing.TB, name string) (string, string) {
	t.Helper()
	b, err := os.ReadFile("../iso20022/testdata/" + name)
	require.NoError(t, err)
	// Short enough for the Max35Text identifiers built from it (INSTR-<id>-1) however many ids
	// the package's tests have taken.
	id := fmt.Sprintf("iso-%d-%d", time.Now().UnixNano()%1e12, extSeq.Add(1))
	return strings.ReplaceAll(string(b), "{{ID}}", id), id
}

// postXML sends body to the ISO 20022 route as application/xml.
func (s *testServer) postXML(token, body string, header map[string]string) (*http.Response, []byte) {
	s.t.Helper()
	req, err := http.NewRequest("POST", s.URL+"/api/v1/transactions/iso20022", strings.NewReader(body))
	require.NoError(s.t, err)
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("Authorization", "Bearer "+token)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(s.t, err)
	return res, raw
}

// screenMessage screens an ISO 20022 message over proto (rest, connect or grpc).
func (s *testServer) screenMessage(t testing.TB, proto, token, body string) *complydv1.ScreenPaymentMessageResponse {
	t.Helper()
	if proto == "rest" {
		res, raw := s.postXML(token, body, nil)
		require.Equal(t, 200, res.StatusCode, "%s", raw)
		var env struct {
			Success bool            `json:"success"`
			Data    json.RawMessage `json:"data"`
		}
		require.NoError(t, json.Unmarshal(raw, &env))
		require.True(t, env.Success, "%s", raw)
		out := &complydv1.ScreenPaymentMessageResponse{}
		require.NoError(t, protojson.Unmarshal(env.Data, out))
		return out
	}
	res, err := s.txClient(proto, cred{Bearer: token}).ScreenPaymentMessage(context.Background(), connect.NewRequest(&complydv1.ScreenPaymentMessageRequest{
		Message: &httpbody.HttpBody{ContentType: "application/xml", Data: []byte(body)}}))
	require.NoError(t, err)
	return res.Msg
}

// storedParties reads a stored transaction's payment message parties by role.
func (s *testServer) storedParties(t testing.TB, token, id string) (*complydv1.Transaction, map[string]*complydv1.PaymentParty) {
	t.Helper()
	res, err := s.txClient("connect", cred{Bearer: token}).GetTransaction(context.Background(), connect.NewRequest(&complydv1.GetTransactionRequest{Id: id}))
	require.NoError(t, err)
	require.NotNil(t, res.Msg.PaymentMessage, "the payment message is stored with the transaction")
	out := map[string]*complydv1.PaymentParty{}
	for _, p := range res.Msg.PaymentMessage.Parties {
		out[p.Role] = p
	}
	return res.Msg, out
}

// watchlist creates a tenant watchlist of type SANCTIONS holding names; a name ending in
// " (BUSINESS)" is a business entry.
func (s *testServer) watchlist(token string, names ...string) {
	s.t.Helper()
	var wl struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", cred{Bearer: token}, map[string]any{"name": "ISO test list", "type": "SANCTIONS"}).decode(s.t, &wl)
	for i, n := range names {
		et := "INDIVIDUAL"
		if b, ok := strings.CutSuffix(n, " (BUSINESS)"); ok {
			n, et = b, "BUSINESS"
		}
		s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: token}, map[string]any{"name": n,
			"entityType": et, "reference": fmt.Sprintf("ISO-%d", i)}).decode(s.t, &struct{}{})
	}
}

// isoParties are the parties of testdata/pacs008_09_batch.xml's first transaction by role.
var isoParties = map[string]string{
	"DEBTOR":               "Chukwuemeka Adeyemi",
	"CREDITOR":             "Ngozi Okonkwo",
	"ULTIMATE_DEBTOR":      "Babatunde Fashola Holdings",
	"ULTIMATE_CREDITOR":    "Zainab Bello Trading",
	"INITIATING_PARTY":     "Oluwaseun Initiators Limited",
	"DEBTOR_AGENT":         "Sterling Crest Bank",
	"CREDITOR_AGENT":       "Lagos Harbour Bank",
	"INTERMEDIARY_AGENT_1": "Meridian Clearing Bank",
	"INSTRUCTED_AGENT":     "LHBKNGLAXXX", // by its BIC: the group header names it by nothing else
}

// TestISO20022EachPartyHits: each party of a pacs.008 batch, listed alone, BLOCKs its
// transaction with RJCT RR04, the hit is stored under that party and no other, over REST,
// Connect and gRPC in turn.
func TestISO20022EachPartyHits(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	i := 0
	for role, name := range isoParties {
		proto := protocols[i%len(protocols)]
		i++
		t.Run(role+"/"+proto, func(t *testing.T) {
			_, admin := s.kycTenant()
			entry := name
			if strings.HasSuffix(role, "_AGENT") || strings.HasPrefix(role, "INTERMEDIARY") || role == "ULTIMATE_DEBTOR" {
				entry += " (BUSINESS)" // agents, and an ultimate debtor identified by an OrgId, are businesses
			}
			s.watchlist(admin, entry)
			msg, id := isoMessage(t, "pacs008_09_batch.xml")
			out := s.screenMessage(t, proto, admin, msg)
			require.Equal(t, "pacs.008.001.09", out.MessageType)
			require.Equal(t, "MSG-"+id, out.MessageId)
			require.Len(t, out.Items, 2)
			first := out.Items[0]
			require.Nil(t, first.Error)
			require.Equal(t, "E2E-"+id+"-1", first.ExternalId)
			require.Equal(t, "BLOCK", first.Result.Outcome, "%v", first.Result.TriggeredRules)
			for _, r := range first.Result.TriggeredRules {
				if r.Category == "Global Sanctions Screening" {
					require.Contains(t, r.Details, name)
				}
			}
			require.Equal(t, "RJCT", first.Status)
			require.Equal(t, "RR04", first.StatusReason)
			require.Contains(t, out.StatusReport, "<OrgnlEndToEndId>E2E-"+id+"-1</OrgnlEndToEndId>")
			require.Contains(t, out.StatusReport, "<Cd>RR04</Cd>")
			_, parties := s.storedParties(t, admin, first.Result.TransactionId)
			for r, p := range parties {
				// The instructed agent is the creditor agent (one BIC): listing it hits both.
				want := r == role || (role == "INSTRUCTED_AGENT" && p.Bic == name)
				require.Equal(t, want, p.Hit, "%s hit (listed: %s)", r, role)
			}
		})
	}
}

// TestISO20022UltimateCreditorAloneBlocks: the case, over every protocol; sending the
// message again answers the original statuses and screens nothing.
func TestISO20022UltimateCreditorAloneBlocks(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	s.watchlist(admin, "Zainab Bello Trading")
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			msg, id := isoMessage(t, "pacs008_09_batch.xml")
			out := s.screenMessage(t, proto, admin, msg)
			require.Equal(t, "BLOCK", out.Items[0].Result.Outcome)
			require.Equal(t, "RJCT", out.Items[0].Status)
			require.NotEqual(t, "BLOCK", out.Items[1].Result.Outcome, "the second transfer has no ultimate creditor: %v", out.Items[1].Result.TriggeredRules)
			var details string
			for _, r := range out.Items[0].Result.TriggeredRules {
				details += r.Details + "\n"
			}
			require.Contains(t, details, `ULTIMATE_CREDITOR name "Zainab Bello Trading"`)
			tx, parties := s.storedParties(t, admin, out.Items[0].Result.TransactionId)
			require.True(t, parties["ULTIMATE_CREDITOR"].Hit)
			require.False(t, parties["CREDITOR"].Hit)
			require.Equal(t, "1250000.50", tx.PaymentMessage.Amount)
			require.Equal(t, "1250000.5", tx.Amount)
			require.Equal(t, "TX-"+id+"-1", tx.PaymentMessage.TxId)
			require.Equal(t, "MSG-"+id, tx.PaymentMessage.MessageId)
			require.Equal(t, "GDDS", tx.PaymentMessage.Purpose)
			require.Equal(t, []*complydv1.PaymentPartyIdentifier{{Id: "22212345678", Scheme: "BVN", Issuer: "NIBSS"}},
				stripIDs(parties["DEBTOR"].Identifiers))
			require.Equal(t, "529900T8BM49AURSDO55", parties["ULTIMATE_DEBTOR"].Lei)

			var n int
			require.NoError(t, s.admin().QueryRow(context.Background(),
				"select count(*) from transactions where tenant_id = $1 and payment_message->>'messageId' = $2", f.ID, "MSG-"+id).Scan(&n))
			require.Equal(t, 2, n)
			again := s.screenMessage(t, proto, admin, msg)
			for i, it := range again.Items {
				require.Equal(t, "DUPLICATE_EXTERNAL_ID", it.Error.GetCode())
				require.Equal(t, out.Items[i].Status, it.Status, "the original status")
			}
			require.NoError(t, s.admin().QueryRow(context.Background(),
				"select count(*) from transactions where tenant_id = $1 and payment_message->>'messageId' = $2", f.ID, "MSG-"+id).Scan(&n))
			require.Equal(t, 2, n, "nothing screened twice")
		})
	}
}

func stripIDs(ids []*complydv1.PaymentPartyIdentifier) []*complydv1.PaymentPartyIdentifier {
	out := make([]*complydv1.PaymentPartyIdentifier, len(ids))
	for i, id := range ids {
		out[i] = &complydv1.PaymentPartyIdentifier{Id: id.Id, Scheme: id.Scheme, Issuer: id.Issuer}
	}
	return out
}

// TestISO20022EachMessageType: every accepted definition, single and batch, over every
// protocol, answers each transaction with a status and stores its parties.
func TestISO20022EachMessageType(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	s.watchlist(admin, "Nobody Listed Here")
	for _, c := range []struct {
		file, def string
		n         int
	}{
		{"pacs008_09_batch.xml", "pacs.008.001.09", 2},
		{"pacs008_08_single.xml", "pacs.008.001.08", 1},
		{"pacs009_09_single.xml", "pacs.009.001.09", 1},
		{"pain001_10_batch.xml", "pain.001.001.10", 2},
	} {
		for _, proto := range protocols {
			t.Run(c.def+"/"+proto, func(t *testing.T) {
				msg, _ := isoMessage(t, c.file)
				out := s.screenMessage(t, proto, admin, msg)
				require.Equal(t, c.def, out.MessageType)
				require.Len(t, out.Items, c.n)
				for _, it := range out.Items {
					require.Nil(t, it.Error, "%v", it.Error)
					want := map[string]string{"APPROVE": "ACCP", "REVIEW": "PDNG", "ESCALATE": "PDNG", "BLOCK": "RJCT"}[it.Result.Outcome]
					require.Equal(t, want, it.Status, "%s: %v", it.Result.Outcome, it.Result.TriggeredRules)
					require.Contains(t, out.StatusReport, "<OrgnlEndToEndId>"+it.EndToEndId+"</OrgnlEndToEndId>")
					tx, parties := s.storedParties(t, admin, it.Result.TransactionId)
					require.Equal(t, c.def, tx.PaymentMessage.MessageType)
					require.NotEmpty(t, parties["DEBTOR"].Name)
				}
			})
		}
	}
}

// TestISO20022RefusesBadMessages: malformed and hostile messages are refused at once, with the
// path of each error, and nothing is stored.
func TestISO20022RefusesBadMessages(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	good, _ := isoMessage(t, "pacs008_09_batch.xml")
	for name, c := range map[string]struct {
		body, field string
	}{
		"doctype":      {`<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>`, "body"},
		"missing cdtr": {strings.Replace(good, "<Cdtr><Nm>Ifeoma Eze</Nm></Cdtr>", "", 1), "/Document/FIToFICstmrCdtTrf/CdtTrfTxInf[2]/Cdtr"},
		"version":      {strings.Replace(good, "pacs.008.001.09", "pacs.008.001.12", 1), "/Document"},
		"deep":         {`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09">` + strings.Repeat("<a>", 64) + strings.Repeat("</a>", 64) + `</Document>`, ""},
	} {
		t.Run(name, func(t *testing.T) {
			res, raw := s.postXML(admin, c.body, nil)
			require.Equal(t, 400, res.StatusCode, "%s", raw)
			require.Contains(t, string(raw), `"VALIDATION_ERROR"`)
			require.Contains(t, string(raw), `"field":"`+c.field)
		})
	}
	t.Run("1 GB body", func(t *testing.T) {
		req, err := http.NewRequest("POST", s.URL+"/api/v1/transactions/iso20022", io.LimitReader(zeros{}, 1<<30))
		require.NoError(t, err)
		req.ContentLength = 1 << 30
		req.Header.Set("Content-Type", "application/xml")
		req.Header.Set("Authorization", "Bearer "+admin)
		res, err := http.DefaultClient.Do(req)
		if err == nil { // the server may answer and close before the client has sent anything
			defer res.Body.Close()
			require.Equal(t, 413, res.StatusCode)
		}
	})
	t.Run("grpc", func(t *testing.T) {
		_, err := s.txClient("grpc", cred{Bearer: admin}).ScreenPaymentMessage(context.Background(), connect.NewRequest(&complydv1.ScreenPaymentMessageRequest{
			Message: &httpbody.HttpBody{Data: []byte(strings.Replace(good, "<Cdtr><Nm>Ifeoma Eze</Nm></Cdtr>", "", 1))}}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeInvalidArgument, code)
		require.Equal(t, "/Document/FIToFICstmrCdtTrf/CdtTrfTxInf[2]/Cdtr", info.Details[0].Field)
	})
	var n int
	require.NoError(t, s.admin().QueryRow(context.Background(), "select count(*) from transactions where tenant_id = $1", f.ID).Scan(&n))
	require.Zero(t, n, "nothing of a refused message is stored")

	// Accept: application/xml answers the pacs.002 itself.
	msg, id := isoMessage(t, "pacs008_08_single.xml")
	res, raw := s.postXML(admin, msg, map[string]string{"Accept": "application/xml"})
	require.Equal(t, 200, res.StatusCode, "%s", raw)
	require.Contains(t, res.Header.Get("Content-Type"), "application/xml")
	require.True(t, bytes.HasPrefix(raw, []byte("<?xml")), "%s", raw)
	require.Contains(t, string(raw), "<OrgnlMsgId>MSG-"+id+"</OrgnlMsgId>")
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '<'
	}
	return len(p), nil
}
