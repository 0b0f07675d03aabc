package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// This file runs real `complyd serve` processes on one database for TestThreeReplicas: the
// binary is built by the test, each replica listens on 127.0.0.1:0 and announces its
// address in its JSON log.

// buildComplyd builds cmd/complyd into the test's temporary directory and returns its path.
func buildComplyd(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "complyd")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/complyd/complyd/cmd/complyd").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// replica is one `complyd serve` process.
type replica struct {
	name string
	base string // http://127.0.0.1:port
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	mu   sync.Mutex
	tail []string // the last lines of its log, for failure messages
}

func (r *replica) logTail() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.tail, "\n")
}

// cluster is the set of replicas of one database; slot i holds the current process of replica i.
type cluster struct {
	t    *testing.T
	bin  string
	env  []string
	mu   sync.Mutex
	reps []*replica
	gen  atomic.Int64
	rr   atomic.Uint64
}

func newCluster(t *testing.T, dbURL string, n int, extraEnv ...string) *cluster {
	t.Helper()
	c := &cluster{t: t, bin: buildComplyd(t)}
	c.env = append(os.Environ(), "DATABASE_URL="+dbURL, "COMPLYD_ADDR=127.0.0.1:0",
		"COMPLYD_JWT_SECRET=replicas-secret-replicas-secret-replicas", "COMPLYD_BLOB_DIR="+t.TempDir(),
		"COMPLYD_MAIL_FROM=complyd@replicas.test", "COMPLYD_WEBHOOK_ALLOW_PRIVATE=true", "COMPLYD_SANCTIONS_REFRESH=off",
		"COMPLYD_DB_MAX_CONNS=12")
	c.env = append(c.env, extraEnv...)
	c.reps = make([]*replica, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { c.reps[i] = c.spawn(i) })
	}
	wg.Wait()
	for i, r := range c.reps {
		require.NotNil(t, r, "replica %d did not start", i)
	}
	t.Cleanup(c.stopAll)
	return c
}

// spawn starts a replica process for slot i and waits for its address (at most 90 s: the
// first start migrates the database).
func (c *cluster) spawn(i int) *replica {
	r := &replica{name: fmt.Sprintf("replica %d (start %d)", i, c.gen.Add(1)), done: make(chan struct{})}
	r.cmd = exec.Command(c.bin, "serve")
	r.cmd.Env = c.env
	// A replica dies with the test process, even when that is killed or crashes.
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		c.t.Errorf("%s: %v", r.name, err)
		return nil
	}
	r.cmd.Stdout = io.Discard
	if err := r.cmd.Start(); err != nil {
		c.t.Errorf("%s: start: %v", r.name, err)
		return nil
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			r.mu.Lock()
			r.tail = append(r.tail, line)
			if len(r.tail) > 30 {
				r.tail = r.tail[1:]
			}
			r.mu.Unlock()
			var rec struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "complyd serving" {
				select {
				case addr <- rec.Addr:
				default:
				}
			}
		}
	}()
	go func() { _ = r.cmd.Wait(); close(r.done) }()
	select {
	case a := <-addr:
		r.base = "http://" + a
		return r
	case <-r.done:
		c.t.Errorf("%s exited before serving:\n%s", r.name, r.logTail())
	case <-time.After(90 * time.Second):
		_ = r.cmd.Process.Kill()
		c.t.Errorf("%s did not serve within 90 s:\n%s", r.name, r.logTail())
	}
	return nil
}

// get returns the current process of slot i.
func (c *cluster) get(i int) *replica {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reps[i]
}

// live returns the replicas whose processes run.
func (c *cluster) live() []*replica {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*replica
	for _, r := range c.reps {
		select {
		case <-r.done:
		default:
			out = append(out, r)
		}
	}
	return out
}

// next returns the live replicas in turn (round robin).
func (c *cluster) next() *replica {
	l := c.live()
	require.NotEmpty(c.t, l, "no replica is running")
	return l[int(c.rr.Add(1))%len(l)]
}

// restart stops slot i gracefully (SIGTERM) and starts a new process in its place.
func (c *cluster) restart(i int) *replica {
	c.t.Helper()
	old := c.get(i)
	_ = old.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-old.done:
	case <-time.After(40 * time.Second):
		_ = old.cmd.Process.Kill()
		c.t.Fatalf("%s did not stop within 40 s of SIGTERM:\n%s", old.name, old.logTail())
	}
	r := c.spawn(i)
	require.NotNil(c.t, r, "replica %d did not restart", i)
	c.mu.Lock()
	c.reps[i] = r
	c.mu.Unlock()
	return r
}

// kill sends SIGKILL to slot i's process and waits for it to be gone.
func (c *cluster) kill(i int) {
	c.t.Helper()
	r := c.get(i)
	require.NoError(c.t, r.cmd.Process.Signal(syscall.SIGKILL))
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		c.t.Fatalf("%s still runs 10 s after SIGKILL", r.name)
	}
}

func (c *cluster) stopAll() {
	for _, r := range c.live() {
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, r := range c.reps {
		select {
		case <-r.done:
		case <-time.After(30 * time.Second):
			_ = r.cmd.Process.Kill()
			<-r.done
		}
	}
}

// ownerOf returns the slot whose process holds the local end of the TCP connection whose
// remote end (as a server sees it, r.RemoteAddr) is remote, or -1. Linux only: it reads the
// socket's inode from /proc/net/tcp and looks for it among each replica's descriptors.
func (c *cluster) ownerOf(remote string) int {
	// The socket tables are read while the sender is live; one read can miss the connection
	// (a replica's fd table scanned while it changes), so look a few times before giving up.
	for range 5 {
		if o := c.ownerOnce(remote); o >= 0 {
			return o
		}
		time.Sleep(20 * time.Millisecond)
	}
	return -1
}

// ownerOnce is one attempt of ownerOf.
func (c *cluster) ownerOnce(remote string) int {
	_, port, err := remotePort(remote)
	if err != nil {
		return -1
	}
	raw, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return -1
	}
	want := fmt.Sprintf(":%04X", port)
	inode := ""
	for _, line := range strings.Split(string(raw), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > 9 && strings.HasSuffix(f[1], want) {
			inode = f[9]
			break
		}
	}
	if inode == "" {
		return -1
	}
	target := "socket:[" + inode + "]"
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, r := range c.reps {
		dir := fmt.Sprintf("/proc/%d/fd", r.cmd.Process.Pid)
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && l == target {
				return i
			}
		}
	}
	return -1
}

func remotePort(a string) (string, int, error) {
	i := strings.LastIndex(a, ":")
	if i < 0 {
		return "", 0, fmt.Errorf("no port in %q", a)
	}
	p, err := strconv.Atoi(a[i+1:])
	return a[:i], p, err
}

// call makes one /api/v1 request and returns the status and body; a transport error (a killed
// replica) is status 0 with the error.
func call(client *http.Client, base, method, path string, c cred, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	c.apply(req.Header)
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, raw, err
}
