package sanctions

import (
	"context"
	"fmt"
	"time"
)

// ListHealth is one global list as /health reports it: the version in force and its age.
type ListHealth struct {
	List       string    `json:"list"`
	Version    int       `json:"version"`
	Entries    int       `json:"entries"`
	ImportedAt time.Time `json:"importedAt"`
	// PublishedOn is the list's date when its file names carry one (the snapshot shipped with
	// complyd is stored as sdn.snapshot-2023-12-28.csv, …), else empty.
	PublishedOn string `json:"publishedOn,omitempty"`
	// AgeDays counts whole days since PublishedOn, else since ImportedAt.
	AgeDays int `json:"ageDays"`
}

// ListsHealth returns the current version of every global list, by list name.
func (s *Service) ListsHealth(ctx context.Context) ([]ListHealth, error) {
	vs, err := s.store.CurrentVersions(ctx)
	if err != nil {
		return nil, fmt.Errorf("list versions: %w", err)
	}
	now := s.now()
	out := make([]ListHealth, 0, len(vs))
	for _, v := range vs {
		h := ListHealth{List: v.List, Version: v.Version, Entries: v.EntryCount, ImportedAt: v.ImportedAt}
		since := v.ImportedAt
		for _, f := range v.Files {
			if m := datedFile.FindStringSubmatch(f.Name); m != nil {
				if d, err := time.Parse(time.DateOnly, m[1]); err == nil {
					h.PublishedOn, since = m[1], d
					break
				}
			}
		}
		h.AgeDays = int(now.Sub(since).Hours() / 24)
		out = append(out, h)
	}
	return out, nil
}
