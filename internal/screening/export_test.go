package screening

// ShadowResultsOf exposes the Service's shadow step to the external tests: the results of the
// shadowed drafts evaluated in res, as the Service records them after storing rec.
func ShadowResultsOf(rec *Record, caseID string) []ShadowResult {
	return shadowResults(rec, caseID, nil)
}

// ActiveShadows exposes the Service's end-time filter of shadowed drafts.
var ActiveShadows = activeShadows
