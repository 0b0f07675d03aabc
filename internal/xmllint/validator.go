// Package xmllint validates goAML reports against an XSD with libxml2's xmllint, run as a
// subprocess (docs/guide/reports.md "Validation": why libxml2 and why a subprocess). It implements
// reports.SchemaValidator.
package xmllint

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/reports"
)

// Validator holds the structure-only variants of the deployment's schemas, written once to a
// private directory, and runs xmllint against them.
type Validator struct {
	bin     string
	dir     string
	schemas map[string]string // name → structure-only schema file; "" is the default
	timeout time.Duration
}

// Schema is one schema of the deployment: Name "" is the default.
type Schema struct {
	Name string
	XSD  []byte
}

// New writes the structure-only variant of each schema (reports.StructureOnly) to a new
// temporary directory, checks that xmllint compiles each one, and returns the validator.
// bin is the xmllint binary ("" finds it on PATH). Close removes the directory.
func New(bin string, schemas []Schema) (*Validator, error) {
	if bin == "" {
		p, err := exec.LookPath("xmllint")
		if err != nil {
			return nil, errors.New("xmllint is not installed (Debian: apt-get install libxml2-utils)")
		}
		bin = p
	}
	dir, err := os.MkdirTemp("", "complyd-goaml-")
	if err != nil {
		return nil, err
	}
	v := &Validator{bin: bin, dir: dir, schemas: map[string]string{}, timeout: 30 * time.Second}
	for i, s := range schemas {
		f := filepath.Join(dir, fmt.Sprintf("schema-%d.xsd", i))
		if err := os.WriteFile(f, reports.StructureOnly(s.XSD), 0o600); err != nil {
			v.Close()
			return nil, err
		}
		v.schemas[s.Name] = f
		// An empty report compiles the schema: a schema error (exit 4 or 5) is the schema's.
		if _, err := v.run(context.Background(), f, []byte("<report/>")); err != nil {
			v.Close()
			return nil, fmt.Errorf("goAML schema %q: %w", s.Name, err)
		}
	}
	if _, ok := v.schemas[""]; !ok {
		v.Close()
		return nil, errors.New("no default goAML schema")
	}
	return v, nil
}

// Close removes the schema files.
func (v *Validator) Close() error { return os.RemoveAll(v.dir) }

// Has implements reports.SchemaValidator.
func (v *Validator) Has(name string) bool { _, ok := v.schemas[name]; return ok }

// Validate implements reports.SchemaValidator.
func (v *Validator) Validate(ctx context.Context, name string, doc []byte) ([]reports.SchemaProblem, error) {
	f, ok := v.schemas[name]
	if !ok {
		return nil, fmt.Errorf("no goAML schema %q", name)
	}
	return v.run(ctx, f, doc)
}

// problemLine is one error xmllint writes for a document read from stdin ("-").
var problemLine = regexp.MustCompile(`^-:(\d+): (?:element (\S+): )?(.*)$`)

// run validates doc against schema file f. xmllint exits 0 when the document is valid and 3
// when it is not (its errors on stderr); any other exit is a failure to validate. --nonet
// forbids any network access (a schema's imports, a DTD); no entity is substituted (no
// --noent) and no DTD is loaded (no --loaddtd), so the document cannot pull in a file.
func (v *Validator) run(ctx context.Context, f string, doc []byte) ([]reports.SchemaProblem, error) {
	ctx, cancel := context.WithTimeout(ctx, v.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, v.bin, "--noout", "--nonet", "--schema", f, "-")
	cmd.Stdin = bytes.NewReader(doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = []string{} // nothing of complyd's environment reaches the subprocess
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil, nil
	case errors.As(err, &exit) && exit.ExitCode() == 3:
	default:
		return nil, fmt.Errorf("xmllint: %v: %s", err, strings.TrimSpace(firstLines(stderr.String(), 5)))
	}
	var out []reports.SchemaProblem
	sc := bufio.NewScanner(&stderr)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		m := problemLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue // the closing "- fails to validate" and continuation lines
		}
		line, _ := strconv.Atoi(m[1])
		msg := strings.TrimPrefix(m[3], "Schemas validity error : ")
		out = append(out, reports.SchemaProblem{Line: line, Element: m[2], Message: msg})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("xmllint found the document invalid but named no problem: %s", firstLines(stderr.String(), 5))
	}
	return out, nil
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
