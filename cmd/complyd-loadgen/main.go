// Command complyd-loadgen drives POST /transactions/screen at a fixed arrival rate over gRPC
// (unary calls, -proto grpc, or ScreenTransactionStream streams, -proto grpc-stream) or over
// /api/v1 (-proto rest) and reports the achieved throughput and latency percentiles
// (docs/guide/screening.md "Benchmark"; `just bench-screening`).
//
// It is an open-model generator: request i is due at start + i/rate whatever happened to the
// earlier ones, and its latency is measured from that scheduled time, so a stalled server shows
// up in the percentiles instead of silently lowering the offered load (no coordinated omission).
//
// With -seed it first prepares the tenant through the database and the API: KYC applications
// for every sender, 90 days of account history, FX rates. It only ever targets 127.0.0.1.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/types/known/structpb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

type options struct {
	url, dbURL, email, password, proto, runID string
	auth                                      string
	rate                                      int
	duration, warmup                          time.Duration
	conns, workers, accounts                  int
	seed, seedOnly, seedHistory               bool
	jsonOut                                   string
	officers                                  int
	webhookURL, receive                       string
	restClient                                string
}

func main() {
	var o options
	flag.StringVar(&o.url, "url", "http://127.0.0.1:18089", "server base URL (loopback only)")
	flag.StringVar(&o.dbURL, "db", "", "database URL for -seed (admin)")
	flag.StringVar(&o.email, "email", "bench@bank.test", "BANK_ADMIN email")
	flag.StringVar(&o.password, "password", "bench-password-1", "BANK_ADMIN password")
	flag.StringVar(&o.proto, "proto", "grpc", "grpc (unary), grpc-stream (ScreenTransactionStream), rest, or iso (each screening as a pacs.008.001.09 over /api/v1/transactions/iso20022)")
	flag.IntVar(&o.rate, "rate", 3000, "arrival rate, screenings per second")
	flag.StringVar(&o.auth, "auth", "apikey", "credential of the screening calls: apikey (X-API-Key, what a bank core uses) or bearer (a user's access token)")
	flag.DurationVar(&o.warmup, "warmup", 0, "unmeasured load at the target rate before the measured run (default none: a production system gets no warm-up)")
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "measured duration")
	flag.IntVar(&o.conns, "conns", 8, "connections (HTTP/2 for gRPC, one stream each for grpc-stream, keep-alive pool size cap for REST)")
	flag.StringVar(&o.restClient, "rest-client", "raw", "with -proto rest: raw (a minimal HTTP/1.1 client, rest.go) or nethttp (net/http's client, which costs the shared cores more per request)")
	flag.IntVar(&o.workers, "workers", 2048, "maximum requests in flight (grpc, rest; grpc-stream is bounded by the server's backpressure)")
	flag.IntVar(&o.accounts, "accounts", 200000, "distinct sender accounts")
	flag.BoolVar(&o.seed, "seed", false, "seed KYC, history and FX rates first")
	flag.BoolVar(&o.seedHistory, "seed-history", true, "with -seed: 5 earlier transactions per account (false: KYC and FX rates only, a new tenant's first minutes)")
	flag.BoolVar(&o.seedOnly, "seed-only", false, "seed and exit")
	flag.StringVar(&o.runID, "run", fmt.Sprint(time.Now().Unix()), "run id (externalId prefix)")
	flag.StringVar(&o.jsonOut, "json", "", "also write the result as JSON to this file")
	flag.IntVar(&o.officers, "officers", 0, "with -seed: this many active compliance officers, whom every automatic case emails and notifies (a bank's tenant has some; the issue's workload has none)")
	flag.StringVar(&o.webhookURL, "webhook", "", "with -seed: the tenant's webhook URL (case.created, transaction.screened, report.created are then delivered to it)")
	flag.StringVar(&o.receive, "receive", "", "only run a webhook receiver on this loopback address (answers 200 to every POST) until killed")
	flag.Parse()
	if o.receive != "" {
		log.Fatal(receive(o.receive))
	}
	if err := run(o); err != nil {
		log.Fatal(err)
	}
}

func run(o options) error {
	u, err := url.Parse(o.url)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refusing to target %s: loopback (127.0.0.1) only", u.Host)
	}
	ctx := context.Background()
	token, err := login(o)
	if err != nil {
		return err
	}
	key, err := apiKey(o, token)
	if err != nil {
		return err
	}
	cred := apiKeyCred(key)
	switch o.auth {
	case "apikey":
	case "bearer":
		cred = bearerCred(token)
	default:
		return fmt.Errorf("unknown -auth %q", o.auth)
	}
	if o.seed || o.seedOnly {
		if err := seed(ctx, o, token); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		if o.seedOnly {
			return nil
		}
	}
	mix := newMix(o.accounts, o.runID)
	var driveFor func(d time.Duration) (*result, error)
	switch o.proto {
	case "grpc":
		send := grpcSender(o, cred)
		driveFor = func(d time.Duration) (*result, error) { return drive(ctx, o, mix, send, d) }
	case "rest":
		send, err := restSender(o, cred)
		if err != nil {
			return err
		}
		driveFor = func(d time.Duration) (*result, error) { return drive(ctx, o, mix, send, d) }
	case "iso":
		send, err := isoSender(o, cred)
		if err != nil {
			return err
		}
		driveFor = func(d time.Duration) (*result, error) { return drive(ctx, o, mix, send, d) }
	case "grpc-stream":
		sd, err := newStreamDriver(ctx, o, cred)
		if err != nil {
			return err
		}
		defer sd.close()
		driveFor = func(d time.Duration) (*result, error) { return sd.drive(o, mix, d) }
	default:
		return fmt.Errorf("unknown -proto %q", o.proto)
	}
	// Warm-up (-warmup, default none) at the target rate, not measured (connections, caches).
	// None by default, and the benchmark passes 0 too: a production system gets no warm-up.
	if o.warmup > 0 {
		if _, err := driveFor(o.warmup); err != nil {
			return err
		}
	}
	res, err := driveFor(o.duration)
	if err != nil {
		return err
	}
	res.print(o)
	if o.jsonOut != "" {
		b, _ := json.MarshalIndent(res.summary(o), "", "  ")
		return os.WriteFile(o.jsonOut, b, 0o644)
	}
	return nil
}

type result struct {
	lat []time.Duration
	// latCase are the latencies of the answers that opened an automatic case (stream mode), a
	// subset of lat: their screening also commits the case and its effects.
	latCase []time.Duration
	errors  int64
	// errorKinds counts the errors by kind: shed (503 / UNAVAILABLE, answered at once by
	// the server's overload protection), timeout (the client's 10 s ran out), other.
	errorKinds map[string]int64
	// seconds is the run second by second (by due time).
	seconds   []secondLine
	outcomes  map[string]int64
	elapsed   time.Duration
	scheduled int
}

// secondLine is one second of a run by due time: screenings due, answered, errors, latencies.
type secondLine struct {
	Second   int     `json:"second"`
	Due      int     `json:"due"`
	Answered int     `json:"answered"`
	Errors   int     `json:"errors"`
	Shed     int     `json:"shed"`
	P50ms    float64 `json:"p50ms"`
	P99ms    float64 `json:"p99ms"`
	Maxms    float64 `json:"maxms"`
}

func (r *result) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(r.lat)))) - 1
	return r.lat[max(0, min(i, len(r.lat)-1))]
}

func (r *result) summary(o options) map[string]any {
	return map[string]any{"proto": o.proto, "targetRate": o.rate, "durationS": o.duration.Seconds(),
		"completed": len(r.lat), "errors": r.errors, "throughput": float64(len(r.lat)) / r.elapsed.Seconds(),
		"p50ms": ms(r.pct(0.50)), "p95ms": ms(r.pct(0.95)), "p99ms": ms(r.pct(0.99)), "maxms": ms(r.pct(1)),
		"outcomes": r.outcomes, "auth": o.auth, "errorKinds": r.errorKinds, "seconds": r.seconds}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (r *result) print(o options) {
	fmt.Printf("%s  target %d/s for %s: completed %d, errors %d, achieved %.0f/s\n", o.proto, o.rate, o.duration,
		len(r.lat), r.errors, float64(len(r.lat))/r.elapsed.Seconds())
	fmt.Printf("%s  latency from scheduled send: p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.2f ms\n", o.proto,
		ms(r.pct(0.5)), ms(r.pct(0.95)), ms(r.pct(0.99)), ms(r.pct(1)))
	fmt.Printf("%s  outcomes %v\n", o.proto, r.outcomes)
	if r.errors > 0 {
		fmt.Printf("%s  errors by kind %v\n", o.proto, r.errorKinds)
	}
	if worst := worstSeconds(r.seconds, 5); len(worst) > 0 {
		fmt.Printf("%s  worst seconds (second: p99/max ms):", o.proto)
		for _, w := range worst {
			fmt.Printf(" %d: %.0f/%.0f", w.Second, w.P99ms, w.Maxms)
		}
		fmt.Println()
	}
	if len(r.latCase) > 0 {
		c := &result{lat: r.latCase}
		fmt.Printf("%s  of which %d opened a case: p50 %.2f ms  p95 %.2f ms  p99 %.2f ms\n", o.proto, len(c.lat),
			ms(c.pct(0.5)), ms(c.pct(0.95)), ms(c.pct(0.99)))
	}
}

// drive issues rate×d requests on the open-model schedule.
func drive(ctx context.Context, o options, mix *mix, send func(context.Context, *complydv1.ScreenTransactionRequest) (bool, error), d time.Duration) (*result, error) {
	n := int(float64(o.rate) * d.Seconds())
	type job struct {
		i   int
		due time.Time
		req *complydv1.ScreenTransactionRequest
	}
	jobs := make(chan job, n)
	lat := make([]time.Duration, n)
	done := make([]bool, n)
	kind := make([]string, n) // the error's kind, "" when answered
	var errs atomic.Int64
	outcomes := sync.Map{}
	var wg sync.WaitGroup
	var firstErr sync.Map // kind → the first error of that kind, so that a rare one is not hidden by sheds
	for range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				i := j.i
				if d := time.Until(j.due); d > 0 {
					time.Sleep(d)
				}
				rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				ok, err := send(rctx, j.req)
				cancel()
				l := time.Since(j.due)
				if err != nil {
					errs.Add(1)
					kind[i] = errorKind(err)
					firstErr.LoadOrStore(kind[i], fmt.Sprintf("request %d, due at %s: %v", i, j.due.Format("15:04:05.000"), err))
					continue
				}
				lat[i], done[i] = l, true
				key := "ok"
				if !ok {
					key = "duplicate"
				}
				v, _ := outcomes.LoadOrStore(key, new(atomic.Int64))
				v.(*atomic.Int64).Add(1)
			}
		}()
	}
	mix.prepare(n)
	start := time.Now().Add(50 * time.Millisecond)
	interval := time.Second / time.Duration(o.rate)
	for i := range n {
		due := start.Add(time.Duration(i) * interval)
		// Hand out jobs slightly ahead of time; workers wait for the due time themselves.
		if w := time.Until(due) - 5*time.Millisecond; w > 0 {
			time.Sleep(w)
		}
		jobs <- job{i: i, due: due, req: mix.next()}
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)
	r := &result{errors: errs.Load(), outcomes: map[string]int64{}, elapsed: elapsed, scheduled: n, errorKinds: map[string]int64{}}
	for i, l := range lat {
		if done[i] {
			r.lat = append(r.lat, l)
		} else if kind[i] != "" {
			r.errorKinds[kind[i]]++
		}
	}
	r.seconds = timeline(o.rate, lat, done, kind)
	slices.Sort(r.lat)
	outcomes.Range(func(k, v any) bool { r.outcomes[k.(string)] = v.(*atomic.Int64).Load(); return true })
	firstErr.Range(func(k, v any) bool {
		fmt.Fprintf(os.Stderr, "first %s error: %s\n", k, v)
		return true
	})
	return r, nil
}

// errorKind classifies a failed screening: shed (the server's overload protection answered at
// once: 503 / UNAVAILABLE), timeout (the client gave up after 10 s), or other.
func errorKind(err error) string {
	var se *statusError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || connect.CodeOf(err) == connect.CodeDeadlineExceeded, isNetTimeout(err):
		return "timeout"
	case connect.CodeOf(err) == connect.CodeUnavailable, errors.As(err, &se) && se.status == http.StatusServiceUnavailable:
		return "shed"
	}
	return "other"
}

// statusError is a REST answer other than 200 or 409.
type statusError struct {
	status int
	body   string
}

func (e *statusError) Error() string { return fmt.Sprintf("status %d: %s", e.status, e.body) }

// timeline splits a unary run into seconds by due time (request i is due at i/rate).
func timeline(rate int, lat []time.Duration, done []bool, kind []string) []secondLine {
	var out []secondLine
	for start := 0; start < len(lat); start += rate {
		end := min(start+rate, len(lat))
		line := secondLine{Second: start / rate, Due: end - start}
		q := &result{}
		for i := start; i < end; i++ {
			switch {
			case done[i]:
				q.lat = append(q.lat, lat[i])
			case kind[i] == "shed":
				line.Errors++
				line.Shed++
			case kind[i] != "":
				line.Errors++
			}
		}
		slices.Sort(q.lat)
		line.Answered = len(q.lat)
		line.P50ms, line.P99ms, line.Maxms = ms(q.pct(0.5)), ms(q.pct(0.99)), ms(q.pct(1))
		out = append(out, line)
	}
	return out
}

// worstSeconds returns the k seconds with answers that have the highest p99, to correlate tail
// latency with what happened on the machine at the time.
func worstSeconds(seconds []secondLine, k int) []secondLine {
	var out []secondLine
	for _, s := range seconds {
		if s.Answered > 0 {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b secondLine) int { return cmp.Compare(b.P99ms, a.P99ms) })
	return out[:min(k, len(out))]
}

func grpcSender(o options, c credential) func(context.Context, *complydv1.ScreenTransactionRequest) (bool, error) {
	clients := make([]complydv1connect.TransactionServiceClient, o.conns)
	for i := range clients {
		p := new(http.Protocols)
		p.SetUnencryptedHTTP2(true)
		hc := &http.Client{Transport: &http.Transport{Protocols: p, MaxConnsPerHost: 1}}
		clients[i] = complydv1connect.NewTransactionServiceClient(hc, o.url, connect.WithGRPC(),
			connect.WithInterceptors(credInterceptor(c)))
	}
	var rr atomic.Uint64
	return func(ctx context.Context, r *complydv1.ScreenTransactionRequest) (bool, error) {
		c := clients[rr.Add(1)%uint64(len(clients))]
		res, err := c.ScreenTransaction(ctx, connect.NewRequest(r))
		if err != nil {
			if connect.CodeOf(err) == connect.CodeAlreadyExists {
				return false, nil
			}
			return false, err
		}
		_ = res.Msg.Outcome
		return true, nil
	}
}

// credential is the header a screening call authenticates with.
type credential struct{ header, value string }

func apiKeyCred(key string) credential   { return credential{"X-API-Key", key} }
func bearerCred(token string) credential { return credential{"Authorization", "Bearer " + token} }
func (c credential) apply(h http.Header) { h.Set(c.header, c.value) }

func credInterceptor(c credential) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			c.apply(req.Header())
			return next(ctx, req)
		}
	}
}

// mix generates the realistic request mix (docs/guide/screening.md "Benchmark").
type mix struct {
	mu       sync.Mutex
	ready    []*complydv1.ScreenTransactionRequest // prepared ahead of a run
	rng      *rand.Rand
	accounts int
	run      string
	seq      int64
}

func newMix(accounts int, run string) *mix {
	return &mix{rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7)), accounts: accounts, run: run}
}

// Account i's number and BVN (the seed gives every BVN an APPROVED TIER_3 KYC application).
func account(i int) string { return fmt.Sprintf("%010d", 1000000000+i) }
func bvnOf(i int) string   { return fmt.Sprintf("%011d", 20000000000+i) }

var receivers = []string{"Chidi Okeke", "Ngozi Adeyemi", "Tunde Bakare", "Aisha Bello", "Emeka Nwosu",
	"Folake Ogunleye", "Bola Adewale", "Kemi Adebayo", "Uche Eze", "Zainab Lawal"}

// nearMisses are names close to (but not) sanctioned names: the matcher must score them.
var nearMisses = []string{"Viktor Bout Trading", "Abu Bakr al Bagdadi", "Kim Jong Un Export", "Osama Bin Ladin Foundation",
	"Hezbolla Finance", "Joaquin Guzman Lorea"}

// prepare builds the next n requests ahead of time, so that building them (a dozen formatted
// strings each) does not take the machine's CPU during the measured run.
func (m *mix) prepare(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for range n {
		m.ready = append(m.ready, m.generate())
	}
}

// next returns the next request, prepared or built now, stamped with the current time.
func (m *mix) next() *complydv1.ScreenTransactionRequest {
	m.mu.Lock()
	var r *complydv1.ScreenTransactionRequest
	if len(m.ready) > 0 {
		r, m.ready[0] = m.ready[0], nil
		m.ready = m.ready[1:]
	} else {
		r = m.generate()
	}
	m.mu.Unlock()
	r.Timestamp = time.Now().UTC().Format(time.RFC3339Nano)
	return r
}

// generate builds the next request of the mix (m.mu held), without its timestamp.
func (m *mix) generate() *complydv1.ScreenTransactionRequest {
	m.seq++
	rng := m.rng
	i := rng.IntN(m.accounts)
	amount := math.Round(math.Exp(rng.NormFloat64()*1.2+9.5)*100) / 100 // median ≈ 13,000 NGN
	amount = max(50, min(amount, 3_000_000))
	r := &complydv1.ScreenTransactionRequest{ExternalId: fmt.Sprintf("%s-%d", m.run, m.seq), Type: "TRANSFER",
		Channel: "MOBILE_APP", Amount: amount, SenderAccountNumber: account(i), SenderBvn: str(bvnOf(i)),
		SenderName: fmt.Sprintf("Customer %d Adeyemi", i), ReceiverName: str(receivers[rng.IntN(len(receivers))]),
		ReceiverAccountNumber: str(account(rng.IntN(m.accounts))),
		DeviceId:              str(fmt.Sprintf("dev-%d", i)), IpAddress: str(fmt.Sprintf("10.%d.%d.%d", i%250, (i/250)%250, i%200+1))}
	switch p := rng.IntN(1000); {
	case p < 150:
		r.Type, r.Channel = "POS", "POS_TERMINAL"
	case p < 250:
		r.Type, r.Channel = "USSD", "USSD"
	case p < 300:
		r.Type, r.Channel = "CASH_WITHDRAWAL", "ATM"
	}
	switch p := rng.IntN(1000); {
	case p < 5: // business sender (KYB lookup)
		r.Metadata, _ = structpb.NewStruct(map[string]any{"entityType": "BUSINESS", "senderRcNumber": fmt.Sprintf("RC%d", 100000+i)})
	case p < 55: // foreign currency with a rate
		r.Currency, r.Amount, r.ReceiverCountry, r.Type = str("USD"), math.Round(amount/15+100)/100, str("GB"), "INTERNATIONAL_TRANSFER"
	case p < 65: // foreign currency without a rate: FX_RATE_MISSING
		r.Currency, r.Amount = str("CHF"), math.Round(amount/20+100)/100
	case p < 75: // near the TIER_3 limit (AML-009) and the structuring band
		r.Amount = 4_000_000 + float64(rng.IntN(900_000))
	case p < 85: // sanctions near-miss on the receiver
		r.ReceiverName = str(nearMisses[rng.IntN(len(nearMisses))])
	case p < 88: // high-risk narration
		r.Narration = str("payment for arms deal")
	}
	return r
}

func str(s string) *string { return &s }

func login(o options) (string, error) {
	var out struct {
		Data struct {
			AccessToken string `json:"accessToken"`
		} `json:"data"`
	}
	if err := call("POST", o.url+"/api/v1/auth/login", "", map[string]any{"email": o.email, "password": o.password}, &out); err != nil {
		return "", err
	}
	return out.Data.AccessToken, nil
}

func apiKey(o options, token string) (string, error) {
	var out struct {
		Data struct {
			Key string `json:"key"`
		} `json:"data"`
	}
	if err := call("POST", o.url+"/api/v1/auth/api-keys", token, map[string]any{"name": "loadgen " + o.runID}, &out); err != nil {
		return "", err
	}
	return out.Data.Key, nil
}

func call(method, u, token string, body, out any) error {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, u, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, u, res.StatusCode, raw)
	}
	return json.Unmarshal(raw, out)
}

// seed prepares the tenant: an APPROVED TIER_3 KYC application per sender BVN, five earlier
// transactions per account over the last 90 days (the history the enrichment reads), and a
// USD rate (CHF deliberately has none). The applications are inserted with their BVNs in clear
// (fast, in SQL), as rows written before migration 0011 were: run `complyd migrate` afterwards
// to seal them (scripts/bench-screening-ramp.sh does), or screening will not find them.
func seed(ctx context.Context, o options, token string) error {
	if o.dbURL == "" {
		return errors.New("-seed needs -db")
	}
	var fx struct{}
	if err := call("PATCH", o.url+"/api/v1/tenants/me/fx-rates", token,
		map[string]any{"rates": []map[string]string{{"currency": "USD", "rateToNgn": "1550.25"}}}, &fx); err != nil {
		return err
	}
	for i := range o.officers {
		var u struct{}
		if err := call("POST", o.url+"/api/v1/auth/users", token, map[string]any{"email": fmt.Sprintf("officer-%d@bank.test", i),
			"password": "bench-password-1", "firstName": "Officer", "lastName": fmt.Sprint(i), "role": "COMPLIANCE_OFFICER"}, &u); err != nil {
			return fmt.Errorf("officer: %w", err)
		}
	}
	if o.webhookURL != "" {
		var w struct{}
		if err := call("PATCH", o.url+"/api/v1/tenants/me/webhooks", token,
			map[string]any{"webhookUrl": o.webhookURL, "webhookSecret": "bench-webhook-secret"}, &w); err != nil {
			return fmt.Errorf("webhook: %w", err)
		}
	}
	conn, err := pgx.Connect(ctx, o.dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var tenant string
	if err := conn.QueryRow(ctx, `select tenant_id::text from users where email = $1`, o.email).Scan(&tenant); err != nil {
		return fmt.Errorf("find tenant: %w", err)
	}
	t0 := time.Now()
	if _, err := conn.Exec(ctx, `insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name, bvn, tier, status)
		select 'kyc_bench_' || g, $1, 'INDIVIDUAL', 'Customer', 'Adeyemi', lpad((20000000000 + g)::text, 11, '0'), 'TIER_3', 'APPROVED'
		from generate_series(0, $2 - 1) g on conflict do nothing`, tenant, o.accounts); err != nil {
		return fmt.Errorf("seed kyc: %w", err)
	}
	if !o.seedHistory {
		fmt.Printf("seeded %d accounts (KYC only) in %s\n", o.accounts, time.Since(t0).Round(time.Millisecond))
		_, err := conn.Exec(ctx, `analyze kyc_applications`)
		return err
	}
	// The dashboard's rollups (migration 0018) count the seeded rows in the same statement, as the
	// screening commit does, so the overview and the transactions list's total agree with them.
	if _, err := conn.Exec(ctx, `with ins as (insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, device_id, ip_address, transaction_timestamp, verdict_id, outcome, risk_level,
		aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'seed-' || a || '-' || k, 'TRANSFER', 'MOBILE_APP', amt, 'NGN', amt,
		  lpad((1000000000 + a)::text, 10, '0'), 'Customer ' || a || ' Adeyemi', 'dev-' || a,
		  '10.' || (a % 250) || '.' || ((a / 250) % 250) || '.' || (a % 200 + 1), ts, 'vrd_seed', 'APPROVE', 'LOW', 0, '{}', '[]', 1, ts, ts
		from generate_series(0, $2 - 1) a, generate_series(1, 5) k,
		  lateral (select round((5000 + random() * 40000)::numeric, 2) as amt,
		                  now() - (k * 15 + random() * 10) * interval '1 day' as ts) x
		on conflict do nothing returning outcome, risk_level, transaction_timestamp)
		insert into screening_rollups (tenant_id, bucket, shard, outcome, risk_level, screenings)
		select $1::uuid, date_trunc('hour', transaction_timestamp, 'UTC') as b, 0, outcome, risk_level, count(*)
		from ins group by b, outcome, risk_level
		on conflict (tenant_id, bucket, outcome, risk_level, shard)
		do update set screenings = screening_rollups.screenings + excluded.screenings`, tenant, o.accounts); err != nil {
		return fmt.Errorf("seed history: %w", err)
	}
	if _, err := conn.Exec(ctx, `analyze transactions; analyze kyc_applications`); err != nil {
		return err
	}
	fmt.Printf("seeded %d accounts (KYC + 5 earlier transactions each) in %s; run `complyd migrate` to seal the KYC BVNs\n",
		o.accounts, time.Since(t0).Round(time.Millisecond))
	return nil
}

// receive answers every request on addr (loopback only) with 200 after reading its body: the
// bank's webhook endpoint, so that the deliveries the benchmark's cases cause cost what they
// cost when delivered.
func receive(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refusing to listen on %s: loopback only", addr)
	}
	srv := &http.Server{Addr: addr, ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
		w.WriteHeader(http.StatusOK)
	})}
	return srv.ListenAndServe()
}
