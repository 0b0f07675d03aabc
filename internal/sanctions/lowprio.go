package sanctions

import "runtime"

// importNice is how many steps of nice (CPU priority) below the process's own a tenant
// import's CPU-heavy steps run (the parse of the document and the rebuild of the tenant's
// index). On Linux CPU time is shared fairly between the process groups of the machine
// (autogroups) and, within the server's share, between its threads by their nice: at the same
// nice an import's thread took half of the server's share from the other tenants' screenings
// whenever both ran (their p99 doubled and more, docs/guide/watchlists.md "Import at scale"). Ten
// steps lower it gets about a tenth of the share while screenings want the processor and all of
// it when they do not: an import on an idle server is as fast as before.
const importNice = 10

// lowPriority runs fn on an operating-system thread of its own, importNice steps of nice below
// the process's, and returns when fn has: the thread is locked to fn's goroutine and never
// unlocked, so it exits with the goroutine and its priority with it (raising it back needs a
// privilege the server may not have). Where the thread's priority cannot be set (not Linux, or
// refused) fn runs at the process's priority; a panic in fn is raised again in the caller.
func lowPriority(fn func()) {
	done := make(chan any)
	go func() {
		runtime.LockOSThread()
		defer func() { done <- recover() }()
		lowerThreadPriority(importNice)
		fn()
	}()
	if p := <-done; p != nil {
		panic(p)
	}
}
