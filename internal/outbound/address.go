// Package outbound is the one guard on every URL complyd calls on a tenant's behalf: webhook
// endpoints and BYOL identity providers. It judges addresses (ForbiddenAddr), configured URLs
// (ValidateURL, at configuration time) and the IP actually dialled (DialControl, after DNS
// resolution, so that a name re-resolved to an internal address is refused too). It imports the
// standard library and apperr only.
package outbound

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/complyd/complyd/internal/apperr"
)

// MaxURLLen bounds a configured URL.
const MaxURLLen = 2048

// blockedPrefixes are ranges that ForbiddenAddr refuses on top of the net/netip predicates.
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // CGNAT, RFC 6598
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking, RFC 2544
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and 255.255.255.255 broadcast
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64: could reach any IPv4, private included
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64, RFC 8215
	netip.MustParsePrefix("fec0::/10"),       // deprecated site-local
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated
	netip.MustParsePrefix("2002::/16"),       // 6to4 embeds arbitrary IPv4
}

// ForbiddenAddr reports whether an outgoing call must never reach ip unless private addresses are
// allowed (COMPLYD_WEBHOOK_ALLOW_PRIVATE, COMPLYD_IDENTITY_ALLOW_PRIVATE): loopback, private (RFC 1918, IPv6 ULA fc00::/7),
// CGNAT, link-local (which includes cloud metadata at 169.254.169.254), multicast, unspecified,
// and the reserved ranges in blockedPrefixes. IPv4-mapped IPv6 addresses are judged as IPv4.
func ForbiddenAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified() ||
		ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() ||
		ip.IsMulticast() {
		return true
	}
	for _, p := range blockedPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// ValidateURL checks a configured URL (field names it in the error: webhookUrl, byol.baseUrl):
// an absolute http(s) URL without userinfo or fragment; https is required unless allowPrivate;
// and unless allowPrivate the host may not be a forbidden IP literal (ForbiddenAddr, which covers
// cloud metadata at 169.254.169.254) or a localhost name. Host names are checked again on every
// call, after DNS resolution, by DialControl. An empty URL is valid (the feature is off).
//
// Errors: VALIDATION_ERROR on field.
func ValidateURL(field, raw string, allowPrivate bool) error {
	if raw == "" {
		return nil
	}
	bad := func(msg string) error { return apperr.Invalid(field, msg) }
	if len(raw) > MaxURLLen {
		return bad("is too long")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return bad("is not a valid URL")
	}
	switch {
	case !u.IsAbs() || u.Host == "" || u.Opaque != "":
		return bad("must be an absolute URL")
	case u.Scheme != "https" && !(allowPrivate && u.Scheme == "http"):
		return bad("must use https")
	case u.User != nil:
		return bad("must not contain user credentials")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return bad("must not contain a fragment")
	}
	if allowPrivate {
		return nil
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return bad("must not point to a loopback or private address")
	}
	if ip, err := netip.ParseAddr(host); err == nil && ForbiddenAddr(ip) {
		return bad("must not point to a loopback or private address")
	}
	return nil
}
