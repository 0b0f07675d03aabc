package sanctions

import "golang.org/x/sys/unix"

// lowerThreadPriority lowers the calling thread's priority by n steps of nice (best effort).
// On Linux setpriority with PRIO_PROCESS and a thread id sets that thread's nice alone.
func lowerThreadPriority(n int) {
	tid := unix.Gettid()
	raw, err := unix.Getpriority(unix.PRIO_PROCESS, tid) // the kernel's 20 - nice
	if err != nil {
		return
	}
	_ = unix.Setpriority(unix.PRIO_PROCESS, tid, min(20-raw+n, 19))
}
