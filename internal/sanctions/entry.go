package sanctions

import "slices"

// ListType says what kind of list an entry comes from (docs/design/design-choices.md §10).
type ListType string

// The list types of docs/design/design-choices.md §10.
const (
	ListTypeSanctions ListType = "SANCTIONS"
	ListTypePEP       ListType = "PEP"
	ListTypeInternal  ListType = "INTERNAL"
)

// EntityType is the kind of party an entry names.
type EntityType string

// The entity types. The API accepts INDIVIDUAL and BUSINESS; OFAC also
// lists vessels and aircraft, which a BUSINESS query also screens.
const (
	EntityIndividual EntityType = "INDIVIDUAL"
	EntityBusiness   EntityType = "BUSINESS"
	EntityVessel     EntityType = "VESSEL"
	EntityAircraft   EntityType = "AIRCRAFT"
)

// AliasQuality grades an alias. Weak aliases (OFAC remarks a.k.a. 'X', UN
// "Low") are screened but can never reach the BLOCK band on their own.
type AliasQuality string

// The alias qualities.
const (
	AliasStrong AliasQuality = "strong"
	AliasWeak   AliasQuality = "weak"
)

// Names of the global lists produced by the parsers.
const (
	ListOFACSDN = "OFAC-SDN"
	ListUNSC    = "UN-SC"
)

// Alias is one other name of an entry.
type Alias struct {
	Name    string
	Quality AliasQuality
}

// Entry is one listed party: a global list record or a tenant watchlist entry.
type Entry struct {
	// ID is unique across all lists: "ofac-sdn:<ent_num>", "un-sc:<DATAID>",
	// or a tenant watchlist entry id.
	ID string
	// SourceID is the list's own identifier (OFAC ent_num, UN DATAID, the
	// tenant entry's reference, else its id).
	SourceID string
	// List is the list's name, e.g. ListOFACSDN or a tenant watchlist name.
	List       string
	ListType   ListType
	EntityType EntityType
	// Name is the primary name in display order ("Given SURNAME").
	Name    string
	Aliases []Alias
	// DatesOfBirth holds "YYYY-MM-DD", "YYYY-MM", "YYYY" or "YYYY/YYYY" (a range).
	DatesOfBirth  []string
	Nationalities []string
	// Countries are the address countries.
	Countries []string
	Addresses []string
	Programs  []string
	Remarks   string
}

// sameEntry says whether a and b are the same entry field for field.
func sameEntry(a, b Entry) bool {
	return a.ID == b.ID && a.SourceID == b.SourceID && a.List == b.List && a.ListType == b.ListType &&
		a.EntityType == b.EntityType && a.Name == b.Name && a.Remarks == b.Remarks &&
		slices.Equal(a.Aliases, b.Aliases) && slices.Equal(a.DatesOfBirth, b.DatesOfBirth) &&
		slices.Equal(a.Nationalities, b.Nationalities) && slices.Equal(a.Countries, b.Countries) &&
		slices.Equal(a.Addresses, b.Addresses) && slices.Equal(a.Programs, b.Programs)
}
