//go:build !benchfloor

package benchfloor

import "github.com/complyd/complyd/internal/screening"

// Enabled is true only in the benchmark's floor binary (floor.go, `-tags benchfloor`).
const Enabled = false

// Store is the identity outside the floor binary: every screening is read and stored.
func Store(s screening.Store) screening.Store { return s }
