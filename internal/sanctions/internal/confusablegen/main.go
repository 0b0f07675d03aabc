// Command confusablegen writes internal/sanctions/confusables_table.go, the
// table of letters that look like ASCII Latin letters, from Unicode's own
// confusables.txt (Unicode Technical Standard #39, version 15.0.0), kept
// beside it gzipped so that the build never needs the network.
//
// Run it with `go generate ./internal/sanctions` (sanctions/lookalike.go
// holds the directive). To move to another Unicode version, put that
// version's confusables.txt here gzipped (`gzip -9n`), change source and
// sourceSHA256 below, and regenerate; docs/design/sanctions-matcher.md says where
// the file came from.
//
// What the table holds, and why so little of the file: confusables.txt maps
// every character to the prototype of its class of lookalikes (its
// skeleton). The matcher compares Latin names, so it wants, for a letter of
// another script or an unusual Latin letter, the ASCII letter that a reader
// would take it for: Cyrillic а → a, Greek ο → o, Armenian օ → o, Latin
// small capital ᴋ → k. For a letter whose prototype is also the prototype
// of one or more ASCII letters, that is the ASCII letter of the same case
// (Cyrillic І shares the prototype l with Latin I and l: capital І is I,
// small ӏ is l); a prototype that is a sequence of such prototypes maps to
// the letters in turn (Cyrillic м's prototype "rn" is m's, so м is m; ӕ is
// ae). Combining marks are dropped from prototypes (the matcher drops them
// from names). Characters that the compatibility decomposition (NFKD) already
// turns into something else are left out: the matcher decomposes first
// (fullwidth Ｖ and mathematical 𝐕 are V before this table is consulted), and
// so are characters that are not letters (digits and symbols: the matcher
// reads digits inside words as leet, lookalike.go).
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/format"
	"log"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

const (
	source = "internal/confusablegen/confusables-15.0.0.txt.gz"
	// sourceSHA256 is the checksum of the uncompressed file, as Unicode
	// publishes it (Date: 2022-08-26, 16:49:08 GMT; Version: 15.0.0), taken
	// from ICU 72.1's source (icu4c/source/data/unidata), Debian bookworm's
	// icu 72.1-3+deb12u1 source package.
	sourceSHA256 = "2b10130885c3370b101c52d7baedc452ab7f0e257b86c1e52ee657ecfc29ce64"
	// names is UnicodeData.txt 15.0.0 (Debian bookworm's unicode-data
	// 15.0.0-1, /usr/share/unicode/UnicodeData.txt), for the letters' names.
	names       = "internal/confusablegen/UnicodeData-15.0.0.txt.gz"
	namesSHA256 = "806e9aed65037197f1ec85e12be6e8cd870fc5608b4de0fffd990f689f376a73"
	output      = "confusables_table.go"
	version     = "15.0.0"
)

func main() {
	raw, err := readSource(source, sourceSHA256)
	if err != nil {
		log.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("# Version: "+version)) {
		log.Fatalf("%s: not version %s", source, version)
	}
	proto, err := parse(raw)
	if err != nil {
		log.Fatal(err)
	}
	ud, err := readSource(names, namesSHA256)
	if err != nil {
		log.Fatal(err)
	}
	table := build(proto, latinNameLetters(ud))
	src, err := render(table)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(output, src, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d letters from confusables.txt %s", output, len(table), version)
}

func readSource(path, want string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(zr); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	sum := sha256.Sum256(b.Bytes())
	if got := hex.EncodeToString(sum[:]); got != want {
		return nil, fmt.Errorf("%s: sha256 %s, want %s", path, got, want)
	}
	return b.Bytes(), nil
}

// parse reads the lines `source ; target ; MA # comment` into a map from the
// source character to its prototype.
func parse(raw []byte) (map[rune]string, error) {
	proto := map[rune]string{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimPrefix(line, "\ufeff")
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, ";")
		if len(f) < 3 {
			return nil, fmt.Errorf("line %d: %q", n, sc.Text())
		}
		src, err := codePoints(f[0])
		if err != nil || len(src) != 1 {
			return nil, fmt.Errorf("line %d: source %q", n, f[0])
		}
		dst, err := codePoints(f[1])
		if err != nil {
			return nil, fmt.Errorf("line %d: target %q", n, f[1])
		}
		proto[src[0]] = string(dst)
	}
	return proto, sc.Err()
}

func codePoints(s string) ([]rune, error) {
	var out []rune
	for _, h := range strings.Fields(s) {
		v, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return nil, err
		}
		out = append(out, rune(v))
	}
	return out, nil
}

// latinNameLetters returns the Latin letters whose Unicode name says which
// ASCII letter they are a form of and that NFKD does not decompose: LATIN
// LETTER SMALL CAPITAL X, LATIN SMALL/CAPITAL LETTER X WITH (a stroke, a
// hook, a bar, …), LATIN SMALL LETTER DOTLESS I/J. confusables.txt gives some
// of them another letter as prototype (small capital ᴛ for Cyrillic т,
// kra ĸ for small capital ᴋ): the name says what a reader takes them for.
func latinNameLetters(ud []byte) map[rune]rune {
	out := map[rune]rune{}
	sc := bufio.NewScanner(bytes.NewReader(ud))
	for sc.Scan() {
		f := strings.Split(sc.Text(), ";")
		if len(f) < 3 || !strings.HasPrefix(f[2], "L") {
			continue
		}
		v, err := strconv.ParseUint(f[0], 16, 32)
		if err != nil {
			continue
		}
		r, name := rune(v), f[1]
		if r < 0x80 || norm.NFKD.String(string(r)) != string(r) {
			continue
		}
		var rest string
		for _, p := range []string{"LATIN LETTER SMALL CAPITAL ", "LATIN SMALL LETTER DOTLESS ", "LATIN SMALL LETTER ", "LATIN CAPITAL LETTER "} {
			if t, ok := strings.CutPrefix(name, p); ok {
				rest = t
				if p == "LATIN LETTER SMALL CAPITAL " || p == "LATIN SMALL LETTER DOTLESS " {
					rest += " WITH"
				}
				break
			}
		}
		if len(rest) >= 6 && rest[0] >= 'A' && rest[0] <= 'Z' && strings.HasPrefix(rest[1:], " WITH") {
			out[r] = rune(rest[0] - 'A' + 'a')
		}
	}
	return out
}

// build returns, for each letter the table covers, the lower-case ASCII
// letters it stands for.
func build(proto map[rune]string, named map[rune]rune) map[rune]string {
	skel := func(r rune) string {
		p, ok := proto[r]
		if !ok {
			p = string(r)
		}
		return stripMarks(p)
	}
	// ascii: prototype → the ASCII letters with it, upper case first.
	ascii := map[string][]rune{}
	for _, r := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" {
		ascii[skel(r)] = append(ascii[skel(r)], r)
	}
	pick := func(p string, upper bool) (rune, bool) {
		cands := ascii[p]
		if len(cands) == 0 {
			// A prototype that is itself a named form of an ASCII letter
			// (small capital ᴛ, the prototype of Cyrillic т).
			if rs := []rune(p); len(rs) == 1 {
				if c, ok := named[rs[0]]; ok {
					return c, true
				}
			}
			return 0, false
		}
		for _, c := range cands {
			if unicode.IsUpper(c) == upper {
				return c, true
			}
		}
		return cands[0], true
	}
	out := map[rune]string{}
	for r := range proto {
		if r < 0x80 || !unicode.IsLetter(r) || norm.NFKD.String(string(r)) != string(r) {
			continue
		}
		p, upper := skel(r), unicode.IsUpper(r)
		if p == "" {
			continue
		}
		var letters []rune
		if c, ok := pick(p, upper); ok {
			letters = []rune{c}
		} else {
			for _, pr := range p {
				c, ok := pick(string(pr), upper)
				if !ok {
					letters = nil
					break
				}
				letters = append(letters, c)
			}
		}
		if len(letters) > 0 {
			out[r] = strings.ToLower(string(letters))
		}
	}
	for r, c := range named {
		if _, ok := out[r]; !ok {
			out[r] = string(c)
		}
	}
	return out
}

// stripMarks decomposes p and drops its combining marks.
func stripMarks(p string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(p) {
		if !unicode.In(r, unicode.Mn, unicode.Me) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func render(table map[rune]string) ([]byte, error) {
	keys := make([]rune, 0, len(table))
	for r := range table {
		keys = append(keys, r)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/confusablegen from Unicode's confusables.txt %s; DO NOT EDIT.\n\n", version)
	b.WriteString("package sanctions\n\n")
	fmt.Fprintf(&b, "// confusablesVersion is the version of Unicode Technical Standard #39's\n// confusables.txt that latinLookalikes was generated from (sha256 %s).\n", sourceSHA256)
	fmt.Fprintf(&b, "const confusablesVersion = %q\n\n", version)
	b.WriteString("// latinLookalikes maps a letter that confusables.txt says looks like an ASCII\n")
	b.WriteString("// Latin letter, and that NFKD leaves as it is, to that letter in lower case\n")
	b.WriteString("// (internal/confusablegen says how it is chosen). lookalike.go says when it applies.\n")
	b.WriteString("var latinLookalikes = map[rune]string{\n")
	for _, r := range keys {
		fmt.Fprintf(&b, "\t0x%04X: %q, // %c\n", r, table[r], r)
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
