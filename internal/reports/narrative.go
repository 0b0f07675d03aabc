package reports

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// Facts are everything a narrative may say about a report, and all that the optional assistant
// is shown (docs/guide/reports.md "Narrative"): the report itself, its transactions, the rules that
// fired and the notes of its case. Nothing else of the tenant reaches the assistant.
type Facts struct {
	Type            string
	CustomerName    string
	CustomerAccount string
	Transactions    []Transaction
	Rules           []string
	CaseNumber      string
	CaseTitle       string
	CaseDescription string
	CaseNotes       []string
}

var typeNames = map[string]string{
	TypeCTR: "currency transaction report", TypeSTR: "suspicious transaction report",
	TypeSAR: "suspicious activity report", TypeFTR: "foreign transfer report",
}

// Narrative writes the deterministic draft narrative from f: who, what, when, amounts, the
// rules triggered and the case notes. The same facts always give the same text.
func Narrative(f Facts) string {
	var b strings.Builder
	who := strings.TrimSpace(f.CustomerName)
	if who == "" {
		who = "The customer"
	}
	fmt.Fprintf(&b, "This %s concerns %s (account %s).", typeNames[f.Type], who, f.CustomerAccount)
	if n := len(f.Transactions); n > 0 {
		txs := append([]Transaction(nil), f.Transactions...)
		sort.Slice(txs, func(i, j int) bool { return txs[i].Timestamp.Before(txs[j].Timestamp) })
		total := decimal.Zero
		for _, t := range txs {
			total = total.Add(t.AmountNGN)
		}
		first, last := txs[0].Timestamp.In(Lagos), txs[n-1].Timestamp.In(Lagos)
		when := first.Format("2 January 2006 15:04")
		if n > 1 {
			when = "between " + when + " and " + last.Format("2 January 2006 15:04")
		} else {
			when = "on " + when
		}
		fmt.Fprintf(&b, " %s carried out %d transaction%s totalling NGN %s %s (Lagos time):", who, n, plural(n), group3(total), when)
		parts := make([]string, 0, len(txs))
		for _, t := range txs {
			var p strings.Builder
			fmt.Fprintf(&p, "%s %s of %s %s (NGN %s)", strings.ReplaceAll(strings.ToLower(t.Type), "_", " "), t.ExternalID,
				t.Currency, group3(t.Amount), group3(t.AmountNGN))
			if t.ReceiverName != "" || t.ReceiverAccountNumber != "" {
				fmt.Fprintf(&p, " to %s", strings.TrimSpace(t.ReceiverName+" "+t.ReceiverAccountNumber))
			}
			if t.ReceiverCountry != "" && t.ReceiverCountry != "NG" {
				fmt.Fprintf(&p, " in %s", t.ReceiverCountry)
			}
			if t.Narration != "" {
				fmt.Fprintf(&p, ", narration %q", t.Narration)
			}
			parts = append(parts, p.String())
		}
		b.WriteString(" " + strings.Join(parts, "; ") + ".")
		// The parties a sanctions list matched, with the list entry and the score.
		for _, t := range txs {
			for _, h := range t.Hits {
				fmt.Fprintf(&b, " Sanctions match on %s: the %s %q matched list %s, entry %s (%s), score %.2f.", t.ExternalID,
					strings.ToLower(firstNonEmpty(h.Party, "party")), h.MatchedName, h.List, h.EntryID, h.Name, h.Score)
			}
		}
	}
	if len(f.Rules) > 0 {
		fmt.Fprintf(&b, " Rules triggered: %s.", strings.Join(f.Rules, ", "))
	}
	if f.CaseNumber != "" {
		fmt.Fprintf(&b, " Case %s (%s).", f.CaseNumber, f.CaseTitle)
		if d := strings.TrimSpace(f.CaseDescription); d != "" {
			fmt.Fprintf(&b, " %s", d)
			if !strings.HasSuffix(d, ".") {
				b.WriteString(".")
			}
		}
	}
	for _, n := range f.CaseNotes {
		fmt.Fprintf(&b, " Case note: %s", strings.TrimSpace(n))
		if !strings.HasSuffix(strings.TrimSpace(n), ".") {
			b.WriteString(".")
		}
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// group3 formats an amount with thousands separators and two decimals: 5000000 → 5,000,000.00.
func group3(d decimal.Decimal) string {
	s := d.StringFixed(2)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	var out []byte
	for i, c := range []byte(intPart) {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	r := string(out) + "." + frac
	if neg {
		r = "-" + r
	}
	return r
}
