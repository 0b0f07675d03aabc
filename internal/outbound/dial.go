package outbound

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// ErrForbiddenAddress is returned (wrapped) when a call would connect to an address that
// ForbiddenAddr refuses.
var ErrForbiddenAddress = errors.New("outgoing address not allowed")

// DialControl is a net.Dialer Control hook: address is the resolved ip:port about to be
// connected, so the guard judges the peer itself, whatever name led to it.
func DialControl(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrForbiddenAddress, address)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || ForbiddenAddr(ip) {
		return fmt.Errorf("%w: %s", ErrForbiddenAddress, host)
	}
	return nil
}
