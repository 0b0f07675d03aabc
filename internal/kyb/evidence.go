package kyb

import (
	"fmt"
	"strings"

	"github.com/complyd/complyd/internal/evidence"
)

// Check kinds of a KYB application's evidence list.
const (
	CheckKindCAC       = "CAC_VERIFICATION"
	CheckKindDirectors = "DIRECTORS"
	CheckKindDirector  = "DIRECTOR_CHECK"
	CheckKindOwners    = "BENEFICIAL_OWNERS"
	CheckKindOwner     = "BENEFICIAL_OWNER_SCREENING"
)

// OpenChecks lists what the application failed or is missing (issue 48 point 4, docs/guide/kyb.md
// "Evidence and overrides"): the CAC verification, a check of each director, and a sanctions/PEP
// screening of each beneficial owner (spec 3.3). A step is FAILED when its last check ran and
// did not pass, else MISSING. checks are the application's evidence trail, oldest first.
func (a Application) OpenChecks(checks []Check) []evidence.Check {
	lastFailed := map[string]bool{} // type + subject → the last check of it failed
	reason := map[string]string{}   // type + subject → the last failed check's reason
	for _, c := range checks {
		k := c.Type + "\x00" + strings.ToLower(c.Subject)
		lastFailed[k] = !c.Passed
		reason[k], _ = c.Detail["reason"].(string)
	}
	anyFailed := func(typ string) bool {
		for k, f := range lastFailed {
			if f && strings.HasPrefix(k, typ+"\x00") {
				return true
			}
		}
		return false
	}
	status := func(failed bool) string {
		if failed {
			return evidence.Failed
		}
		return evidence.Missing
	}
	var out []evidence.Check
	if !a.CACVerified {
		detail := "the company is not verified with the CAC registry"
		if a.RCNumber == "" {
			detail = "no RC number given"
		}
		out = append(out, evidence.Check{Kind: CheckKindCAC, Status: status(anyFailed(CheckCAC)), Detail: detail})
	}
	if len(a.Directors) == 0 {
		out = append(out, evidence.Check{Kind: CheckKindDirectors, Status: evidence.Missing, Detail: "no director given"})
	}
	for _, d := range a.Directors {
		if d.Verified {
			continue
		}
		k := CheckDir + "\x00" + strings.ToLower(d.Name)
		f := lastFailed[k]
		detail := "director not checked"
		if f {
			detail = "director check failed"
			if reason[k] != "" {
				detail += ": " + reason[k]
			}
		}
		out = append(out, evidence.Check{Kind: CheckKindDirector, Status: status(f), Detail: detail, Subject: d.Name})
	}
	if len(a.Owners) == 0 {
		out = append(out, evidence.Check{Kind: CheckKindOwners, Status: evidence.Missing, Detail: "no beneficial owner given"})
	}
	for _, o := range a.Owners {
		switch {
		case o.Clean == nil:
			out = append(out, evidence.Check{Kind: CheckKindOwner, Status: evidence.Missing, Detail: "owner not screened", Subject: o.Name})
		case !*o.Clean:
			names := make([]string, 0, len(o.Hits))
			for _, h := range o.Hits {
				names = append(names, fmt.Sprintf("%s on %s (%.2f)", h.MatchedName, h.List, h.Score))
			}
			out = append(out, evidence.Check{Kind: CheckKindOwner, Status: evidence.Failed,
				Detail: "screening hits: " + strings.Join(names, "; "), Subject: o.Name})
		}
	}
	return out
}
