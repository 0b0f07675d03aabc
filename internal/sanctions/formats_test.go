package sanctions

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func readList(t *testing.T, name string) []SourceFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "lists", name))
	require.NoError(t, err)
	return []SourceFile{{Name: name, Data: b}}
}

// TestParseEU reads the EU Financial Sanctions Files fixture (testdata/lists, written in the
// published layout): primary name, native-script and weak aliases, dates, nationality, programme.
func TestParseEU(t *testing.T) {
	t.Parallel()
	es, err := ParseFiles(FormatEUXML, readList(t, "eu_fsf_sample.xml"))
	require.NoError(t, err)
	require.Len(t, es, 3)
	p := es[0]
	require.Equal(t, "eu-fsf:900101", p.ID)
	require.Equal(t, ListEUFSF, p.List)
	require.Equal(t, EntityIndividual, p.EntityType)
	require.Equal(t, "Ivan Petrovich Testovsky", p.Name)
	require.Equal(t, []Alias{{Name: "Иван Петрович Тестовский", Quality: AliasStrong}, {Name: "Vanya Test", Quality: AliasWeak}}, p.Aliases)
	require.Equal(t, []string{"1968-03-14"}, p.DatesOfBirth)
	require.Equal(t, []string{"RUSSIAN FEDERATION"}, p.Nationalities)
	require.Equal(t, []string{"RUS"}, p.Programs)
	require.Contains(t, p.Remarks, "procurement")
	require.Equal(t, EntityBusiness, es[1].EntityType)
	require.Equal(t, "OJSC Testmash", es[1].Aliases[0].Name)
	require.Empty(t, es[1].DatesOfBirth)
	require.Equal(t, "Samir Exampleh", es[2].Name, "a name without wholeName is built from its parts")
	require.Equal(t, []string{"1959-07"}, es[2].DatesOfBirth)

	_, err = ParseFiles(FormatEUXML, []SourceFile{{Name: "x.xml", Data: []byte(`<export xmlns="http://eu.europa.ec/fpi/fsd/export"></export>`)}})
	require.ErrorIs(t, err, ErrBadListFile)
	_, err = ParseFiles(FormatEUXML, []SourceFile{{Name: "x.xml", Data: []byte(`<export><sanctionEntity logicalId="1">`)}})
	require.ErrorIs(t, err, ErrBadListFile)
}

// TestParseUK reads both UK layouts (OFSI ConList.csv and the UK Sanctions List CSV): the rows
// of one designation become one entry, the primary name first, a Low/Weak alias weak.
func TestParseUK(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"uk_conlist_sample.csv", "uk_sanctions_list_sample.csv"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			es, err := ParseFiles(FormatUKCSV, readList(t, file))
			require.NoError(t, err)
			byName := map[string]Entry{}
			for _, e := range es {
				byName[e.Name] = e
				require.Equal(t, ListUK, e.List)
			}
			p, ok := byName["Ivan Petrovich TESTOVSKY"]
			require.True(t, ok, "%+v", es)
			require.Equal(t, EntityIndividual, p.EntityType)
			require.Equal(t, []Alias{{Name: "Vanya TEST", Quality: AliasWeak}}, p.Aliases)
			require.Equal(t, []string{"1968-03-14"}, p.DatesOfBirth)
			require.Equal(t, []string{"Russia"}, p.Nationalities)
			require.Equal(t, []string{"Russia"}, p.Programs)
			c, ok := byName["OPEN JOINT STOCK COMPANY TESTMASH"]
			require.True(t, ok)
			require.Equal(t, EntityBusiness, c.EntityType)
			require.Equal(t, []string{"Belarus"}, c.Countries)
		})
	}
	es, err := ParseFiles(FormatUKCSV, readList(t, "uk_conlist_sample.csv"))
	require.NoError(t, err)
	require.Len(t, es, 3)
	require.Equal(t, "uk:90002", es[1].ID)
	require.Equal(t, []string{"1959-07"}, es[1].DatesOfBirth, "00 for an unknown day")
	_, err = ParseFiles(FormatUKCSV, []SourceFile{{Name: "x.csv", Data: []byte("<html>Service unavailable</html>")}})
	require.ErrorIs(t, err, ErrBadListFile)
}

// TestParseRows: the house CSV and JSON Lines, every error with its line, and a global import's
// duplicate reference refused.
func TestParseRows(t *testing.T) {
	t.Parallel()
	rows, n, errs := ParseRows(RowFormatCSV, []byte("Full_Name,DOB,Alias\n\"OKAFOR, Ngozi\",1971-02-14,Ngozi Okafor | N. Okafor\n"))
	require.Empty(t, errs)
	require.Equal(t, 1, n)
	require.Equal(t, "OKAFOR, Ngozi", rows[0].Entry.Name)
	require.Equal(t, []string{"Ngozi Okafor", "N. Okafor"}, rows[0].Entry.Aliases)
	require.Equal(t, 2, rows[0].Line)

	_, _, errs = ParseRows(RowFormatCSV, []byte("name,position\nA B,Minister\n"))
	require.Equal(t, []RowError{{Line: 1, Field: "position", Message: "unknown column; accepted: name, aliases, entityType, dateOfBirth, country, reference"}}, errs)
	_, _, errs = ParseRows(RowFormatCSV, []byte("name,country\nA B,NG\n\"unterminated,NG\n"))
	require.Len(t, errs, 1)
	require.Equal(t, 3, errs[0].Line)
	_, _, errs = ParseRows(RowFormatCSV, []byte("name,country\nA B,NG,extra\n"))
	require.Equal(t, 2, errs[0].Line)

	rows, n, errs = ParseRows(RowFormatJSONL, []byte("{\"name\":\"A B\",\"aliases\":\"C D;E F\",\"dob\":null}\n\n{\"name\":\"G H\",\"entityType\":\"business\"}\n"))
	require.Empty(t, errs)
	require.Equal(t, 2, n)
	require.Equal(t, 3, rows[1].Line)
	require.Equal(t, EntityBusiness, rows[1].Entry.EntityType)
	_, _, errs = ParseRows(RowFormatJSONL, []byte("{\"name\":\"A B\"}\n[1]\n{\"name\":\"C\",\"dateOfBirth\":\"14/02/1971\"}\n"))
	require.Equal(t, []int{2, 3}, []int{errs[0].Line, errs[1].Line})
	require.Equal(t, "dateOfBirth", errs[1].Field)

	_, err := ParseFiles(FormatCSV, []SourceFile{{Name: "p.csv", Data: []byte("name,reference\nA B,P1\nC D,P1\n")}})
	require.ErrorIs(t, err, ErrBadListFile)
	require.Contains(t, err.Error(), "line 3")
	es, err := ParseFiles(FormatCSV, []SourceFile{{Name: "p.csv", Data: []byte("name,reference,entityType\nA B,P1,INDIVIDUAL\nC D,,\n")}})
	require.NoError(t, err)
	require.Equal(t, "P1", es[0].SourceID)
	require.Equal(t, "line-3", es[1].SourceID)
}
