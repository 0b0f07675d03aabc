package sanctions

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// Health values of docs/design/design-choices.md §10's sanctions check.
const (
	HealthOK    = "ok"
	HealthEmpty = "empty"
	HealthError = "error"
)

// Service owns the live matcher of this replica and the rules around it:
// list imports, tenant watchlists, searches with reviewed false positives,
// and reloading when another replica announces a change.
type Service struct {
	store   Store
	matcher *Matcher
	now     func() time.Time
	log     *slog.Logger
	newID   func() string

	mu       sync.Mutex
	versions map[string]int64 // loaded version id per global list
	loadErr  error
	loaded   bool
	fresh    FreshnessPolicy
	// suppressed caches each tenant's active false positives.
	suppressed suppressionCache
}

// Deps are the Service's collaborators; all are required.
type Deps struct {
	Store   Store
	Matcher *Matcher
	Now     func() time.Time
	Logger  *slog.Logger
	NewID   func() string
}

// NewService returns the service. It panics on a missing dependency.
func NewService(d Deps) *Service {
	if d.Store == nil || d.Matcher == nil || d.Now == nil || d.Logger == nil || d.NewID == nil {
		panic("sanctions.NewService: missing dependency")
	}
	return &Service{store: d.Store, matcher: d.Matcher, now: d.Now, log: d.Logger, newID: d.NewID, versions: map[string]int64{}}
}

// Matcher returns the live matcher.
func (s *Service) Matcher() *Matcher { return s.matcher }

// Formats accepted by Import (docs/design/design-choices.md §1).
const (
	FormatOFACSDNCSV = "ofac-sdn-csv"
	FormatUNXML      = "un-xml"
)

// ImportParams describe one list import.
type ImportParams struct {
	List   string
	Type   ListType // SANCTIONS (default) or PEP
	Format string
	// Files: for ofac-sdn-csv sdn.csv, then optionally alt.csv and add.csv
	// (recognised by name, else taken in that order); for un-xml one file.
	Files []SourceFile
	// SourceVersion is the publisher's version id of the files (FtM: "20240527134702-zbn"), or "".
	SourceVersion string
	// StoreOnly stores the version without indexing it in this process's matcher: for
	// `complyd watchlist import`, a process that exits once the version is stored (the servers
	// index it on the import's notification). Indexing a 100,000-entry list there was seconds
	// of CPU thrown away.
	StoreOnly bool
}

// ImportResult is what Import did.
type ImportResult struct {
	Version ListVersion
	// Unchanged is set when the files equal the current version's; nothing was stored.
	Unchanged bool
}

// ParseFiles parses list files of a format. Errors wrap ErrBadListFile.
func ParseFiles(format string, files []SourceFile) ([]Entry, error) {
	switch format {
	case FormatOFACSDNCSV:
		sdn, alt, add, err := ofacFiles(files)
		if err != nil {
			return nil, err
		}
		return ParseOFAC(sdn, alt, add)
	case FormatUNXML:
		if len(files) != 1 {
			return nil, fmt.Errorf("%w: un-xml takes exactly one file", ErrBadListFile)
		}
		return ParseUN(strings.NewReader(string(files[0].Data)))
	case FormatEUXML, FormatUKCSV, FormatCSV, FormatJSONL:
		return parseMoreFormats(format, files)
	case FormatFtM:
		if len(files) != 1 {
			return nil, fmt.Errorf("%w: ftm takes exactly one file (entities.ftm.json)", ErrBadListFile)
		}
		return ParseFtM(bytes.NewReader(files[0].Data))
	}
	return nil, fmt.Errorf("unknown format %q (want %s, %s, %s, %s, %s, %s or %s)", format, FormatOFACSDNCSV, FormatUNXML,
		FormatEUXML, FormatUKCSV, FormatCSV, FormatJSONL, FormatFtM)
}

// Import parses the files, stores them as a new version of the list and makes
// it current in one transaction (with a re-screening job per tenant and the
// NotifyChannel notification), then swaps this replica's matcher. A file that
// does not parse fails with an error wrapping ErrBadListFile, and the version
// in force stays. Files identical to the current version are not stored again.
func (s *Service) Import(ctx context.Context, p ImportParams) (ImportResult, error) {
	if err := validListName(p.List); err != nil {
		return ImportResult{}, err
	}
	// An FtM list without a type keeps each entry's type from its topics (FtMListType).
	byTopics := p.Format == FormatFtM && p.Type == ""
	if p.Type == "" {
		p.Type = ListTypeSanctions
	}
	if p.Type != ListTypeSanctions && p.Type != ListTypePEP {
		return ImportResult{}, apperr.Invalid("type", "must be SANCTIONS or PEP")
	}
	entries, err := ParseFiles(p.Format, p.Files)
	if err != nil {
		return ImportResult{}, err
	}
	if byTopics {
		p.Type = ftmListType(entries)
	}
	for i := range entries {
		e := &entries[i]
		if e.List != p.List {
			// The parser names its own list; a list imported under another name
			// gets its own id space.
			e.ID = strings.ToLower(p.List) + ":" + e.SourceID
			e.List = p.List
		}
		if !byTopics {
			e.ListType = p.Type
		}
	}
	v := ListVersion{List: p.List, Type: p.Type, Format: p.Format, EntryCount: len(entries), ImportedAt: s.now(),
		PublishedAt: publishedAt(p.Format, p.SourceVersion, p.Files), SourceVersion: p.SourceVersion}
	for _, f := range p.Files {
		sum := sha256.Sum256(f.Data)
		v.Files = append(v.Files, FileDigest{Name: f.Name, SHA256: hex.EncodeToString(sum[:]), Bytes: len(f.Data)})
	}
	cur, err := s.store.CurrentVersions(ctx)
	if err != nil {
		return ImportResult{}, err
	}
	for _, c := range cur {
		if c.List == p.List && c.Format == p.Format && c.Type == p.Type && sameDigests(c.Files, v.Files) {
			return ImportResult{Version: c, Unchanged: true}, nil
		}
	}
	v, err = s.store.ImportList(ctx, v, entries, RescreenArgs{List: p.List})
	if err != nil {
		return ImportResult{}, fmt.Errorf("store list %s: %w", p.List, err)
	}
	if !p.StoreOnly {
		s.matcher.Replace(p.List, entries)
	}
	s.mu.Lock()
	s.versions[p.List] = v.ID
	s.loaded = true
	s.mu.Unlock()
	return ImportResult{Version: v}, nil
}

func sameDigests(a, b []FileDigest) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].SHA256 != b[i].SHA256 {
			return false
		}
	}
	return true
}

func validListName(name string) error {
	if name == "" || len(name) > 64 || strings.ContainsAny(name, ": \t\n") {
		return apperr.Invalid("list", "must be 1-64 characters without spaces or colons")
	}
	return nil
}

// ofacFiles picks sdn, alt and add from files: by base name (sdn*, alt*,
// add*, also cons_prim/cons_alt/cons_add) when they all have one, else in
// the order given.
//
// Missing files are untyped nil readers: a nil *strings.Reader in an
// io.Reader would look present to ParseOFAC.
func ofacFiles(files []SourceFile) (sdn, alt, add io.Reader, err error) {
	if len(files) == 0 || len(files) > 3 {
		return nil, nil, nil, fmt.Errorf("%w: ofac-sdn-csv takes sdn.csv and optionally alt.csv and add.csv", ErrBadListFile)
	}
	role := func(name string) string {
		base := strings.ToLower(name[strings.LastIndexAny(name, `/\`)+1:])
		base = strings.TrimPrefix(base, "cons_")
		switch {
		case strings.HasPrefix(base, "sdn"), strings.HasPrefix(base, "prim"):
			return "sdn"
		case strings.HasPrefix(base, "alt"):
			return "alt"
		case strings.HasPrefix(base, "add"):
			return "add"
		}
		return ""
	}
	byRole := map[string]*strings.Reader{}
	named := true
	for _, f := range files {
		r := role(f.Name)
		if r == "" || byRole[r] != nil {
			named = false
			break
		}
		byRole[r] = strings.NewReader(string(f.Data))
	}
	if !named {
		byRole = map[string]*strings.Reader{}
		for i, r := range []string{"sdn", "alt", "add"}[:len(files)] {
			byRole[r] = strings.NewReader(string(files[i].Data))
		}
	}
	if byRole["sdn"] == nil {
		return nil, nil, nil, fmt.Errorf("%w: ofac-sdn-csv: no sdn.csv among the files", ErrBadListFile)
	}
	reader := func(role string) io.Reader {
		if r := byRole[role]; r != nil {
			return r
		}
		return nil
	}
	return reader("sdn"), reader("alt"), reader("add"), nil
}

// LoadAll loads every current global list version and every tenant's
// watchlist entries into the matcher (start-up, and after the notification
// connection was lost). The global lists are read and indexed again only when
// their current versions differ from the ones in memory: a version never changes
// once stored, and the listener's first connection follows the start-up load
// within a second, where rebuilding the index again (about a second of CPU for
// the OFAC and UN lists) slowed the screenings a new replica was already taking.
func (s *Service) LoadAll(ctx context.Context) error {
	err := s.loadAll(ctx)
	s.mu.Lock()
	s.loadErr = err
	s.loaded = err == nil
	s.mu.Unlock()
	return err
}

func (s *Service) loadAll(ctx context.Context) error {
	vs, err := s.store.CurrentVersions(ctx)
	if err != nil {
		return fmt.Errorf("list versions: %w", err)
	}
	if !s.globalCurrent(vs) {
		lists := make(map[string][]Entry, len(vs))
		ids := make(map[string]int64, len(vs))
		for _, v := range vs {
			es, err := s.store.LoadVersion(ctx, v.ID)
			if err != nil {
				return fmt.Errorf("load %s v%d: %w", v.List, v.Version, err)
			}
			lists[v.List], ids[v.List] = es, v.ID
		}
		s.matcher.SetGlobal(lists)
		s.mu.Lock()
		s.versions = ids
		s.mu.Unlock()
	}
	tenants, err := s.store.TenantsWithEntries(ctx)
	if err != nil {
		return fmt.Errorf("list tenants: %w", err)
	}
	keep := make(map[tenancy.TenantID]bool, len(tenants))
	for _, t := range tenants {
		if err := s.ReloadTenant(ctx, t); err != nil {
			return err
		}
		keep[t] = true
	}
	s.matcher.RetainTenants(func(t tenancy.TenantID) bool { return keep[t] })
	s.suppressed.drop("")
	return nil
}

// globalCurrent reports whether the matcher holds exactly the global list
// versions vs, from a load that succeeded.
func (s *Service) globalCurrent(vs []ListVersion) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded || len(vs) != len(s.versions) {
		return false
	}
	for _, v := range vs {
		if id, ok := s.versions[v.List]; !ok || id != v.ID {
			return false
		}
	}
	return true
}

// ReloadList loads the current version of one global list unless it is
// already the one in memory.
func (s *Service) ReloadList(ctx context.Context, list string) error {
	vs, err := s.store.CurrentVersions(ctx)
	if err != nil {
		return err
	}
	for _, v := range vs {
		if v.List != list {
			continue
		}
		s.mu.Lock()
		have := s.versions[list]
		s.mu.Unlock()
		if have == v.ID {
			return nil
		}
		es, err := s.store.LoadVersion(ctx, v.ID)
		if err != nil {
			return err
		}
		s.matcher.Replace(list, es)
		s.mu.Lock()
		s.versions[list] = v.ID
		s.mu.Unlock()
		s.log.InfoContext(ctx, "sanctions list reloaded", "list", list, "version", v.Version, "entries", len(es))
		return nil
	}
	return nil
}

// ReloadTenant reloads one tenant's watchlist entries.
func (s *Service) ReloadTenant(ctx context.Context, tenantID tenancy.TenantID) error {
	es, err := s.store.TenantEntries(ctx, tenantID)
	if err != nil {
		return fmt.Errorf("load watchlists of %s: %w", tenantID, err)
	}
	// This replica's own change comes back as a notification too: when the entries in memory
	// already are the stored ones, the index (seconds for a large list) is not built again.
	if s.matcher.TenantEntriesEqual(tenantID, es) {
		return nil
	}
	s.matcher.SetTenantEntries(tenantID, es)
	return nil
}

// HandleNotification applies one NotifyChannel payload.
func (s *Service) HandleNotification(ctx context.Context, payload string) error {
	switch {
	case strings.HasPrefix(payload, NotifyTenantPrefix):
		return s.ReloadTenant(ctx, tenancy.TenantID(strings.TrimPrefix(payload, NotifyTenantPrefix)))
	case strings.HasPrefix(payload, NotifyFPPrefix):
		s.suppressed.drop(tenancy.TenantID(strings.TrimPrefix(payload, NotifyFPPrefix)))
		return nil
	case payload == "":
		return s.LoadAll(ctx)
	}
	return s.ReloadList(ctx, payload)
}

// Health reports docs/design/design-choices.md §10's sanctions check: "error" when the lists
// could not be loaded, "empty" when no global list is loaded, else "ok".
func (s *Service) Health(context.Context) string {
	s.mu.Lock()
	err := s.loadErr
	s.mu.Unlock()
	switch {
	case err != nil:
		return HealthError
	case s.matcher.Global().Len() == 0:
		return HealthEmpty
	}
	return HealthOK
}

// GlobalLists says whether any global list entries are loaded, and the last load's error. A
// failed reload leaves the lists loaded before it in place: those are still screened against.
func (s *Service) GlobalLists() (loaded bool, loadErr error) {
	s.mu.Lock()
	err := s.loadErr
	s.mu.Unlock()
	return s.matcher.Global().Len() > 0, err
}

// ScreenParams is one name search (POST /sanctions/search and the pipeline).
type ScreenParams struct {
	Name        string
	EntityType  EntityType
	DateOfBirth string
	Country     string
	// Threshold in (0,1], default DefaultThreshold; Limit 1..MaxLimit, default DefaultLimit.
	Threshold float64
	Limit     int
	// SubjectKey, when set, drops entries reviewed as false positives for it; SubjectKeys does
	// the same for several keys of one subject (its BVN and account number, say).
	SubjectKey  string
	SubjectKeys []string
}

// Screen searches the global lists and the tenant's watchlists, best first,
// without the tenant's reviewed false positives for p.SubjectKey.
// Codes: VALIDATION_ERROR.
func (s *Service) Screen(ctx context.Context, tenantID tenancy.TenantID, p ScreenParams) ([]Match, error) {
	if strings.TrimSpace(p.Name) == "" {
		return nil, apperr.Invalid("name", "must not be empty")
	}
	if p.Threshold < 0 || p.Threshold > 1 {
		return nil, apperr.Invalid("threshold", "must be between 0 and 1")
	}
	if p.Limit < 0 || p.Limit > MaxLimit {
		return nil, apperr.Invalid("limit", "must be between 1 and 100")
	}
	switch p.EntityType {
	case "", EntityIndividual, EntityBusiness:
	default:
		return nil, apperr.Invalid("entityType", "must be INDIVIDUAL or BUSINESS")
	}
	if p.Limit == 0 {
		p.Limit = DefaultLimit
	}
	var skip map[string]string
	keys := p.SubjectKeys
	if p.SubjectKey != "" {
		keys = append([]string{p.SubjectKey}, keys...)
	}
	if len(keys) > 0 {
		sup, err := s.suppressions(ctx, tenantID)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			for entry, id := range sup[k] {
				if skip == nil {
					skip = map[string]string{}
				}
				skip[entry] = id
			}
		}
	}
	q := Query{Name: p.Name, EntityType: p.EntityType, DateOfBirth: p.DateOfBirth, Country: p.Country,
		Threshold: p.Threshold, Limit: min(p.Limit+len(skip), MaxLimit)}
	ms := s.matcher.Search(tenantID, q)
	if len(skip) > 0 {
		ms = slices.DeleteFunc(ms, func(m Match) bool { _, ok := skip[m.EntryID]; return ok })
	}
	if len(ms) > p.Limit {
		ms = ms[:p.Limit]
	}
	return ms, nil
}

// suppressions returns the tenant's active false positives, cached until a
// change here or a NotifyFPPrefix notification.
func (s *Service) suppressions(ctx context.Context, tenantID tenancy.TenantID) (map[string]map[string]string, error) {
	return s.suppressed.get(ctx, tenantID, func(ctx context.Context) ([]FalsePositive, error) {
		return s.store.ActiveFalsePositives(ctx, tenantID)
	})
}

// findEntry returns the listed entry with id among the global lists and the tenant's entries.
func (s *Service) findEntry(tenantID tenancy.TenantID, id string) (Entry, bool) {
	for _, e := range s.matcher.Global().Entries() {
		if e.ID == id {
			return e, true
		}
	}
	if v, ok := s.matcher.tenants.Load(tenantID); ok {
		for _, e := range v.(*tenantIndex).idx.Load().Entries() {
			if e.ID == id {
				return e, true
			}
		}
	}
	return Entry{}, false
}
