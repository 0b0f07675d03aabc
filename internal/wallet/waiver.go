package wallet

// Charge says whether a paid call's answer is charged. The provider that answers decides: the
// embedded sandbox outside `complyd dev`, whose registry is fictitious
// (docs/guide/identity-providers.md), answers Waived. Which provider answers is known only after
// the call (a chain may fall back from one provider to another), so the call returns its Charge
// with its value and Paid reads it once the call has returned. The zero value is Charged.
type Charge uint8

// The two charges of a paid call.
const (
	// Charged: the hold is settled in the transaction that stores the answer.
	Charged Charge = iota
	// Waived: the hold is released and the answer is stored with a zero Hold (no charge).
	Waived
)

// Or is Waived when either c or o is: a paid call made of several provider calls (a liveness
// check and the face match after it) is free when any of its answers came free.
func (c Charge) Or(o Charge) Charge {
	if c == Waived || o == Waived {
		return Waived
	}
	return Charged
}
