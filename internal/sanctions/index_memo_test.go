package sanctions

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireSameIndex fails unless a and b hold the same names, tokens, keys, postings and weights.
func requireSameIndex(t *testing.T, a, b *Index) {
	t.Helper()
	require.Equal(t, len(a.names), len(b.names), "names")
	for i := range a.names {
		require.Equal(t, a.names[i], b.names[i], "name %d (entry %d alias %d)", i, a.names[i].entry, a.names[i].alias)
	}
	require.Equal(t, a.hot, b.hot, "hot")
	require.Equal(t, a.briefs, b.briefs, "briefs")
	require.Equal(t, a.initials, b.initials, "initials")
	require.Equal(t, a.weights, b.weights, "weights")
	require.Equal(t, a.del.slots, b.del.slots, "key table")
	require.Equal(t, a.postings, b.postings, "postings")
	require.Equal(t, a.postW, b.postW, "posting weights")
	require.Equal(t, a.heaviest, b.heaviest, "heaviest")
}

// memoTestEntries is a list that writes its words many times over, in the forms the
// tokeniser treats apart: abd… compounds written joined and split, articles and particles,
// titles, legal forms split, attached and misspelt, dotted initials, lookalike letters,
// weak aliases, single-word names.
func memoTestEntries(n int) []Entry {
	rng := rand.New(rand.NewPCG(47, 1))
	given := []string{"Abdulrahman", "Abd al Rahman", "Abdel Rahman", "Abdurrahman", "Mohamed", "Muhammad", "Moha med",
		"Oluwaseun", "Chukwuemeka", "Sheikh Shafi", "sheikhshafi", "Vladimir", "Vladіmir", "Ａｌｉ", "J.", "A. B.", "Marie",
		"Saif", "Jean-Pierre", "Olu"}
	surnames := []string{"al-Zawahiri", "alzawahiri", "bin Laden", "Putin", "Putіn", "van der Berg", "Al Arab", "ibn Saud",
		"Okonkwo", "Mire", "de la Cruz", "Smith", "Abd", "Ould Ahmed"}
	companies := []string{"Zenit OOO", "OOOZENIT", "Culture LLC", "CULTURELLC", "Atlas Comp Any", "Atlas Trading Compnay",
		"Petro Chemical Company", "PETROCHEMICALCOMPANY", "Bank Saint-Petersburg PJSC", "Elins STCJSC", "Acme S.A.",
		"Acme L.L.C.", "Al Qaida", "Global Shipping Limited"}
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	out := make([]Entry, n)
	for i := range out {
		e := Entry{ID: fmt.Sprintf("memo:%05d", i), List: "MEMO", ListType: ListTypePEP, EntityType: EntityIndividual}
		switch i % 5 {
		case 0, 1, 2:
			e.Name = pick(given) + " " + pick(given) + " " + pick(surnames)
			e.Aliases = []Alias{{Name: pick(given) + " " + pick(surnames)}, {Name: pick(surnames), Quality: AliasWeak}}
		case 3:
			e.EntityType = EntityBusiness
			e.Name = pick(companies)
			e.Aliases = []Alias{{Name: pick(companies) + " " + pick(surnames)}}
		default:
			e.Name = pick(surnames) + " " + pick(given)
		}
		out[i] = e
	}
	return out
}

// TestIndexMemoSameIndex: an index built with the build's memo of words, pairs and token keys
// (tokenMemo) is the index built working out every name afresh — the same names and tokens,
// keys, postings and weights — for a list that repeats its words in every form the tokeniser
// distinguishes (over minWeightedEntries, so rarity weights apply) and for the real OFAC and UN
// lists.
func TestIndexMemoSameIndex(t *testing.T) {
	t.Parallel()
	seed := maphash.MakeSeed()
	t.Run("repeated words", func(t *testing.T) {
		t.Parallel()
		es := memoTestEntries(3000)
		requireSameIndex(t, buildIndex(es, seed, nil, nil), buildIndex(es, seed, newTokenMemo(), nil))
	})
	t.Run("OFAC and UN", func(t *testing.T) {
		t.Parallel()
		es, _ := realLists(t)
		requireSameIndex(t, buildIndex(es, seed, nil, nil), buildIndex(es, seed, newTokenMemo(), nil))
	})
}
