// Package pgcluster starts a private PostgreSQL cluster from the PostgreSQL binaries installed on
// the machine (initdb, pg_ctl). `complyd dev` uses it for its embedded default database, and
// internal/pgtest when no server answers. As root, the cluster runs as the `postgres` user,
// because initdb refuses to run as root.
//
// pgcluster imports only the standard library.
package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrNoBinaries is returned when initdb and pg_ctl cannot be found.
var ErrNoBinaries = errors.New("PostgreSQL server binaries (initdb, pg_ctl) not found: install them, for example " +
	"`apt-get install postgresql` on Debian/Ubuntu or `brew install postgresql@15` on macOS, or set DATABASE_URL")

// Cluster is a running private cluster.
type Cluster struct {
	Dir  string
	Port int
	bin  string
	cred *syscall.Credential
	// settings are extra server settings (name=value), passed as -c at every start.
	settings []string
	// progress, when set, hears how a slow start is going (a crash recovery replaying WAL).
	progress func(string)
}

// ProgressEvery is how often a start that is still waiting for the server reports progress.
const ProgressEvery = 10 * time.Second

// RecommendedSettings are the server settings docs/reference/configuration.md recommends for screening
// (issue 15 point 4): fewer checkpoints, so fewer full-page images of the random-key indexes
// in the WAL, and those compressed; and new WAL segments not zero-filled, which under load
// held every commit back for tens of milliseconds each time one was created. `complyd dev`
// starts its own cluster with them.
var RecommendedSettings = []string{"shared_buffers=1GB", "max_wal_size=8GB", "checkpoint_timeout=15min", "wal_compression=lz4",
	"wal_init_zero=off"}

// URL is the connection string of the cluster's postgres database.
func (c *Cluster) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.Port)
}

// Start initialises dir (if empty) and starts a server on a free loopback port, with settings
// (name=value, such as RecommendedSettings) on top of initdb's defaults.
func Start(ctx context.Context, dir string, settings ...string) (*Cluster, error) {
	return StartWithProgress(ctx, dir, nil, settings...)
}

// StartWithProgress is Start that reports, every ProgressEvery while the server is not yet
// accepting connections, how long it has waited and the server log's last line (`complyd dev`
// logs them: a crash recovery can take minutes, and it waits for as long as ctx lasts).
func StartWithProgress(ctx context.Context, dir string, progress func(string), settings ...string) (*Cluster, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: bin, settings: settings, progress: progress}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root needs a 'postgres' user to own the cluster: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create cluster dir: %w", err)
	}
	if c.cred != nil {
		if err := chownR(dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if _, err := os.Stat(filepath.Join(data, "PG_VERSION")); err != nil {
		if err := c.run(ctx, "initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
			return nil, fmt.Errorf("initdb: %w", err)
		}
	}
	c.Port, err = freePort()
	if err != nil {
		return nil, err
	}
	_ = c.run(ctx, "pg_ctl", "-D", data, "-m", "immediate", "-w", "stop") // a stale server from a crash
	if err := c.Restart(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Restart starts the stopped server again on the same port (tests of a database outage) and
// waits until it accepts connections, for as long as ctx lasts: `pg_ctl -w` gives up after a
// fixed 60 s, and a server replaying WAL after a crash can need longer (issue 48 point 7e), so
// the server is started without pg_ctl's wait and its readiness polled with pg_isready while
// its process is alive. When ctx ends first (a SIGTERM or SIGINT of `complyd dev`), or the
// server exits, the server is stopped before the error is returned: nothing is left running.
func (c *Cluster) Restart(ctx context.Context) error {
	data := filepath.Join(c.Dir, "data")
	logPath := filepath.Join(c.Dir, "server.log")
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c max_connections=200", c.Port, c.Dir)
	for _, kv := range c.settings {
		opts += " -c " + kv
	}
	if err := c.run(ctx, "pg_ctl", "-D", data, "-l", logPath, "-W", "-o", opts, "start"); err != nil {
		return fmt.Errorf("pg_ctl start (see %s): %w", logPath, err)
	}
	if err := c.waitAccepting(ctx, logPath); err != nil {
		_ = c.Stop()
		return fmt.Errorf("start PostgreSQL (see %s): %w", logPath, err)
	}
	return nil
}

// waitAccepting polls pg_isready until the server accepts connections; it fails when the
// server process is gone (pg_ctl status) or ctx ends.
func (c *Cluster) waitAccepting(ctx context.Context, logPath string) error {
	start, next := time.Now(), time.Now().Add(ProgressEvery)
	var gone time.Time // since when pg_ctl status has said no server (it writes its pid file a moment after the fork)
	for {
		// pg_isready: 0 accepting, 1 rejecting (starting up, recovering), 2 no answer yet.
		if c.accepting(ctx) {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		switch err := c.run(ctx, "pg_ctl", "-D", filepath.Join(c.Dir, "data"), "status"); {
		case err == nil:
			gone = time.Time{}
		case ctx.Err() != nil:
		case gone.IsZero():
			gone = time.Now()
		case time.Since(gone) > 3*time.Second:
			return fmt.Errorf("the server exited while starting: %s", lastLine(logPath))
		}
		if c.progress != nil && time.Now().After(next) {
			c.progress(fmt.Sprintf("PostgreSQL still starting after %s (crash recovery?): %s", time.Since(start).Round(time.Second), lastLine(logPath)))
			next = time.Now().Add(ProgressEvery)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// accepting runs pg_isready (found next to pg_ctl, on PATH or in Debian's versioned directories:
// an installation may wrap initdb and pg_ctl without it); without one, a TCP connection is
// taken as readiness, as WaitReady does.
func (c *Cluster) accepting(ctx context.Context) bool {
	isready := filepath.Join(c.bin, "pg_isready")
	if _, err := os.Stat(isready); err != nil {
		isready = ""
		if p, err := exec.LookPath("pg_isready"); err == nil {
			isready = p
		} else if m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_isready"); len(m) > 0 {
			sort.Sort(sort.Reverse(sort.StringSlice(m)))
			isready = m[0]
		}
	}
	if isready == "" {
		conn, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(c.Port), time.Second)
		if err == nil {
			_ = conn.Close()
		}
		return err == nil
	}
	cmd := exec.CommandContext(ctx, isready, "-q", "-h", "127.0.0.1", "-p", strconv.Itoa(c.Port))
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	return cmd.Run() == nil
}

// lastLine returns the server log's last non-empty line ("" when unreadable).
func lastLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// Running reports whether the cluster's server process is alive (pg_ctl status).
func (c *Cluster) Running() bool {
	return c.run(context.Background(), "pg_ctl", "-D", filepath.Join(c.Dir, "data"), "status") == nil
}

// Stop stops the server.
func (c *Cluster) Stop() error {
	return c.run(context.Background(), "pg_ctl", "-D", filepath.Join(c.Dir, "data"), "-m", "fast", "-w", "stop")
}

func (c *Cluster) run(ctx context.Context, name string, args ...string) error {
	return c.runPath(ctx, filepath.Join(c.bin, name), args...)
}

// tool finds a PostgreSQL program other than initdb and pg_ctl: next to them, next to what
// they link to (/usr/local/bin may hold links to a few of Debian's versioned binaries only),
// on PATH, or in Debian's versioned directories.
func (c *Cluster) tool(name string) (string, error) {
	if p := filepath.Join(c.bin, name); fileExists(p) {
		return p, nil
	}
	if real, err := filepath.EvalSymlinks(filepath.Join(c.bin, "initdb")); err == nil {
		if p := filepath.Join(filepath.Dir(real), name); fileExists(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	if m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name); len(m) > 0 {
		sort.Sort(sort.Reverse(sort.StringSlice(m)))
		return m[0], nil
	}
	return "", fmt.Errorf("%s not found next to initdb (%s), on PATH or in /usr/lib/postgresql", name, c.bin)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func (c *Cluster) runPath(ctx context.Context, path string, args ...string) error {
	name := filepath.Base(path)
	cmd := exec.CommandContext(ctx, path, args...)
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", name, err, out)
	}
	return nil
}

func findBin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	for _, d := range append(dirs, "/usr/local/pgsql/bin", "/opt/homebrew/bin", "/usr/local/bin") {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", ErrNoBinaries
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func chownR(dir string, uid, gid int) error {
	return filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

// WaitReady polls until the server accepts TCP connections or ctx ends.
func (c *Cluster) WaitReady(ctx context.Context) error {
	for {
		conn, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(c.Port), time.Second)
		if err == nil {
			return conn.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// StartStandby makes a streaming replica of primary in dir: pg_basebackup over the replication
// protocol with -R (standby.signal and primary_conninfo written for it), then a start on a free
// loopback port with settings. The primary must allow replication connections from loopback,
// as initdb's trust configuration and PostgreSQL's default wal_level (replica) do. Tests of
// the read replica (docs/guide/read-replica.md) start one; Stop and Restart work as for a primary.
func StartStandby(ctx context.Context, dir string, primary *Cluster, settings ...string) (*Cluster, error) {
	c := &Cluster{Dir: dir, bin: primary.bin, cred: primary.cred, settings: settings}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create standby dir: %w", err)
	}
	if c.cred != nil {
		if err := chownR(dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			return nil, err
		}
	}
	basebackup, err := c.tool("pg_basebackup")
	if err != nil {
		return nil, err
	}
	if err := c.runPath(ctx, basebackup, "-D", filepath.Join(dir, "data"), "-h", "127.0.0.1", "-p", strconv.Itoa(primary.Port),
		"-U", "postgres", "-X", "stream", "-R", "--no-sync", "-c", "fast"); err != nil {
		return nil, fmt.Errorf("pg_basebackup: %w", err)
	}
	if c.Port, err = freePort(); err != nil {
		return nil, err
	}
	if err := c.Restart(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Kill stops the server at once, without a shutdown checkpoint (pg_ctl stop -m immediate): what
// a crash or a lost host looks like to the clients, whose connections break.
func (c *Cluster) Kill() error {
	return c.run(context.Background(), "pg_ctl", "-D", filepath.Join(c.Dir, "data"), "-m", "immediate", "-w", "stop")
}
