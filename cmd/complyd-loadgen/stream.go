package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// streamAnswerTimeout is how long after its due time a streamed request may stay unanswered
// before it counts as an error (the unary modes' per-request deadline).
const streamAnswerTimeout = 10 * time.Second

// streamDriver drives -proto grpc-stream: -conns ScreenTransactionStream streams, each on its
// own HTTP/2 connection, kept open across the warm-up and the measured run. One dispatcher
// goroutine sleeps until each request's due time and sends it on the next stream (round
// robin); one receiver goroutine per stream matches answers to requests by externalId.
type streamDriver struct {
	streams []*screenStream
	cur     atomic.Pointer[streamRun]
	wg      sync.WaitGroup
	closed  sync.Once
}

// screenStream is one open stream.
type screenStream struct {
	mu   sync.Mutex // serialises Send (a stream's Send is not safe for concurrent use)
	st   *connect.BidiStreamForClient[complydv1.ScreenTransactionRequest, complydv1.ScreenTransactionsItem]
	dead atomic.Bool
	err  atomic.Value // string: why the stream ended, if not cleanly
}

func newStreamDriver(ctx context.Context, o options, cred credential) (*streamDriver, error) {
	d := &streamDriver{}
	for range o.conns {
		p := new(http.Protocols)
		p.SetUnencryptedHTTP2(true)
		hc := &http.Client{Transport: &http.Transport{Protocols: p, MaxConnsPerHost: 1}}
		c := complydv1connect.NewTransactionServiceClient(hc, o.url, connect.WithGRPC())
		s := &screenStream{st: c.ScreenTransactionStream(ctx)}
		cred.apply(s.st.RequestHeader())
		if err := s.st.Send(nil); err != nil { // open the connection and the stream now
			return nil, fmt.Errorf("open stream: %w", err)
		}
		d.streams = append(d.streams, s)
		d.wg.Add(1)
		go d.receive(s)
	}
	return d, nil
}

// close ends every stream's send side and waits (10 s at most) for the answers still on
// their way. Idempotent.
func (d *streamDriver) close() {
	d.closed.Do(func() {
		for _, s := range d.streams {
			s.mu.Lock()
			_ = s.st.CloseRequest()
			s.mu.Unlock()
		}
		done := make(chan struct{})
		go func() { d.wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(streamAnswerTimeout):
		}
	})
}

// streamRun is one drive's bookkeeping. Request i (sequence number seq0+i, the suffix of its
// externalId) is due at start + i×interval; the receivers compute that from the answer's
// externalId, so nothing is shared per request but the two atomic slots below.
type streamRun struct {
	start    time.Time
	interval time.Duration
	seq0     int64
	n        int
	state    []atomic.Uint32 // stateNone, then exactly one of the others
	lat      []atomic.Int64  // latency from the due time, ns (ok and duplicate)
	answered atomic.Int64
	done     chan struct{} // closed when all n have an answer
	firstErr atomic.Value  // string
	// firstOther is the first error that is not a refusal (the kind "other"): at 3,000/s the
	// refusals come first by the thousand and would hide it.
	firstOther atomic.Value // string
}

const (
	stateNone uint32 = iota
	stateOK
	stateOKCase // answered with a result that opened an automatic case
	stateDuplicate
	stateError
	stateShed // refused at once by the server's overload protection (SERVICE_UNAVAILABLE)
)

// settle records request i's answer once; a second answer for i is an error of its own.
func (r *streamRun) settle(i int, state uint32, lat time.Duration, errMsg string) {
	if !r.state[i].CompareAndSwap(stateNone, state) {
		r.firstErr.CompareAndSwap(nil, fmt.Sprintf("request %d answered twice", i))
		return
	}
	if state == stateError || state == stateShed {
		r.firstErr.CompareAndSwap(nil, errMsg)
		if state == stateError {
			r.firstOther.CompareAndSwap(nil, errMsg)
		}
	} else {
		r.lat[i].Store(int64(lat))
	}
	if r.answered.Add(1) == int64(r.n) {
		close(r.done)
	}
}

// seqOf is the sequence number an externalId ends with (mix.next names requests run-seq).
func seqOf(externalID string) (int64, bool) {
	seq, err := strconv.ParseInt(externalID[strings.LastIndexByte(externalID, '-')+1:], 10, 64)
	return seq, err == nil
}

// receive matches one stream's answers to the current run's requests until the stream ends.
func (d *streamDriver) receive(s *screenStream) {
	defer d.wg.Done()
	for {
		it, err := s.st.Receive()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.err.Store(err.Error())
			}
			s.dead.Store(true)
			return
		}
		now := time.Now()
		r := d.cur.Load()
		seq, ok := seqOf(it.ExternalId)
		if r == nil || !ok || seq < r.seq0 || seq >= r.seq0+int64(r.n) {
			continue // a late answer of the warm-up
		}
		i := int(seq - r.seq0)
		lat := now.Sub(r.start.Add(time.Duration(i) * r.interval))
		switch {
		case it.Result != nil && it.Result.GetCaseId() != nil:
			r.settle(i, stateOKCase, lat, "")
		case it.Result != nil:
			r.settle(i, stateOK, lat, "")
		case it.Error.GetCode() == "DUPLICATE_EXTERNAL_ID":
			r.settle(i, stateDuplicate, lat, "")
		case it.Error.GetCode() == "SERVICE_UNAVAILABLE":
			r.settle(i, stateShed, 0, fmt.Sprintf("%s: %s: %s", it.ExternalId, it.Error.GetCode(), it.Error.GetMessage()))
		default:
			r.settle(i, stateError, 0, fmt.Sprintf("%s: %s: %s", it.ExternalId, it.Error.GetCode(), it.Error.GetMessage()))
		}
	}
}

// drive issues rate×dur requests on the open-model schedule, as drive does for the unary
// modes: latency runs from the scheduled time, so a send held back by the server's
// backpressure counts against the server.
func (d *streamDriver) drive(o options, mix *mix, dur time.Duration) (*result, error) {
	n := int(float64(o.rate) * dur.Seconds())
	if n == 0 {
		return &result{outcomes: map[string]int64{}, elapsed: time.Nanosecond}, nil
	}
	mix.prepare(n)
	first := mix.next()
	seq0, ok := seqOf(first.ExternalId)
	if !ok {
		return nil, fmt.Errorf("externalId %q does not end with a sequence number", first.ExternalId)
	}
	r := &streamRun{start: time.Now().Add(50 * time.Millisecond), interval: time.Second / time.Duration(o.rate),
		seq0: seq0, n: n, state: make([]atomic.Uint32, n), lat: make([]atomic.Int64, n), done: make(chan struct{})}
	d.cur.Store(r)
	next := 0
	for i := range n {
		req := first
		if i > 0 {
			req = mix.next()
		}
		if w := time.Until(r.start.Add(time.Duration(i) * r.interval)); w > 0 {
			time.Sleep(w)
		}
		if err := d.send(&next, req); err != nil {
			return nil, err
		}
	}
	last := r.start.Add(time.Duration(n-1) * r.interval)
	select {
	case <-r.done:
	case <-time.After(time.Until(last.Add(streamAnswerTimeout))):
	}
	elapsed := time.Since(r.start)
	// Errors by kind as the unary modes count them (errorKind): shed, timeout (no answer
	// streamAnswerTimeout after the due time) and other.
	res := &result{outcomes: map[string]int64{}, elapsed: elapsed, scheduled: n, errorKinds: map[string]int64{}}
	// Each request's latency, whether it was answered and its error's kind, by due order, for
	// the second-by-second timeline the unary modes give too (the stall phase judges it).
	lat, done, kind := make([]time.Duration, n), make([]bool, n), make([]string, n)
	for i := range n {
		switch r.state[i].Load() {
		case stateOK:
			res.outcomes["ok"]++
			lat[i], done[i] = time.Duration(r.lat[i].Load()), true
		case stateOKCase:
			res.outcomes["ok"]++
			lat[i], done[i] = time.Duration(r.lat[i].Load()), true
			res.latCase = append(res.latCase, lat[i])
		case stateDuplicate:
			res.outcomes["duplicate"]++
			lat[i], done[i] = time.Duration(r.lat[i].Load()), true
		case stateShed:
			kind[i] = "shed"
		case stateError:
			kind[i] = "other"
		default:
			kind[i] = "timeout"
		}
		if done[i] {
			res.lat = append(res.lat, lat[i])
		} else {
			res.errors++
			res.errorKinds[kind[i]]++
		}
	}
	if unanswered := res.errorKinds["timeout"]; unanswered > 0 {
		r.firstErr.CompareAndSwap(nil, fmt.Sprintf("%d requests without an answer %s after their due time", unanswered, streamAnswerTimeout))
	}
	res.seconds = timeline(o.rate, lat, done, kind)
	slices.Sort(res.lat)
	slices.Sort(res.latCase)
	if e, ok := r.firstErr.Load().(string); ok {
		fmt.Fprintf(os.Stderr, "first error: %s\n", e)
	}
	if e, ok := r.firstOther.Load().(string); ok && e != r.firstErr.Load() {
		fmt.Fprintf(os.Stderr, "first other error: %s\n", e)
	}
	return res, nil
}

// send sends req on the next live stream after *next; it fails only when every stream has
// ended.
func (d *streamDriver) send(next *int, req *complydv1.ScreenTransactionRequest) error {
	for range d.streams {
		s := d.streams[*next%len(d.streams)]
		*next++
		if s.dead.Load() {
			continue
		}
		s.mu.Lock()
		err := s.st.Send(req)
		s.mu.Unlock()
		if err == nil {
			return nil
		}
		s.dead.Store(true) // the server ended the stream; Receive tells why
	}
	for _, s := range d.streams {
		if e, ok := s.err.Load().(string); ok {
			return fmt.Errorf("every stream has ended: %s", e)
		}
	}
	return errors.New("every stream has ended")
}
