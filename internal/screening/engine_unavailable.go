package screening

// EngineUnavailable is an engine's failure for want of what it screens against, rather than an
// error or a missed deadline: the sanctions engine with no list loaded, or after a failed load.
// A fail-open engine that returns it is recorded as skipped with Reason as the skip reason
// (never as a clean score), and the transaction is queued for retroactive screening like any
// other fail-open skip, so that it is screened once the lists are back.
type EngineUnavailable struct {
	Reason string
}

func (e *EngineUnavailable) Error() string { return e.Reason }

// Skip reasons of the sanctions engine when it has nothing to screen against.
const (
	ReasonNoSanctionsList = "no sanctions list loaded"
	ReasonListLoadFailed  = "list load failed"
)
