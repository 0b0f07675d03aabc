// Package door is the first stage of screening admission (package admission explains the
// whole path): the HTTP handler in front of every transport that bounds the unary screenings
// in progress in the process and refuses one more from its headers alone. It is the one part
// of admission that touches net/http, so it lives apart from the core package the screening
// service imports.
package door
