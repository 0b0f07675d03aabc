// Package idhttp is the BYOL (bring your own licence) identity provider: a generic HTTP client
// for a tenant's own identity vendor, configured by identity.BYOLConfig (endpoint paths, API key
// and app id headers, request and response field mappings, match threshold, timeout), that
// implements identity.Provider.
//
// Status mapping (docs/design/design-choices.md §6): a 2xx reply is an answer; a status listed in
// notFoundStatuses (default 404) is a definite "no such record" (found=false, chargeable); a
// timeout, a connection error, a 5xx, any other 4xx (bad credentials, rate limiting: the vendor
// gave no answer) and an undecodable 2xx body wrap identity.ErrOutage, so the identity.Chain
// falls back and nothing is charged.
//
// Outgoing connections refuse loopback, private, link-local, CGNAT, multicast and unspecified
// addresses after DNS resolution (ssrf.go) unless Config.AllowPrivate is set (tests, dev).
//
// idhttp imports identity and the standard library; it must not import other adapters.
package idhttp
