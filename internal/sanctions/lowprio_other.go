//go:build !linux

package sanctions

// lowerThreadPriority does nothing where a thread's priority is not set (see lowPriority).
func lowerThreadPriority(int) {}
