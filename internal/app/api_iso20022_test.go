package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
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

// isoListed is one party of a testdata message's first transaction and the watchlist entry
// that names it: its name, or for the entries marked byBIC its BIC. business: the entry is a
// BUSINESS one (agents, institutions, a party identified by an OrgId).
type isoListed struct {
	role, entry string
	business    bool
}

// isoPartyMessages are the messages of each accepted definition, each a batch of two, and every
// party of the first transaction (docs/guide/iso20022.md "Parties, and how each is screened").
var isoPartyMessages = []struct {
	file, def string
	parties   []isoListed
}{
	{"pacs008_09_batch.xml", "pacs.008.001.09", []isoListed{
		{"DEBTOR", "Chukwuemeka Adeyemi", false},
		{"CREDITOR", "Ngozi Okonkwo", false},
		{"ULTIMATE_DEBTOR", "Babatunde Fashola Holdings", true},
		{"ULTIMATE_CREDITOR", "Zainab Bello Trading", false},
		{"INITIATING_PARTY", "Oluwaseun Initiators Limited", false},
		{"DEBTOR_AGENT", "Sterling Crest Bank", true},
		{"CREDITOR_AGENT", "Lagos Harbour Bank", true},
		{"INTERMEDIARY_AGENT_1", "Meridian Clearing Bank", true},
		{"INTERMEDIARY_AGENT_1", "MRDCNGLAXXX", true}, // by its BIC
	}},
	{"pacs008_08_parties.xml", "pacs.008.001.08", []isoListed{
		{"DEBTOR", "Adaobi Chukwuma", false},
		{"CREDITOR", "Tamunotonye Briggs", false},
		{"ULTIMATE_DEBTOR", "Ekiti Cocoa Exporters Cooperative", true},
		{"ULTIMATE_CREDITOR", "Calabar Marina Logistics", false},
		{"INITIATING_PARTY", "Gombe Payroll Services", false},
		{"DEBTOR_AGENT", "Niger Delta Wholesale Bank", true},
		{"CREDITOR_AGENT", "Jos Plateau Regional Bank", true},
		{"INTERMEDIARY_AGENT_1", "Harcourt Gulf Lenders", true},
		{"INTERMEDIARY_AGENT_2", "Yobe Bulk Clearing", true},
		{"INTERMEDIARY_AGENT_3", "Victoria Thames Correspondent", true},
		{"INTERMEDIARY_AGENT_3", "VCTRGB2LXXX", true},
		{"PREVIOUS_INSTRUCTING_AGENT_1", "Okpara Merchant Bank", true},
		{"INSTRUCTING_AGENT", "Zamfara Rural Trust", true},
		{"INSTRUCTED_AGENT", "Qua Iboe Waterside Bank", true},
		{"CREDITOR_AGENT", "JSPRNGLAXXX", true},
	}},
	{"pacs009_09_parties.xml", "pacs.009.001.09", []isoListed{
		{"DEBTOR", "Niger Delta Wholesale Bank", true},
		{"DEBTOR", "NWDLNGLAXXX", true}, // an institution debtor by its BIC
		{"CREDITOR", "Tamuno Briggs Finance House", true},
		{"CREDITOR", "TMBRNGLAXXX", true},
		{"ULTIMATE_DEBTOR", "Ekiti Cocoa Exchange Bank", true},
		{"ULTIMATE_CREDITOR", "Calabar Marina Savings", true},
		{"DEBTOR_AGENT", "Gombe Payroll Bank", true},
		{"CREDITOR_AGENT", "Jos Plateau Regional Bank", true},
		{"INTERMEDIARY_AGENT_1", "Harcourt Gulf Lenders", true},
		{"PREVIOUS_INSTRUCTING_AGENT_1", "Okpara Merchant Bank", true},
		{"INSTRUCTING_AGENT", "Zamfara Rural Trust", true},
		{"INSTRUCTED_AGENT", "QWTENGLAXXX", true},
	}},
	{"pain001_10_parties.xml", "pain.001.001.10", []isoListed{
		{"DEBTOR", "Adaobi Chukwuma", false},
		{"CREDITOR", "Tamunotonye Briggs", false},
		{"ULTIMATE_DEBTOR", "Ekiti Cocoa Exporters Cooperative", false},
		{"ULTIMATE_CREDITOR", "Calabar Marina Logistics", false},
		{"INITIATING_PARTY", "Gombe Payroll Services", true},
		{"DEBTOR_AGENT", "Niger Delta Wholesale Bank", true},
		{"CREDITOR_AGENT", "Jos Plateau Regional Bank", true},
		{"INTERMEDIARY_AGENT_1", "Harcourt Gulf Lenders", true},
	}},
}

// TestISO20022EachPartyHits: for each accepted definition, each party of the first transaction
// of a batch, listed alone (by name, and for some by BIC), BLOCKs that transaction with RJCT
// RR04 and its hit is stored under that party and no other, over REST, Connect and gRPC in turn.
func TestISO20022EachPartyHits(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	i := 0
	for _, m := range isoPartyMessages {
		for _, l := range m.parties {
			proto := protocols[i%len(protocols)]
			i++
			t.Run(m.def+"/"+l.role+"/"+l.entry+"/"+proto, func(t *testing.T) {
				_, admin := s.kycTenant()
				entry := l.entry
				if l.business {
					entry += " (BUSINESS)"
				}
				s.watchlist(admin, entry)
				msg, id := isoMessage(t, m.file)
				out := s.screenMessage(t, proto, admin, msg)
				require.Equal(t, m.def, out.MessageType)
				require.Equal(t, "MSG-"+id, out.MessageId)
				require.Len(t, out.Items, 2, "a batch answers each transaction")
				first := out.Items[0]
				require.Nil(t, first.Error)
				require.Equal(t, "E2E-"+id+"-1", first.ExternalId)
				require.Equal(t, "BLOCK", first.Result.Outcome, "%v", first.Result.TriggeredRules)
				var details string
				for _, r := range first.Result.TriggeredRules {
					details += r.Details + "\n"
				}
				require.Contains(t, details, l.entry)
				require.Equal(t, "RJCT", first.Status)
				require.Equal(t, "RR04", first.StatusReason)
				require.Contains(t, out.StatusReport, "<OrgnlEndToEndId>E2E-"+id+"-1</OrgnlEndToEndId>")
				require.Contains(t, out.StatusReport, "<Cd>RR04</Cd>")
				_, parties := s.storedParties(t, admin, first.Result.TransactionId)
				require.Contains(t, parties, l.role)
				for r, p := range parties {
					require.Equal(t, r == l.role, p.Hit, "%s hit (listed: %s %q)", r, l.role, l.entry)
				}
			})
		}
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
			require.Contains(t, details, `Ultimate creditor name "Zainab Bello Trading"`)
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
		"doctype": {`<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>`, "body"},
		"billion laughs": {`<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>` +
			`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09">&b;</Document>`, "body"},
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
	t.Run("1 GB body declared", func(t *testing.T) {
		// The headers alone, never a byte of the body: the answer must come at once.
		conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
		require.NoError(t, err)
		defer conn.Close()
		_, err = fmt.Fprintf(conn, "POST /api/v1/transactions/iso20022 HTTP/1.1\r\nHost: complyd\r\nContent-Type: application/xml\r\n"+
			"Authorization: Bearer %s\r\nContent-Length: %d\r\n\r\n", admin, 1<<30)
		require.NoError(t, err)
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(30*time.Second)))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err, "answered without the body being sent")
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		require.Equal(t, 413, res.StatusCode, "%s", raw)
		require.Contains(t, string(raw), `"PAYLOAD_TOO_LARGE"`)
	})
	t.Run("1 GB body chunked", func(t *testing.T) {
		// No length declared: the body is cut at the limit, the sender never gets near 1 GB.
		pr, pw := io.Pipe()
		var sent atomic.Int64
		go func() {
			buf := bytes.Repeat([]byte("<a>"), 1<<14)
			for sent.Load() < 1<<30 {
				n, err := pw.Write(buf)
				sent.Add(int64(n))
				if err != nil {
					return
				}
			}
			pw.Close()
		}()
		req, err := http.NewRequest("POST", s.URL+"/api/v1/transactions/iso20022", pr)
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/xml")
		req.Header.Set("Authorization", "Bearer "+admin)
		res, err := http.DefaultClient.Do(req)
		pr.CloseWithError(io.ErrClosedPipe)
		require.NoError(t, err)
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		require.Equal(t, 413, res.StatusCode, "%s", raw)
		require.Less(t, sent.Load(), int64(64<<20), "the body was not read to its end")
	})
	for _, proto := range []string{"connect", "grpc"} {
		t.Run("2 MiB message over "+proto, func(t *testing.T) {
			big := strings.Replace(good, "<Ustrd>School fees</Ustrd>", strings.Repeat("<Ustrd>School fees</Ustrd>", 2<<20/26), 1)
			require.Greater(t, len(big), 2<<20)
			_, err := s.txClient(proto, cred{Bearer: admin}).ScreenPaymentMessage(context.Background(), connect.NewRequest(&complydv1.ScreenPaymentMessageRequest{
				Message: &httpbody.HttpBody{ContentType: "application/xml", Data: []byte(big)}}))
			require.Error(t, err)
			require.Equal(t, connect.CodeResourceExhausted, connect.CodeOf(err), "%v", err)
		})
	}
	t.Run("entity without a DTD", func(t *testing.T) {
		res, raw := s.postXML(admin, strings.Replace(good, "School fees", "&lol9;", 1), nil)
		require.Equal(t, 400, res.StatusCode, "%s", raw)
		require.Contains(t, string(raw), `"field":"body"`)
	})
	t.Run("external reference", func(t *testing.T) {
		// XInclude: an element of a foreign namespace that would fetch a file, refused unread.
		res, raw := s.postXML(admin, strings.Replace(good, "<RmtInf><Ustrd>School fees</Ustrd></RmtInf>",
			`<RmtInf><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd"/></RmtInf>`, 1), nil)
		require.Equal(t, 400, res.StatusCode, "%s", raw)
		require.Contains(t, string(raw), "XInclude")
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

// TestISO20022RulesReadTheMessage: a tenant's CEL rule reads the message's remittance
// (tx.remittance) and purpose code (tx.purpose), and AML-005 fires for a transfer whose only
// foreign element is an intermediary agent (GB) of a pacs.008.001.08, over every protocol; the
// batch's other transfer, with neither, fires neither.
func TestISO20022RulesReadTheMessage(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	created := s.rest("POST", "/api/v1/rules", cred{Bearer: admin}, map[string]any{"name": "Cocoa supply",
		"expression": `tx.purpose == "SUPP" && tx.remittance.contains("Cocoa consignment")`, "score": 40, "outcome": "REVIEW"})
	require.Equal(t, http.StatusCreated, created.Status, "%s", created.Raw)
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			msg, _ := isoMessage(t, "pacs008_08_parties.xml")
			out := s.screenMessage(t, proto, admin, msg)
			require.Len(t, out.Items, 2)
			fired := func(it *complydv1.ScreenPaymentMessageItem) (names, details string) {
				require.Nil(t, it.Error, "%v", it.Error)
				for _, r := range it.Result.TriggeredRules {
					names += r.Name + "\n"
					details += r.Details + "\n"
				}
				return names, details
			}
			names, details := fired(out.Items[0])
			require.Contains(t, names, "Cocoa supply", "tx.purpose and tx.remittance")
			require.Contains(t, details, "international transfer, ", "AML-005: the intermediary agent is in GB")
			names, details = fired(out.Items[1])
			require.NotContains(t, names, "Cocoa supply")
			require.NotContains(t, details, "international transfer")
		})
	}
}
