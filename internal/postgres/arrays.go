package postgres

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

// Array parameters of the screening store's batched statements (one element per screening of
// a batch, through unnest). pgx hands an array's elements to their encoder as interfaces: from
// a []string it boxes every string (one allocation each), from a []*string it copies each one
// out by reflection (one allocation each), and a uuid type with a driver.Valuer takes a detour
// that builds an error. These types hand pgx what it encodes directly
// (TestInsertArgsEncodeWithoutPerRowWork).

// textArray is a text[] parameter: its elements go to pgx as *textElem, a pointer into the
// slice (an interface holds it without allocating) that pgx's text encoder reads through
// pgtype.TextValuer.
type textArray []string

func (a textArray) Dimensions() []pgtype.ArrayDimension { return dimensions(len(a), a == nil) }
func (a textArray) Index(i int) any                     { return (*textElem)(&a[i]) }
func (a textArray) IndexType() any                      { return new(textElem) }

// textElem is an element of textArray or nullText.
type textElem string

func (t *textElem) TextValue() (pgtype.Text, error) {
	return pgtype.Text{String: string(*t), Valid: true}, nil
}

// nullText is a text[] parameter whose empty strings are NULL elements (what nullIfEmpty
// makes of a single value).
type nullText []string

func (a nullText) Dimensions() []pgtype.ArrayDimension { return dimensions(len(a), a == nil) }
func (a nullText) IndexType() any                      { return new(textElem) }

func (a nullText) Index(i int) any {
	if a[i] == "" {
		return nil
	}
	return (*textElem)(&a[i])
}

// timeArray is a timestamptz[] parameter, its elements handed out as *timeElem (pgx boxes a
// time.Time, and then boxes it again in a wrapper, two allocations per element).
type timeArray []time.Time

func (a timeArray) Dimensions() []pgtype.ArrayDimension { return dimensions(len(a), a == nil) }
func (a timeArray) Index(i int) any                     { return (*timeElem)(&a[i]) }
func (a timeArray) IndexType() any                      { return new(timeElem) }

// nullTime is a timestamptz[] parameter whose nil elements are NULL.
type nullTime []*time.Time

func (a nullTime) Dimensions() []pgtype.ArrayDimension { return dimensions(len(a), a == nil) }
func (a nullTime) IndexType() any                      { return new(timeElem) }

func (a nullTime) Index(i int) any {
	if a[i] == nil {
		return nil
	}
	return (*timeElem)(a[i])
}

// timeElem is an element of timeArray or nullTime.
type timeElem time.Time

func (t *timeElem) TimestamptzValue() (pgtype.Timestamptz, error) {
	return pgtype.Timestamptz{Time: time.Time(*t), Valid: true}, nil
}

// dimensions is a one-dimensional array's header; a nil slice is a NULL array, as pgx's own
// slices are.
func dimensions(n int, isNil bool) []pgtype.ArrayDimension {
	if isNil {
		return nil
	}
	return []pgtype.ArrayDimension{{Length: int32(n), LowerBound: 1}} //nolint:gosec // a batch's length
}

// uuidArray is a uuid[] parameter, its elements handed out as *uuidElem: given []string, pgx
// tried binary, built an error, searched the plans again and fell back to text for every such
// parameter of every batch; given []uuid.UUID, it took uuid.UUID's driver.Valuer, and for
// every id of every batch built an error (fmt.Errorf) and parsed the id's string back.
type uuidArray []uuid.UUID

func (a uuidArray) Dimensions() []pgtype.ArrayDimension { return dimensions(len(a), a == nil) }
func (a uuidArray) Index(i int) any                     { return (*uuidElem)(&a[i]) }
func (a uuidArray) IndexType() any                      { return new(uuidElem) }

// uuidElem is an element of uuidArray.
type uuidElem uuid.UUID

func (u *uuidElem) UUIDValue() (pgtype.UUID, error) { return pgtype.UUID{Bytes: *u, Valid: true}, nil }

// parseUUIDs parses ids for a uuid[] parameter. Errors: an id that is not a uuid.
func parseUUIDs(ids []string) (uuidArray, error) {
	out := make(uuidArray, len(ids))
	for i, id := range ids {
		u, err := uuid.Parse(id)
		if err != nil {
			return nil, fmt.Errorf("id %q is not a uuid: %w", id, err)
		}
		out[i] = u
	}
	return out, nil
}
