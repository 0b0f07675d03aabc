// Package benchfloor is the screening benchmark's floor build (`go build -tags benchfloor`,
// `FLOOR=1 scripts/bench-screening-ramp.sh`): with the tag, Store replaces the screening
// store's reads and writes by answers that make no database round trip, so that a ramp measures
// what the server spends on everything but the database. Without the tag (every binary that
// serves a bank) Store is the identity and Enabled is false. It lives here, outside
// internal/app, so that the wiring only asks benchfloor.Store and never carries a stub of its
// own.
package benchfloor
