// Package web holds the browser dashboard served at `/`. It is a static bundle embedded in the
// binary; it talks to the service with the cookie form of login (decisions.md §3).
package web

import "embed"

// Static is the dashboard bundle (static/).
//
//go:embed static
var Static embed.FS
