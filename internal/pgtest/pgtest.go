// Package pgtest gives tests a real PostgreSQL: each test package gets its own database, cloned
// from a template migrated once per migration set, against the server at
// COMPLYD_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), or a private
// cluster started from the installed PostgreSQL binaries when no server answers. Tests isolate
// themselves by creating their own tenant (see the factories).
//
// pgtest is test-only; it may import internal/postgres (docs/design/style.md's exception).
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/pgcluster"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/migrations"
)

var (
	once  sync.Once
	setup error
	dbURL string // admin URL of this package's database
	// serverURL and templateName are set by start for Fresh.
	serverURL    string
	templateName string
	shared       *postgres.DB
	cleanup      []func()
)

// CredentialsKey is the sealing key of test databases' application handles.
var CredentialsKey = []byte("complyd-test-credentials-key-32b")

// Main runs the package's tests, then drops the package's database. Use it as
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	for i := len(cleanup) - 1; i >= 0; i-- {
		cleanup[i]()
	}
	os.Exit(code)
}

// DB returns the shared application handle (role complyd_app, under RLS) of this package's
// database, creating and migrating it on first use.
func DB(t testing.TB) *postgres.DB {
	t.Helper()
	once.Do(func() { setup = start() })
	if setup != nil {
		t.Fatalf("pgtest: %v", setup)
	}
	return shared
}

// URL returns the admin connection string of this package's database (the migrating user,
// which RLS does not restrict when it is a superuser).
func URL(t testing.TB) string {
	DB(t)
	return dbURL
}

func start() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	server := os.Getenv("COMPLYD_TEST_DATABASE_URL")
	if server == "" {
		server = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	admin, err := connect(ctx, server)
	if err != nil {
		if os.Getenv("COMPLYD_TEST_DATABASE_URL") != "" {
			return fmt.Errorf("connect %s: %w", server, err)
		}
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("complyd-pgtest-%d", os.Getpid()))
		cl, cerr := pgcluster.Start(ctx, dir)
		if cerr != nil {
			return fmt.Errorf("no PostgreSQL at %s (%v) and no private cluster: %w", server, err, cerr)
		}
		cleanup = append(cleanup, func() { _ = cl.Stop(); _ = os.RemoveAll(dir) })
		server = cl.URL()
		if admin, err = connect(ctx, server); err != nil {
			return err
		}
	}
	defer admin.Close(context.Background())
	tmpl, err := template(ctx, admin, server)
	if err != nil {
		return err
	}
	serverURL, templateName = server, tmpl
	name := "complyd_t_" + randHex(6)
	if _, err := admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tmpl)); err != nil {
		return fmt.Errorf("clone template: %w", err)
	}
	dbURL = withDatabase(server, name)
	cleanup = append(cleanup, func() {
		if shared != nil {
			shared.Close()
		}
		c, err := connect(context.Background(), server)
		if err == nil {
			_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			_ = c.Close(context.Background())
		}
	})
	shared, err = postgres.Open(ctx, dbURL, postgres.Options{MaxConns: 20, Logger: slog.New(slog.DiscardHandler), CredentialsKey: CredentialsKey})
	return err
}

// template returns the name of a database migrated with the current migrations, creating it
// under an advisory lock so that parallel test packages build it once.
func template(ctx context.Context, admin *pgx.Conn, server string) (string, error) {
	h := sha256.New()
	_ = fs.WalkDir(migrations.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(migrations.FS, p)
			h.Write([]byte(p))
			h.Write(b)
		}
		return nil
	})
	name := "complyd_tmpl_" + hex.EncodeToString(h.Sum(nil))[:16]
	if _, err := admin.Exec(ctx, "select pg_advisory_lock(7243002)"); err != nil {
		return "", err
	}
	defer admin.Exec(context.Background(), "select pg_advisory_unlock(7243002)") //nolint:errcheck
	var exists bool
	if err := admin.QueryRow(ctx, "select exists(select 1 from pg_database where datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	building := name + "_building"
	_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)")
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return "", fmt.Errorf("create template: %w", err)
	}
	if err := postgres.Migrate(ctx, withDatabase(server, building), slog.New(slog.DiscardHandler)); err != nil {
		return "", fmt.Errorf("migrate template: %w", err)
	}
	if _, err := admin.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", building, name)); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, fmt.Sprintf("COMMENT ON DATABASE %s IS 'complyd test template %d'", name, time.Now().Unix())); err != nil {
		return "", err
	}
	// Drop templates of older migration sets once they are a day old: other checkouts on the same
	// server (other branches, CI) may still be using a younger one.
	rows, err := admin.Query(ctx, `select d.datname, coalesce(shobj_description(d.oid, 'pg_database'), '') from pg_database d
		where d.datname like 'complyd_tmpl_%' and d.datname <> $1`, name)
	if err == nil {
		type tmpl struct {
			Name, Comment string
		}
		olds, _ := pgx.CollectRows(rows, pgx.RowToStructByPos[tmpl])
		for _, o := range olds {
			var ts int64
			if _, err := fmt.Sscanf(o.Comment, "complyd test template %d", &ts); err == nil && time.Since(time.Unix(ts, 0)) > 24*time.Hour {
				_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+o.Name+" WITH (FORCE)")
			}
		}
	}
	return name, nil
}

func connect(ctx context.Context, url string) (*pgx.Conn, error) {
	cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	return pgx.Connect(cctx, url)
}

func withDatabase(server, name string) string {
	u, err := url.Parse(server)
	if err != nil {
		return server
	}
	u.Path = "/" + name
	return u.String()
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Fresh returns a database of its own for one test, cloned from the migrated template and dropped
// at cleanup, with its application handle and admin URL. Tests that start River workers use it:
// a running River client works every job of its database, so workers of parallel tests must not
// share one.
func Fresh(t testing.TB) (*postgres.DB, string) {
	t.Helper()
	DB(t)
	ctx := context.Background()
	admin, err := connect(ctx, serverURL)
	if err != nil {
		t.Fatalf("pgtest.Fresh: %v", err)
	}
	defer admin.Close(ctx)
	name := "complyd_f_" + randHex(6)
	if _, err := admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, templateName)); err != nil {
		t.Fatalf("pgtest.Fresh: clone: %v", err)
	}
	url := withDatabase(serverURL, name)
	db, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 10, Logger: slog.New(slog.DiscardHandler), CredentialsKey: CredentialsKey})
	if err != nil {
		t.Fatalf("pgtest.Fresh: open: %v", err)
	}
	t.Cleanup(func() {
		db.Close()
		c, err := connect(context.Background(), serverURL)
		if err == nil {
			_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			_ = c.Close(context.Background())
		}
	})
	return db, url
}

// Empty returns the admin URL of an empty database of its own for one test, dropped at cleanup:
// for tests of the migrations themselves, which start from an older schema.
func Empty(t testing.TB) string {
	t.Helper()
	DB(t)
	ctx := context.Background()
	admin, err := connect(ctx, serverURL)
	if err != nil {
		t.Fatalf("pgtest.Empty: %v", err)
	}
	defer admin.Close(ctx)
	name := "complyd_e_" + randHex(6)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest.Empty: create: %v", err)
	}
	t.Cleanup(func() {
		c, err := connect(context.Background(), serverURL)
		if err == nil {
			_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			_ = c.Close(context.Background())
		}
	})
	return withDatabase(serverURL, name)
}
