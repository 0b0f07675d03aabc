package app

import (
	"fmt"
	"io"

	"github.com/complyd/complyd/internal/sanctions"
)

// writeEvalReport prints the overall table for every split present in the set and the per-kind
// recall and false alert rates at the default threshold, tuning split beside the held-out one.
func writeEvalReport(out io.Writer, idx *sanctions.Index, cases []sanctions.EvalCase) error {
	thresholds := []float64{0.75, 0.85, 0.95}
	splits := []struct{ name, split string }{{"all", ""}, {"tune", sanctions.SplitTune}, {"held-out", sanctions.SplitHeldOut}}
	var names []string
	var kinds [][]sanctions.KindResult
	for _, s := range splits {
		cs := sanctions.FilterSplit(cases, s.split)
		if len(cs) == 0 {
			continue
		}
		if _, err := fmt.Fprintf(out, "%s (%d cases):\n\n", s.name, len(cs)); err != nil {
			return err
		}
		if err := sanctions.WriteEvalTable(out, sanctions.Evaluate(idx, cs, thresholds)); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(out); err != nil {
			return err
		}
		if s.split != "" {
			names = append(names, s.name)
			kinds = append(kinds, sanctions.EvaluateKinds(idx, cs, sanctions.DefaultThreshold))
		}
	}
	if len(kinds) == 0 {
		names, kinds = []string{"all"}, [][]sanctions.KindResult{sanctions.EvaluateKinds(idx, cases, sanctions.DefaultThreshold)}
	}
	if _, err := fmt.Fprintf(out, "per kind at %.2f:\n\n", sanctions.DefaultThreshold); err != nil {
		return err
	}
	return sanctions.WriteKindTable(out, names, kinds)
}
