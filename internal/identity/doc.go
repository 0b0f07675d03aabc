// Package identity owns identity verification: the verification types (BVN, NIN, CAC, LIVENESS,
// FACE_MATCH), their request and result shapes, the Provider port, the provider Chain with its
// outage fallback and BYOL tier rules (docs/reference/specification.md 3.2 rule 6, docs/design/design-choices.md §6), the embedded
// sandbox provider answering from a JSON registry, image decoding, face detection (pigo) and the
// sandbox-grade liveness and face-match heuristics, and the biometric-verify decision (spec 4.4).
//
// identity is database-free and transport-free: it imports the standard library, apperr, tenancy
// and github.com/esimov/pigo only. It must never import pgx, squirrel, river, connect, net/http or
// any adapter; the BYOL HTTP provider lives in internal/idhttp and implements Provider.
//
// Charging is not done here: callers (kyc, kyb, lookup) charge the wallet after a definite answer
// and never after an error, so an outage (apperr PROVIDER_UNAVAILABLE) is never charged.
package identity
