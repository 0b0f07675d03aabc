//go:build !benchfloor

package app

import "github.com/complyd/complyd/internal/screening"

// benchFloorBuild is true only in the benchmark's floor binary (bench_floor.go).
const benchFloorBuild = false

// floorStore is the identity outside the floor binary: every screening is read and stored.
func floorStore(s screening.Store) screening.Store { return s }
