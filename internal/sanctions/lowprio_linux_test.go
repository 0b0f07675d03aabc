package sanctions

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestLowPriorityThread: fn runs on a thread importNice steps of nice below the caller's (or at
// the lowest, 19), and the caller's thread keeps its own; a panic in fn reaches the caller.
func TestLowPriorityThread(t *testing.T) {
	nice := func() int {
		raw, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
		if err != nil {
			t.Fatal(err)
		}
		return 20 - raw
	}
	base := nice()
	var inside int
	lowPriority(func() { inside = nice() })
	if want := min(base+importNice, 19); inside != want {
		t.Fatalf("nice inside lowPriority %d, want %d (the caller's %d)", inside, want, base)
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the panic of fn", r)
		}
	}()
	lowPriority(func() { panic("boom") })
}
