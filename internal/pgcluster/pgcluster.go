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
}

// RecommendedSettings are the server settings docs/configuration.md recommends for screening
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
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: bin, settings: settings}
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

// Restart starts the stopped server again on the same port (tests of a database outage).
func (c *Cluster) Restart(ctx context.Context) error {
	data := filepath.Join(c.Dir, "data")
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c max_connections=200", c.Port, c.Dir)
	for _, kv := range c.settings {
		opts += " -c " + kv
	}
	if err := c.run(ctx, "pg_ctl", "-D", data, "-l", filepath.Join(c.Dir, "server.log"), "-w", "-o", opts, "start"); err != nil {
		return fmt.Errorf("pg_ctl start (see %s): %w", filepath.Join(c.Dir, "server.log"), err)
	}
	return nil
}

// Stop stops the server.
func (c *Cluster) Stop() error {
	return c.run(context.Background(), "pg_ctl", "-D", filepath.Join(c.Dir, "data"), "-m", "fast", "-w", "stop")
}

func (c *Cluster) run(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...)
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
