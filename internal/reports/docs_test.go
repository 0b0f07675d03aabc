package reports_test

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/reports"
)

var update = flag.Bool("update", false, "rewrite the generated examples in docs/guide/reports.md")

// exampleDocs are the example reports of docs/guide/reports.md, built by the code from fixed facts.
func exampleDocs() map[string]*reports.Doc {
	ctr := report("CTR")
	ctr.ID, ctr.Reason, ctr.Rules = "rpt_examplectr", "Cash deposit at or above NGN 5,000,000 (AML-001).", []string{"AML-001"}
	str := report("STR")
	str.ID, str.Rules = "rpt_examplestr", []string{"AML-003"}
	str.Reason = "Three cash lodgements within 24 hours whose sum exceeds the threshold, each kept below it (AML-003); case CASE-2026-00042."
	str.Action = "Account placed on post-no-debit pending review; customer's source of funds requested."
	ftr := report("FTR")
	ftr.ID, ftr.Reason, ftr.Rules = "rpt_exampleftr", "Transfer abroad of USD 12,000 (AML-005).", []string{"AML-005"}
	sar := report("SAR")
	sar.ID, sar.Rules, sar.Indicators = "rpt_examplesar", nil, []string{"STR-STRUCT"}
	sar.Reason = "Customer repeatedly asked how to avoid the cash reporting threshold and withdrew the request when asked for the source of funds."
	sar.Action = "Relationship under enhanced due diligence."
	structured := []reports.Transaction{cashTx(), cashTx(), cashTx()}
	for i := range structured {
		structured[i].ID = structured[i].ID[:len(structured[i].ID)-1] + string(rune('3'+i))
		structured[i].ExternalID = "TXN-10" + string(rune('1'+i))
		structured[i].Amount = mustDec("1900000")
		structured[i].AmountNGN = mustDec("1900000")
		structured[i].Timestamp = at.Add(-time.Duration(3*i) * time.Hour)
	}
	return map[string]*reports.Doc{
		"CTR": reports.Build(ctr, []reports.Transaction{cashTx()}, settings(), at),
		"STR": reports.Build(str, structured, settings(), at),
		"FTR": reports.Build(ftr, []reports.Transaction{wireTx()}, settings(), at),
		"SAR": reports.Build(sar, nil, settings(), at),
	}
}

// TestDocsExamples: docs/guide/reports.md shows, for each report type, exactly the XML the code
// builds, and it passes the checks. Regenerate with: go test ./internal/reports -run TestDocsExamples -update
func TestDocsExamples(t *testing.T) {
	t.Parallel()
	path := "../../docs/guide/reports.md"
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	doc := string(b)
	for _, typ := range reports.Types {
		d := exampleDocs()[typ]
		require.Empty(t, d.Check(), typ)
		var buf bytes.Buffer
		require.NoError(t, d.Encode(&buf))
		re := regexp.MustCompile(`(?s)(<!-- example:` + typ + ` -->\n` + "```xml\n" + `)(.*?)(` + "```\n" + `<!-- /example:` + typ + ` -->)`)
		m := re.FindStringSubmatch(doc)
		require.NotNil(t, m, "docs/guide/reports.md has no example block for %s", typ)
		if *update {
			doc = re.ReplaceAllLiteralString(doc, m[1]+buf.String()+m[3])
			continue
		}
		require.Equal(t, buf.String(), m[2], "docs/guide/reports.md's %s example is stale: go test ./internal/reports -run TestDocsExamples -update", typ)
	}
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
	}
	require.False(t, strings.Contains(doc, "TODO"))
}

func mustDec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
