// Package paging holds the paginated-list conventions of docs/reference/specification.md §1.4 and
// docs/design/design-choices.md §11: page ≥ 1 and limit ≥ 1 (else 400), limits above the maximum are clamped.
//
// paging is a leaf: it imports only apperr.
package paging

import "github.com/complyd/complyd/internal/apperr"

// Params is a validated page request.
type Params struct {
	Page  int
	Limit int
}

// Offset is the number of rows before the page.
func (p Params) Offset() int { return (p.Page - 1) * p.Limit }

// New validates page and limit (nil means the default) and clamps limit to max.
func New(page, limit *int32, defaultLimit, max int) (Params, error) {
	p := Params{Page: 1, Limit: defaultLimit}
	if page != nil {
		if *page < 1 {
			return p, apperr.Invalid("page", "must be at least 1")
		}
		p.Page = int(*page)
	}
	if limit != nil {
		if *limit < 1 {
			return p, apperr.Invalid("limit", "must be at least 1")
		}
		p.Limit = int(*limit)
	}
	if p.Limit > max {
		p.Limit = max
	}
	return p, nil
}

// Result is one page of items with the totals of the list payload.
type Result[T any] struct {
	Items []T
	Total int
	Page  int
	Limit int
}

// TotalPages is ceil(Total/Limit).
func (r Result[T]) TotalPages() int {
	if r.Limit <= 0 {
		return 0
	}
	return (r.Total + r.Limit - 1) / r.Limit
}
