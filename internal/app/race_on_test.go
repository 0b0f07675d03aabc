//go:build race

package app

// raceEnabled: the race detector slows the code it watches several times over, so a test's
// bound on elapsed time (an issue's target) is not checked under it; its results still are.
const raceEnabled = true
