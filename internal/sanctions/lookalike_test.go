package sanctions

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/unicode/norm"
)

// TestFoldQuery pins the one normalisation (lookalike.go) on each way of writing it folds, and on
// what it must leave alone.
func TestFoldQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []string // the readings, the first foldName's
		look     bool     // the first reading is flagged
	}{
		{"ascii", "Vladimir Putin", []string{"vladimir putin"}, false},
		{"cyrillic i", "Vladimir Put\u0456n", []string{"vladimir putin"}, true},
		{"cyrillic capitals", "VL\u0410DIMIR \u0420UTIN", []string{"vladimir putin"}, true},
		{"cyrillic capital I is I", "VLAD\u0406MIR", []string{"vladimir"}, true},
		{"greek omicron", "Osama bin Lad\u03bfn", []string{"osama bin ladon"}, true},
		{"word wholly in lookalikes in a Latin name", "\u041e\u0405\u0410\u041c\u0410 BIN LADEN", []string{"osama bin laden"}, true},
		{"fullwidth", "Ｖｌａｄｉｍｉｒ　Ｐｕｔｉｎ", []string{"vladimir putin"}, false},
		{"mathematical bold", "𝐕𝐥𝐚𝐝𝐢𝐦𝐢𝐫 𝐏𝐮𝐭𝐢𝐧", []string{"vladimir putin"}, false},
		{"circled", "ⓋⓁⒶⒹⒾⓂⒾⓇ", []string{"vladimir"}, false},
		{"small capitals", "ᴠʟᴀᴅɪᴍɪʀ ᴘᴜᴛɪɴ", []string{"vladimir putin"}, false},
		{"ligature", "Kha\ufb01d", []string{"khafid"}, false},
		{"combining marks", "Vla\u0301dimi\u0308r", []string{"vladimir"}, false},
		{"soft hyphen joins", "Vla\u00addimir", []string{"vladimir"}, false},
		{"zero-width joins", "Vla\u200bdi\u200dmir Pu\u2060tin\ufeff", []string{"vladimir putin"}, false},
		{"bidi controls", "\u202eVla\u200fdimir\u202c \u2066Putin\u2069", []string{"vladimir putin"}, false},
		{"variation selector and tag", "Vlad\ufe0fimir Pu\U000E0041tin", []string{"vladimir putin"}, false},
		{"odd spaces", "Vladimir\u00a0Vladimirovich\u2009PUTIN\u3000", []string{"vladimir vladimirovich putin"}, false},
		{"leet tried", "V1ad1m1r Put1n", []string{"v1ad1m1r put1n", "viadimir putin", "vladlmlr putin", "viadimir putln", "vladlmlr putln"}, false},
		{"leet at and dollar", "Nadim AL-D@JANI $ALEH", []string{"nadim al d jani  aleh", "nadim al dajani saleh"}, false},
		{"digits of a vessel stay", "FU YUAN YU7606", []string{"fu yuan yu7606", "fu yuan yut6o6"}, false},
		{"an id stays", "RPH 78838", []string{"rph 78838"}, false},
		{"wholly Cyrillic stays", "Владимир Путин", []string{"владимир путин"}, false},
		{"wholly lookalike query tried folded", "\u041e\u0405\u0410\u041c\u0410", []string{"\u043e\u0455\u0430\u043c\u0430", "osama"}, false},
		{"arabic tatweel", "\u0645\u062d\u0640\u0645\u062f", []string{"\u0645\u062d\u0645\u062f"}, false},
	} {
		rs := foldQuery(tc.in)
		got := make([]string, len(rs))
		for i, r := range rs {
			got[i] = r.text
		}
		require.Equal(t, tc.want, got, tc.name)
		require.Equal(t, tc.look, rs[0].lookalike, tc.name)
		require.Equal(t, tc.want[0], foldName(tc.in), tc.name)
	}
}

// TestUnicodeVersionsAgree: the lookalike table, Go's unicode tables and x/text's normalisation
// are one Unicode version, the one docs/design/sanctions-matcher.md names.
func TestUnicodeVersionsAgree(t *testing.T) {
	t.Parallel()
	require.Equal(t, "15.0.0", confusablesVersion)
	require.Equal(t, confusablesVersion, unicode.Version)
	require.Equal(t, confusablesVersion, norm.Version)
}

// TestLatinLookalikesTable spot-checks the generated table against confusables.txt's classes.
func TestLatinLookalikesTable(t *testing.T) {
	t.Parallel()
	for r, want := range map[rune]string{'\u0430': "a", '\u0410': "a", '\u0456': "i", '\u0406': "i", '\u04cf': "i",
		'\u043e': "o", '\u0440': "p", '\u0441': "c", '\u0455': "s", '\u03bf': "o", '\u03bd': "v", '\u0585': "o",
		'\u1d0b': "k", '\u0442': "t", '\u0432': "b", '\u0131': "i"} {
		require.Equal(t, want, latinLookalikes[r], "%U", r)
	}
	for r := range latinLookalikes {
		require.True(t, unicode.IsLetter(r), "%U", r)
		require.Equal(t, string(r), norm.NFKD.String(string(r)), "%U decomposes: NFKD handles it", r)
	}
	_, ok := latinLookalikes['\u0434'] // д has no Latin lookalike
	require.False(t, ok)
}

// FuzzFoldName: folding never panics, is idempotent up to spacing (an indexed name folds to
// the same words again, so index and query agree), and yields a handful of readings at most.
func FuzzFoldName(f *testing.F) {
	for _, s := range []string{"Vladimir Put\u0456n", "Ｖｌａｄｉｍｉｒ", "V1ad1m1r 8in L4d3n", "\u202eA\u200bB", "ОЅАМА", "a@b$c 123"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := foldName(s)
		words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		require.Equal(t, words(n), words(foldName(n)), "%+q", s)
		rs := foldQuery(s)
		require.Equal(t, n, rs[0].text)
		require.LessOrEqual(t, len(rs), 1+1<<maxLeetChoices+1)
		require.False(t, strings.ContainsAny(n, "@$\u200b\u00ad"), "%+q", n)
	})
}

// TestFoldNameBrokenBytes: a stray byte of broken UTF-8 is a word break and does not stop what
// follows from being decomposed (CI's fuzzing found "\xf2ϰ" folding to ϰ, then to κ).
func TestFoldNameBrokenBytes(t *testing.T) {
	t.Parallel()
	require.Equal(t, "κ", foldName("\xf2\u03f0"))
	require.Equal(t, "ab κ", foldName("ab\xf2\u03f0"))
	require.Equal(t, foldName("Vladimir Putin"), foldName("Vladimir\xff Put\u0456n"))
}

// TestFoldNameGluedSigns: @ and $ split words for the choice of script as they
// do in the folded name (CI-length fuzzing found "A ӹ$ӗ" folding to "a ы е",
// then to "a ы e"); inside a Latin word they are still read as leet.
func TestFoldNameGluedSigns(t *testing.T) {
	t.Parallel()
	require.Equal(t, "a ы e", foldName("A \u04f9$\u04d7"))
	require.Equal(t, foldName("a ы e"), foldName("A \u04f9$\u04d7"))
	rs := foldQuery("Pu$\u0456n")
	require.Equal(t, "pu in", rs[0].text)
	require.True(t, rs[0].lookalike)
	require.Equal(t, "pusin", rs[1].text)
}
