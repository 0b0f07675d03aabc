package postgres

// Names the sub-package sanctionsstore uses (docs/design/architecture.md "Storage adapter"):
// exported wrappers, so that the files that declare them stay as they are.

import (
	"context"

	sq "github.com/Masterminds/squirrel"
)

// Exec is exec, exported.
func Exec(ctx context.Context, tx writer, b sq.Sqlizer) error {
	return exec(ctx, tx, b)
}
