package sanctions

import (
	"time"

	"github.com/complyd/complyd/internal/tenancy"
)

// Watchlist is a tenant-managed list screened alongside the global lists
// (docs/design/design-choices.md §10).
type Watchlist struct {
	ID         string
	TenantID   tenancy.TenantID
	Name       string
	Type       ListType
	EntryCount int
	CreatedBy  string
	CreatedAt  time.Time
}

// WatchlistEntry is one party on a tenant watchlist.
type WatchlistEntry struct {
	ID          string
	TenantID    tenancy.TenantID
	WatchlistID string
	Name        string
	Aliases     []string
	// EntityType is INDIVIDUAL, BUSINESS or "" (screened by any query).
	EntityType EntityType
	// DateOfBirth is "YYYY-MM-DD" or "".
	DateOfBirth string
	// Country is a name or ISO 3166 alpha-2 code, or "".
	Country string
	// Reference is the tenant's own id of the party; it becomes SourceID.
	Reference string
	CreatedBy string
	CreatedAt time.Time
}

// NewWatchlistEntry is the body of POST /watchlists/{id}/entries.
type NewWatchlistEntry struct {
	Name        string
	Aliases     []string
	EntityType  EntityType
	DateOfBirth string
	Country     string
	Reference   string
}

// MatcherEntry converts a watchlist entry to the matcher's Entry: its id is
// the entry id, its SourceID the reference (else the id), its list the
// watchlist's name and type (docs/design/design-choices.md §10).
func (e WatchlistEntry) MatcherEntry(list Watchlist) Entry {
	out := Entry{ID: e.ID, SourceID: e.Reference, List: list.Name, ListType: list.Type, EntityType: e.EntityType, Name: e.Name}
	if out.SourceID == "" {
		out.SourceID = e.ID
	}
	for _, a := range e.Aliases {
		out.Aliases = append(out.Aliases, Alias{Name: a, Quality: AliasStrong})
	}
	if e.DateOfBirth != "" {
		out.DatesOfBirth = []string{e.DateOfBirth}
	}
	if e.Country != "" {
		out.Countries = []string{e.Country}
	}
	return out
}

// FalsePositive is a reviewed false positive: while active, searches and
// screenings that pass SubjectKey no longer report EntryID.
type FalsePositive struct {
	ID         string
	TenantID   tenancy.TenantID
	SubjectKey string
	EntryID    string
	Reason     string
	CreatedBy  string
	CreatedAt  time.Time
	RevokedAt  *time.Time
	RevokedBy  string
}

// Active reports whether the suppression is in force.
func (f FalsePositive) Active() bool { return f.RevokedAt == nil }

// SourceFile is one downloaded or uploaded list file.
type SourceFile struct {
	Name string
	Data []byte
}

// FileDigest records one imported file.
type FileDigest struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
}

// ListVersion is one imported version of a global list.
type ListVersion struct {
	ID         int64
	List       string
	Type       ListType
	Version    int
	Format     string
	Files      []FileDigest
	EntryCount int
	ImportedAt time.Time
	// PublishedAt is when the publisher published this version, read from its files (the
	// snapshot's date, UN dateGenerated, an FtM version's time); zero when they do not say.
	PublishedAt time.Time
	// SourceVersion is the publisher's own version id (FtM: "20240527134702-zbn"), else "".
	SourceVersion string
}
