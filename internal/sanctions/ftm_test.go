package sanctions

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func readFtMSample(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "opensanctions", rel))
	require.NoError(t, err)
	return b
}

func entryByID(es []Entry, id string) (Entry, bool) {
	for _, e := range es {
		if e.ID == id {
			return e, true
		}
	}
	return Entry{}, false
}

// TestParseFtMZala: the linked multi-source sample. Persons and companies with a topic become
// entries (their types from their topics), Sanction entities give the party they name its
// programmes, addresses are attached, relations and registry records without a topic are
// skipped.
func TestParseFtMZala(t *testing.T) {
	t.Parallel()
	es, err := ParseFiles(FormatFtM, []SourceFile{{Name: "zala.entities.ftm.json", Data: readFtMSample(t, "zala.entities.ftm.json")}})
	require.NoError(t, err)
	// 6 persons with topics, 8 companies with topics (3 registry records have none).
	require.Len(t, es, 14)
	for _, e := range es {
		require.NotEmpty(t, e.Name, e.ID)
		require.Contains(t, []EntityType{EntityIndividual, EntityBusiness}, e.EntityType, e.ID)
		require.True(t, strings.HasPrefix(e.ID, "opensanctions:"), e.ID)
	}
	z, ok := entryByID(es, "opensanctions:NK-aU5ybkbRFJucf8YMwsJvDw")
	require.True(t, ok)
	require.Equal(t, "Alexander Vyacheslavovich ZAKHAROV", z.Name)
	require.Equal(t, EntityIndividual, z.EntityType)
	require.Equal(t, ListTypeSanctions, z.ListType)
	require.Contains(t, z.Programs, "US-RUSHAR (Office of Foreign Assets Control)", "the OFAC Sanction entity names him")
	require.Contains(t, z.Programs, "EU-UKR (Directorate‑General for Financial Stability, Financial Services and Capital Markets Union)")
	var cyr bool
	for _, a := range z.Aliases {
		cyr = cyr || a.Name == "Захаров Александр Вячеславович"
	}
	require.True(t, cyr, "names in other scripts are aliases: %+v", z.Aliases)
	linked, ok := entryByID(es, "opensanctions:NK-SiYwWfxwLVrVeFswsvAvsm")
	require.True(t, ok)
	require.Equal(t, ListTypeInternal, linked.ListType, "sanction.linked is not itself a sanction")
	_, ok = entryByID(es, "opensanctions:ru-inn-5920040846")
	require.False(t, ok, "a registry record without a topic is not a screening target")

	idx := NewIndex(es)
	ms := idx.Search(Query{Name: "Alexander Zakharov", Threshold: 0.75, Limit: 5})
	require.NotEmpty(t, ms)
	require.Equal(t, z.ID, ms[0].EntryID)
}

func TestFtMListType(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		topics []string
		want   ListType
	}{
		{nil, ""},
		{[]string{"sanction"}, ListTypeSanctions},
		{[]string{"role.pep", "sanction"}, ListTypeSanctions},
		{[]string{"role.pep"}, ListTypePEP},
		{[]string{"role.rca"}, ListTypePEP},
		{[]string{"debarment"}, ListTypeInternal},
		{[]string{"crime.terror"}, ListTypeInternal},
		{[]string{"poi"}, ListTypeInternal},
		{[]string{"sanction.linked"}, ListTypeInternal},
	} {
		require.Equal(t, c.want, FtMListType(c.topics), "%v", c.topics)
	}
}

// TestApplyFtMDeltas: t1's entities, then t2's five versions in order. The organisation added
// in one version and modified in another matches its new name and not its old aliases; the
// entity added and then deleted no longer matches; the person added last does.
func TestApplyFtMDeltas(t *testing.T) {
	t.Parallel()
	es, err := ParseFtM(bytes.NewReader(readFtMSample(t, "t1/entities.ftm.json")))
	require.NoError(t, err)
	require.Len(t, es, 6, "4 persons and 2 organisations; the address is not a party")
	ix, err := ParseFtMIndex(readFtMSample(t, "t2/delta.json"))
	require.NoError(t, err)
	vers := ix.Newer("")
	require.Equal(t, []string{"20240527134702-zbn", "20240527194702-wnk", "20240528014702-pfh", "20240528074703-npf", "20240528134729-3iv"}, vers)
	require.Equal(t, vers[1:], ix.Newer("20240527134702-zbn"))

	changed := map[string][]string{}
	deleted := map[string][]string{}
	for _, v := range vers {
		res, err := ApplyFtMDelta(ListOpenSanctions, es, bytes.NewReader(readFtMSample(t, "t2/"+v+"/entities.delta.json")))
		require.NoError(t, err, v)
		es, changed[v], deleted[v] = res.Entries, res.Changed, res.Deleted
		if v == "20240527194702-wnk" {
			idx := NewIndex(es)
			ms := idx.Search(Query{Name: "Al-Qaida in Mesopotamia", Threshold: 0.75, Limit: 5})
			require.NotEmpty(t, ms, "the alias of the organisation as added")
			require.Equal(t, "opensanctions:NK-2T3S8Hu29ktYnKSTgQp2wL", ms[0].EntryID)
		}
	}
	require.Empty(t, changed["20240527134702-zbn"])
	require.Equal(t, []string{"opensanctions:NK-2T3S8Hu29ktYnKSTgQp2wL", "opensanctions:NK-2sJaJRaPJcWUfMbHjTtWcL"}, changed["20240527194702-wnk"])
	require.Equal(t, []string{"opensanctions:NK-2T3S8Hu29ktYnKSTgQp2wL", "opensanctions:NK-500Poltergeist"}, changed["20240528014702-pfh"])
	require.Equal(t, []string{"opensanctions:NK-500Poltergeist"}, deleted["20240528074703-npf"])
	require.Equal(t, []string{"opensanctions:Q4365364"}, changed["20240528134729-3iv"])
	require.Len(t, es, 9)

	idx := NewIndex(es)
	find := func(name string) []Match { return idx.Search(Query{Name: name, Threshold: 0.75, Limit: 5}) }
	ms := find("Foobar Foobargroup")
	require.NotEmpty(t, ms, "the modified entity's new name matches")
	require.Equal(t, "opensanctions:NK-2T3S8Hu29ktYnKSTgQp2wL", ms[0].EntryID)
	ids := map[string]bool{}
	for _, m := range find("Iranian Revolutionary Guard Corps") {
		ids[m.EntryID] = true
	}
	require.True(t, ids["opensanctions:NK-2T3S8Hu29ktYnKSTgQp2wL"], "its new alias matches (as does t1's IRGC): %v", ids)
	for _, m := range find("Al-Qaida in Mesopotamia") {
		require.NotEqual(t, "opensanctions:NK-500Poltergeist", m.EntryID, "deleted in 20240528074703-npf")
		require.NotEqual(t, "opensanctions:NK-2T3S8Hu29ktYnKSTgQp2wL", m.EntryID, "the MOD replaced its aliases")
	}
	_, ok := entryByID(es, "opensanctions:NK-500Poltergeist")
	require.False(t, ok)
	ms = find("Vladimir Plotnikov")
	require.NotEmpty(t, ms)
	require.Equal(t, "opensanctions:Q4365364", ms[0].EntryID)
}

// TestApplyFtMDeltaBadLine: a bad operation refuses the delta whole, naming its line.
func TestApplyFtMDeltaBadLine(t *testing.T) {
	t.Parallel()
	delta := `{"op":"ADD","entity":{"id":"x1","schema":"Person","caption":"Good Name","properties":{"topics":["sanction"]}}}
{"op":"REPLACE","entity":{"id":"x2","schema":"Person"}}
`
	_, err := ApplyFtMDelta(ListOpenSanctions, nil, strings.NewReader(delta))
	require.ErrorIs(t, err, ErrBadListFile)
	require.ErrorContains(t, err, "line 2")
	_, err = ParseFtM(strings.NewReader("{\"id\":\"a\",\"schema\":\"Person\"}\nnot json\n"))
	require.ErrorIs(t, err, ErrBadListFile)
	require.ErrorContains(t, err, "line 2")
}
