package idhttp

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// ErrBlockedAddress is returned (wrapped with identity.ErrOutage) when the provider's address
// resolves to a loopback, private, link-local or otherwise internal IP and AllowPrivate is off.
var ErrBlockedAddress = errors.New("identity provider address is not a public address")

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// blockedIP reports whether ip is an address a tenant-configured URL must never reach.
func blockedIP(ip netip.Addr) bool {
	ip = ip.Unmap()
	return !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() ||
		ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() || ip.IsMulticast() ||
		ip.IsUnspecified() || cgnat.Contains(ip) || (ip.Is4() && ip.As4()[0] == 0)
}

// guardControl is a net.Dialer Control hook: it runs after DNS resolution with the literal IP
// being dialled, so a hostname that resolves (or re-resolves) to an internal address is refused.
func guardControl(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrBlockedAddress, address)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || blockedIP(ip) {
		return fmt.Errorf("%w: %s", ErrBlockedAddress, host)
	}
	return nil
}
