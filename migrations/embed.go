// Package migrations embeds the numbered SQL migrations applied by goose (`complyd migrate`,
// `serve`, `dev`). Files are NNNN_name.sql with goose Up/Down sections.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
