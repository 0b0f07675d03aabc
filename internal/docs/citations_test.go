package docs

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// mdCitation matches a cited Markdown file: a path of letters, digits, dots, dashes,
// underscores and slashes that ends in .md and is not part of a longer name.
var mdCitation = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./:-])((?:\.{1,2}/|/)?(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.md)(?:[^A-Za-z0-9_-]|$)`)

// scanned are the kinds of file whose comments and text may cite a page.
var scanned = map[string]bool{".go": true, ".proto": true, ".ts": true, ".tsx": true, ".md": true, ".sql": true}

// skipped are the directories never read: dependencies, build output and test reports.
var skipped = map[string]bool{"node_modules": true, "dist": true, "test-results": true, "playwright-report": true}

// ignoreMark on a line says that the .md names on it are not citations (a test that forbids the
// old names, for example).
const ignoreMark = "cite:" + "ignore"

// selfPath is this file, whose made-up citations (TestResolves) are not the repository's.
var selfPath = filepath.FromSlash("internal/docs/citations_test.go")

// citation is one cited Markdown path and where it stands.
type citation struct {
	file  string // the citing file, relative to the repository root
	line  int
	cited string
}

// repoRoot is the repository's top directory (the one with go.mod), two levels up.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "the repository root has go.mod")
	return root
}

// scan returns the citations in every scanned file under root and the base names of the
// Markdown files there.
func scan(t *testing.T, root string) ([]citation, map[string]bool) {
	t.Helper()
	var out []citation
	names := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (skipped[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(p) == ".md" {
			names[d.Name()] = true
		}
		if !scanned[filepath.Ext(p)] {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if strings.Contains(line, ignoreMark) || rel == selfPath {
				continue
			}
			for _, m := range mdCitation.FindAllStringSubmatchIndex(line, -1) {
				if isAddress(line, m[2]) {
					continue
				}
				out = append(out, citation{file: filepath.ToSlash(rel), line: n, cited: line[m[2]:m[3]]})
			}
		}
		return sc.Err()
	})
	require.NoError(t, err)
	return out, names
}

// isAddress reports whether the path starting at start is part of a URL (https://host/x.md).
func isAddress(line string, start int) bool {
	i := strings.LastIndex(line[:start], "://")
	return i >= 0 && !strings.ContainsAny(line[i:start], " \t\"'`(<")
}

// resolves reports whether c names an existing file: a path relative to the citing file or to
// the repository root; a bare name ("specification.md") names a page of the repository by its
// file name.
func resolves(root string, c citation, names map[string]bool) bool {
	p := strings.TrimPrefix(c.cited, "./")
	if !strings.Contains(p, "/") && names[p] {
		return true
	}
	for _, cand := range []string{
		filepath.Join(root, filepath.Dir(filepath.FromSlash(c.file)), filepath.FromSlash(p)),
		filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(p, "/"))),
	} {
		if !strings.HasPrefix(cand, root+string(filepath.Separator)) {
			continue // a path that leaves the repository never resolves
		}
		if st, err := os.Stat(cand); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

// TestCitationsResolve fails when a comment or a page cites a Markdown file that is not in the
// repository (issue 51: 297 comments cited decisions.md and service-spec.md, pages that lived
// outside it).
func TestCitationsResolve(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	cites, names := scan(t, root)
	require.Greater(t, len(cites), 100, "the scan finds the repository's citations")
	var broken []string
	for _, c := range cites {
		if !resolves(root, c, names) {
			broken = append(broken, c.file+":"+strconv.Itoa(c.line)+": "+c.cited)
		}
	}
	sort.Strings(broken)
	require.Empty(t, broken, "citations of Markdown files that do not exist in the repository")
}

// TestResolves pins the resolution rules on made-up citations, so that the check above cannot
// pass by resolving everything.
func TestResolves(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	_, names := scan(t, root)
	for _, tc := range []struct {
		file, cited string
		want        bool
	}{
		{"internal/app/x.go", "docs/reference/specification.md", true},
		{"docs/guide/kyc.md", "../reference/specification.md", true},
		{"docs/guide/kyc.md", "./kyb.md", true},
		{"docs/guide/kyc.md", "kyb.md", true},
		{"internal/app/x.go", "specification.md", true},
		{"internal/app/x.go", "decisions.md", false},
		{"internal/app/x.go", "service-spec.md", false},
		{"internal/app/x.go", "docs/specification.md", false},
		{"docs/guide/kyc.md", "../../../shared/spec/decisions.md", false},
		{"docs/guide/kyc.md", "guide/kyb.md", false},
	} {
		require.Equal(t, tc.want, resolves(root, citation{file: tc.file, cited: tc.cited}, names), "%s in %s", tc.cited, tc.file)
	}
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"// see decisions.md §5 and docs/guide/kyc.md.", []string{"decisions.md", "docs/guide/kyc.md"}},
		{"[x](../reference/api-reference.md#paging)", []string{"../reference/api-reference.md"}},
		{"https://github.com/o/r/blob/main/README.md", nil},
		{"readme.mdx and x.md5", nil},
	} {
		var got []string
		for _, m := range mdCitation.FindAllStringSubmatchIndex(tc.line, -1) {
			if !isAddress(tc.line, m[2]) {
				got = append(got, tc.line[m[2]:m[3]])
			}
		}
		require.Equal(t, tc.want, got, tc.line)
	}
}
