//go:build ignore

// import-graph reports, inside each Go package named on the command line, which file uses
// identifiers declared in which other file of the same package, and the cycles between files
// (docs/design/architecture.md "File graph of the storage adapter").
//
//	go run scripts/import-graph.go [-v] [-max N] ./internal/postgres ./internal/screenstore ...
//
// A directory argument ending in /... takes every package below it. Test files and generated files
// are left out. The package is type-checked from its own source only (imports resolve to empty
// packages and their errors are ignored): every identifier the package declares still resolves,
// which is all an edge between two of its files needs.
//
// For each package it prints the number of files and of file→file edges, then:
//   - mutual pairs: two files each using something declared in the other (A→B and B→A);
//   - back-arrows: edges that lie on a cycle, i.e. A→B where B also reaches A (the edges inside
//     the strongly connected components of the file graph); an acyclic package has none;
//   - the strongly connected components of more than one file.
//
// With -max N it exits 1 when a package has more than N back-arrows (for CI).
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	verbose := flag.Bool("v", false, "list every edge on a cycle")
	maxBack := flag.Int("max", -1, "exit 1 when a package has more back-arrows than this (-1: no limit)")
	flag.Parse()
	var dirs []string
	for _, a := range flag.Args() {
		if root, ok := strings.CutSuffix(a, "/..."); ok {
			_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					dirs = append(dirs, p)
				}
				return nil
			})
			continue
		}
		dirs = append(dirs, a)
	}
	fail := false
	for _, d := range dirs {
		r, ok := analyse(d)
		if !ok {
			continue
		}
		r.print(*verbose)
		if *maxBack >= 0 && r.back > *maxBack {
			fail = true
		}
	}
	if fail {
		os.Exit(1)
	}
}

type report struct {
	dir     string
	files   []string
	lines   int
	edges   map[[2]string]bool
	mutual  [][2]string
	back    int
	onCycle [][2]string
	sccs    [][]string
}

type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	p := types.NewPackage(path, filepath.Base(path))
	p.MarkComplete()
	return p, nil
}

func analyse(dir string) (report, bool) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return report{}, false
	}
	var files []*ast.File
	r := report{dir: dir, edges: map[[2]string]bool{}}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return report{}, false
		}
		if ast.IsGenerated(f) || f.Name.Name == "main" && hasIgnoreTag(f) {
			continue
		}
		files = append(files, f)
		r.files = append(r.files, n)
		r.lines += fset.File(f.Pos()).LineCount()
	}
	if len(files) == 0 {
		return report{}, false
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check(dir, fset, files, info)
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		// Only package-level declarations, methods and struct fields: a local variable never
		// crosses a file.
		if obj.Parent() != pkg.Scope() {
			switch o := obj.(type) {
			case *types.Func:
			case *types.Var:
				if !o.IsField() {
					continue
				}
			default:
				continue
			}
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from != to {
			r.edges[[2]string{from, to}] = true
		}
	}
	r.cycles()
	return r, true
}

func hasIgnoreTag(f *ast.File) bool {
	for _, c := range f.Comments {
		if strings.Contains(c.Text(), "go:build ignore") {
			return true
		}
	}
	return false
}

// cycles fills mutual, sccs and back (Tarjan's algorithm over the file graph).
func (r *report) cycles() {
	adj := map[string][]string{}
	for e := range r.edges {
		adj[e[0]] = append(adj[e[0]], e[1])
		if e[0] < e[1] && r.edges[[2]string{e[1], e[0]}] {
			r.mutual = append(r.mutual, e)
		}
	}
	sort.Slice(r.mutual, func(i, j int) bool { return r.mutual[i][0]+r.mutual[i][1] < r.mutual[j][0]+r.mutual[j][1] })
	index, low, on := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	comp := map[string]int{}
	n := 0
	var strong func(v string)
	strong = func(v string) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range adj[v] {
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = len(r.sccs)
				c = append(c, w)
				if w == v {
					break
				}
			}
			sort.Strings(c)
			r.sccs = append(r.sccs, c)
		}
	}
	for _, f := range r.files {
		if _, seen := index[f]; !seen {
			strong(f)
		}
	}
	for e := range r.edges {
		if comp[e[0]] == comp[e[1]] {
			r.back++
			r.onCycle = append(r.onCycle, e)
		}
	}
	sort.Slice(r.onCycle, func(i, j int) bool { return r.onCycle[i][0]+r.onCycle[i][1] < r.onCycle[j][0]+r.onCycle[j][1] })
	big := r.sccs[:0]
	for _, c := range r.sccs {
		if len(c) > 1 {
			big = append(big, c)
		}
	}
	r.sccs = big
}

func (r report) print(verbose bool) {
	fmt.Printf("%s: %d files, %d lines, %d file→file edges, %d mutual pairs, %d back-arrows (edges on a cycle), %d cyclic groups\n",
		r.dir, len(r.files), r.lines, len(r.edges), len(r.mutual), r.back, len(r.sccs))
	for _, m := range r.mutual {
		fmt.Printf("  mutual: %s <-> %s\n", m[0], m[1])
	}
	for _, c := range r.sccs {
		fmt.Printf("  cycle group (%d files): %s\n", len(c), strings.Join(c, " "))
	}
	if verbose {
		for _, e := range r.onCycle {
			fmt.Printf("  on a cycle: %s -> %s\n", e[0], e[1])
		}
	}
}
