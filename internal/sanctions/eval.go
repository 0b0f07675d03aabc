package sanctions

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Evaluation labels.
const (
	LabelPositive = "positive"
	LabelNegative = "negative"
)

// EvalCase is one labelled query of the evaluation set (testdata/eval.jsonl).
type EvalCase struct {
	Query      string     `json:"query"`
	EntityType EntityType `json:"entityType,omitempty"`
	// ExpectEntryID is the entry a positive must find; nil for negatives.
	ExpectEntryID *string `json:"expectEntryId"`
	Label         string  `json:"label"`
	// Kind names the variant (exact, typo, transliteration, …) or negative
	// family (common-nigerian, hard-negative, …).
	Kind string `json:"kind"`
	// Split is SplitTune or SplitHeldOut (the matcher is never tuned on the
	// held-out quarter); empty in older sets.
	Split string `json:"split,omitempty"`
}

// Evaluation splits.
const (
	SplitTune    = "tune"
	SplitHeldOut = "heldout"
)

// EvalResult is the confusion count and derived metrics at one threshold. A
// positive is a TP when its expected entry is among the returned matches
// (limit DefaultLimit), else a FN; a negative with any match is a FP.
type EvalResult struct {
	Threshold float64
	TP        int
	FP        int
	FN        int
	TN        int
	Precision float64
	Recall    float64
	F1        float64
}

// LoadEvalSet reads JSON Lines of EvalCase, skipping blank lines.
func LoadEvalSet(r io.Reader) ([]EvalCase, error) {
	var out []EvalCase
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		b := strings.TrimSpace(sc.Text())
		if b == "" {
			continue
		}
		var c EvalCase
		if err := json.Unmarshal([]byte(b), &c); err != nil {
			return nil, fmt.Errorf("eval set line %d: %w", line, err)
		}
		if c.Label != LabelPositive && c.Label != LabelNegative {
			return nil, fmt.Errorf("eval set line %d: label %q", line, c.Label)
		}
		if (c.Label == LabelPositive) != (c.ExpectEntryID != nil) {
			return nil, fmt.Errorf("eval set line %d: positives need expectEntryId, negatives must have null", line)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read eval set: %w", err)
	}
	return out, nil
}

// Evaluate runs every case once at the lowest threshold and scores the
// results at each threshold.
func Evaluate(idx *Index, cases []EvalCase, thresholds []float64) []EvalResult {
	if len(thresholds) == 0 {
		return nil
	}
	lowest := slices.Min(thresholds)
	res := make([]EvalResult, len(thresholds))
	for i, th := range thresholds {
		res[i].Threshold = th
	}
	for _, c := range cases {
		ms := idx.Search(Query{Name: c.Query, EntityType: c.EntityType, Threshold: lowest, Limit: DefaultLimit})
		for i, th := range thresholds {
			found, any := false, false
			for _, m := range ms {
				if m.Score < th {
					continue
				}
				any = true
				if c.ExpectEntryID != nil && m.EntryID == *c.ExpectEntryID {
					found = true
				}
			}
			switch {
			case c.Label == LabelPositive && found:
				res[i].TP++
			case c.Label == LabelPositive:
				res[i].FN++
			case any:
				res[i].FP++
			default:
				res[i].TN++
			}
		}
	}
	for i := range res {
		r := &res[i]
		if r.TP+r.FP > 0 {
			r.Precision = float64(r.TP) / float64(r.TP+r.FP)
		}
		if r.TP+r.FN > 0 {
			r.Recall = float64(r.TP) / float64(r.TP+r.FN)
		}
		if r.Precision+r.Recall > 0 {
			r.F1 = 2 * r.Precision * r.Recall / (r.Precision + r.Recall)
		}
	}
	return res
}

// WriteEvalTable writes results as a Markdown table.
func WriteEvalTable(w io.Writer, results []EvalResult) error {
	if _, err := fmt.Fprintln(w, "| threshold | precision | recall | F1 | TP | FP | FN | TN |\n|---:|---:|---:|---:|---:|---:|---:|---:|"); err != nil {
		return err
	}
	for _, r := range results {
		if _, err := fmt.Fprintf(w, "| %.2f | %.4f | %.4f | %.4f | %d | %d | %d | %d |\n",
			r.Threshold, r.Precision, r.Recall, r.F1, r.TP, r.FP, r.FN, r.TN); err != nil {
			return err
		}
	}
	return nil
}

// KindResult is the outcome of one kind of case at one threshold: for a
// positive kind the share of queries whose entry was found (recall), for a
// negative kind the share that raised any alert (false alert rate).
type KindResult struct {
	Kind  string
	Label string
	N     int
	Hits  int
	Rate  float64
}

// EvaluateKinds scores cases at threshold th, per kind, in kind order
// (positives first).
func EvaluateKinds(idx *Index, cases []EvalCase, th float64) []KindResult {
	by := map[[2]string]*KindResult{}
	for _, c := range cases {
		k := [2]string{c.Label, c.Kind}
		r := by[k]
		if r == nil {
			r = &KindResult{Kind: c.Kind, Label: c.Label}
			by[k] = r
		}
		r.N++
		ms := idx.Search(Query{Name: c.Query, EntityType: c.EntityType, Threshold: th, Limit: DefaultLimit})
		if c.Label == LabelNegative {
			if len(ms) > 0 {
				r.Hits++
			}
			continue
		}
		if slices.ContainsFunc(ms, func(m Match) bool { return m.EntryID == *c.ExpectEntryID }) {
			r.Hits++
		}
	}
	out := make([]KindResult, 0, len(by))
	for _, r := range by {
		r.Rate = float64(r.Hits) / float64(r.N)
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b KindResult) int {
		if a.Label != b.Label {
			return strings.Compare(b.Label, a.Label) // positive before negative
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	return out
}

// FilterSplit returns the cases of one split ("" keeps all).
func FilterSplit(cases []EvalCase, split string) []EvalCase {
	if split == "" {
		return cases
	}
	var out []EvalCase
	for _, c := range cases {
		if c.Split == split {
			out = append(out, c)
		}
	}
	return out
}

// WriteKindTable writes per-kind recall (positives) and false alert rate
// (negatives) as a Markdown table, one column per named set of results.
func WriteKindTable(w io.Writer, names []string, results [][]KindResult) error {
	head := "| kind | measure |"
	sep := "|---|---|"
	for _, n := range names {
		head += " " + n + " |"
		sep += "---:|"
	}
	if _, err := fmt.Fprintln(w, head+"\n"+sep); err != nil {
		return err
	}
	type key struct{ label, kind string }
	var order []key
	seen := map[key]bool{}
	for _, rs := range results {
		for _, r := range rs {
			if k := (key{r.Label, r.Kind}); !seen[k] {
				seen[k] = true
				order = append(order, k)
			}
		}
	}
	slices.SortStableFunc(order, func(a, b key) int {
		if a.label != b.label {
			return strings.Compare(b.label, a.label)
		}
		return strings.Compare(a.kind, b.kind)
	})
	for _, k := range order {
		measure := "recall"
		if k.label == LabelNegative {
			measure = "false alerts"
		}
		line := fmt.Sprintf("| %s | %s |", k.kind, measure)
		for _, rs := range results {
			cell := " – |"
			for _, r := range rs {
				if r.Label == k.label && r.Kind == k.kind {
					cell = fmt.Sprintf(" %.4f (%d/%d) |", r.Rate, r.Hits, r.N)
				}
			}
			line += cell
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}
