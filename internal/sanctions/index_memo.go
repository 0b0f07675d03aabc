package sanctions

import (
	"encoding/binary"
	"hash/maphash"
)

// tokenMemo remembers, for the length of one index build (or one parse of an import), what
// the build computes for each distinct written word and token: a list is written with few
// distinct words (a 100,000-row tenant list of three-word names holds about 5,400 of them, each
// written tens of times), and tokenising every occurrence again, with its transliteration,
// phonetic key, skeleton and the hashes of its deletion keys, was a third of an import's index
// build (docs/guide/watchlists.md "Import at scale"). Everything it holds is a pure function of its
// key, so a build with it gives the index a build without it gives (TestIndexMemoSameIndex);
// a nil *tokenMemo computes everything afresh (the search path). Not safe for concurrent use.
type tokenMemo struct {
	// words: a field of a folded name → its tokens (stripAttachedForm, canonicalize,
	// newToken), shared by every name holding it (callers copy them into their own slice).
	words map[string][]token
	// nearForm: a field → whether it is a long legal form with one typing error.
	nearForm map[string]bool
	// keys: a token (raw, canon) → the span of hashes holding the hashes of its keys, in the
	// order nameKeys hands them out.
	keys   map[string]span
	hashes []uint64
	buf    []byte
	kbuf   []byte // tokenKeys' working space
	// toks is tokenizeMemo's working slice: a name's tokens are copied out of it into a slice
	// of their exact number (the index keeps them).
	toks []token
}

func newTokenMemo() *tokenMemo {
	return &tokenMemo{words: map[string][]token{}, nearForm: map[string]bool{}, keys: map[string]span{}}
}

// word returns the tokens of field f, as tokenizeFolded makes them.
func (m *tokenMemo) word(f string) []token {
	if ts, ok := m.words[f]; ok {
		return ts
	}
	ts := wordTokens(f)
	m.words[f] = ts
	return ts
}

// wordTokens is the tokens of one field of a folded name (its legal form attached removed, its
// transliteration canonicalised, split when it is an abd… compound).
func wordTokens(f string) []token {
	f = stripAttachedForm(f)
	cs := canonicalize(f)
	out := make([]token, len(cs))
	for k, c := range cs {
		t := newToken(f, c)
		t.cont, t.piece = k > 0, len(cs) > 1
		out[k] = t
	}
	return out
}

// nearLegalForm is the memoised nearLongLegalForm.
func (m *tokenMemo) nearLegalForm(f string) bool {
	if m == nil {
		return nearLongLegalForm(f)
	}
	v, ok := m.nearForm[f]
	if !ok {
		v = nearLongLegalForm(f)
		m.nearForm[f] = v
	}
	return v
}

// appendStr appends s to b, its length first (so that keys of several strings never collide).
func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// tokenHashes returns the hashes of the keys of strong token t (see Index.del) in the order
// nameKeys hands them out, computed once per distinct token.
func (m *tokenMemo) tokenHashes(seed maphash.Seed, t token) []uint64 {
	k := appendStr(appendStr(m.buf[:0], t.raw), t.canon)
	m.buf = k
	if sp, ok := m.keys[string(k)]; ok {
		return m.hashes[sp.off : sp.off+sp.n]
	}
	off := len(m.hashes)
	m.kbuf = tokenKeys(t, m.kbuf, func(key []byte) { m.hashes = append(m.hashes, maphash.Bytes(seed, key)) })
	m.keys[string(k)] = span{off: uint32(off), n: uint32(len(m.hashes) - off)}
	return m.hashes[off:]
}
