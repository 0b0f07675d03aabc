package sanctions

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// Row formats of a list in the house format (docs/guide/watchlists.md "CSV and JSON Lines"): one party
// per row with the fields of a watchlist entry. The same parser serves the tenant API
// (ImportEntries) and `complyd watchlist import --format csv|jsonl` for a global list.
const (
	RowFormatCSV   = "CSV"
	RowFormatJSONL = "JSONL"
)

// Import limits: a row file larger than this is refused whole; at most MaxImportErrors row errors
// are reported (the import fails on the first anyway).
const (
	MaxImportBytes  = 10 << 20
	MaxImportRows   = 100_000
	MaxImportErrors = 1000
	maxAliases      = 50
)

// RowError is one bad field of one row; Line is the file's line (1-based, the CSV header is 1).
type RowError struct {
	Line    int
	Field   string
	Message string
}

// ParsedRow is a valid row and its line.
type ParsedRow struct {
	Line  int
	Entry NewWatchlistEntry
}

// fieldNames maps the accepted column (CSV) and key (JSONL) names, compared lower-case without
// '_' or '-', to the canonical field.
var fieldNames = map[string]string{
	"name": "name", "fullname": "name",
	"aliases": "aliases", "alias": "aliases", "aka": "aliases",
	"entitytype": "entityType", "type": "entityType",
	"dateofbirth": "dateOfBirth", "dob": "dateOfBirth", "birthdate": "dateOfBirth",
	"country": "country", "nationality": "country",
	"reference": "reference", "id": "reference", "ref": "reference",
}

func canonicalField(s string) (string, bool) {
	k := strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.TrimSpace(s)))
	f, ok := fieldNames[k]
	return f, ok
}

// ParseRows reads a CSV or JSON Lines list. It returns the valid rows, the number of data rows
// and every row error (up to MaxImportErrors); the caller keeps nothing when errs is not empty.
func ParseRows(format string, content []byte) (rows []ParsedRow, n int, errs []RowError) {
	return parseRows(format, content, nil)
}

// parseRows is ParseRows paced by pace (nil: it only yields).
func parseRows(format string, content []byte, pace *pacer) (rows []ParsedRow, n int, errs []RowError) {
	if len(content) > MaxImportBytes {
		return nil, 0, []RowError{{Line: 0, Message: fmt.Sprintf("the file is larger than %d bytes", MaxImportBytes)}}
	}
	content = bytes.TrimPrefix(content, []byte("\xef\xbb\xbf")) // a UTF-8 BOM, as spreadsheets write it
	switch strings.ToUpper(format) {
	case RowFormatCSV:
		return parseCSVRows(content, newTokenMemo(), pace)
	case RowFormatJSONL:
		return parseJSONLRows(content, newTokenMemo(), pace)
	}
	return nil, 0, []RowError{{Field: "format", Message: "must be CSV or JSONL"}}
}

func parseCSVRows(content []byte, memo *tokenMemo, pace *pacer) (rows []ParsedRow, n int, errs []RowError) {
	r := csv.NewReader(bytes.NewReader(content))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil, 0, []RowError{{Line: 1, Message: "the file has no header row (name,aliases,entityType,dateOfBirth,country,reference)"}}
	}
	cols := make([]string, len(head))
	seen := map[string]bool{}
	for i, h := range head {
		f, ok := canonicalField(h)
		if !ok {
			errs = append(errs, RowError{Line: 1, Field: h, Message: "unknown column; accepted: name, aliases, entityType, dateOfBirth, country, reference"})
			continue
		}
		if seen[f] {
			errs = append(errs, RowError{Line: 1, Field: h, Message: "column given twice"})
		}
		seen[f], cols[i] = true, f
	}
	if !seen["name"] {
		errs = append(errs, RowError{Line: 1, Field: "name", Message: "the header has no name column"})
	}
	if len(errs) > 0 {
		return nil, 0, errs
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			errs = append(errs, RowError{Line: line, Message: "not valid CSV: " + err.Error()})
			break // the reader cannot resynchronise after a quoting error
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		n++
		var e NewWatchlistEntry
		var bad []RowError
		if len(rec) != len(cols) {
			bad = append(bad, RowError{Line: line, Message: fmt.Sprintf("has %d fields, the header has %d", len(rec), len(cols))})
		}
		for i := 0; i < len(rec) && i < len(cols); i++ {
			v := strings.TrimSpace(rec[i])
			switch cols[i] {
			case "name":
				e.Name = v
			case "aliases":
				e.Aliases = splitAliases(v)
			case "entityType":
				e.EntityType = EntityType(strings.ToUpper(v))
			case "dateOfBirth":
				e.DateOfBirth = v
			case "country":
				e.Country = v
			case "reference":
				e.Reference = v
			}
		}
		bad = append(bad, checkRow(line, &e, memo)...)
		pace.every(n, 7)
		errs, rows = collectRow(errs, rows, bad, line, e)
		if n > MaxImportRows {
			return nil, n, append(errs, RowError{Line: line, Message: fmt.Sprintf("more than %d rows; split the file", MaxImportRows)})
		}
	}
	return rows, n, errs
}

// splitAliases splits the aliases cell on ';' or '|' (a comma would split "SURNAME, Given").
func splitAliases(v string) []string {
	if v == "" {
		return nil
	}
	var out []string
	for _, a := range strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == '|' }) {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

func parseJSONLRows(content []byte, memo *tokenMemo, pace *pacer) (rows []ParsedRow, n int, errs []RowError) {
	for i, raw := range bytes.Split(content, []byte("\n")) {
		line := i + 1
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		n++
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			errs = append(errs, RowError{Line: line, Message: "not a JSON object: " + err.Error()})
			continue
		}
		var e NewWatchlistEntry
		var bad []RowError
		for _, k := range slices.Sorted(maps.Keys(obj)) { // sorted: the same file gives the same errors
			v := obj[k]
			f, ok := canonicalField(k)
			if !ok {
				bad = append(bad, RowError{Line: line, Field: k, Message: "unknown field"})
				continue
			}
			if f == "aliases" {
				var list []string
				if err := json.Unmarshal(v, &list); err == nil {
					e.Aliases = list
					continue
				}
			}
			var s *string
			if err := json.Unmarshal(v, &s); err != nil {
				bad = append(bad, RowError{Line: line, Field: f, Message: "must be a string"})
				continue
			}
			if s == nil {
				continue
			}
			switch f {
			case "name":
				e.Name = *s
			case "aliases":
				e.Aliases = splitAliases(*s)
			case "entityType":
				e.EntityType = EntityType(strings.ToUpper(strings.TrimSpace(*s)))
			case "dateOfBirth":
				e.DateOfBirth = strings.TrimSpace(*s)
			case "country":
				e.Country = strings.TrimSpace(*s)
			case "reference":
				e.Reference = strings.TrimSpace(*s)
			}
		}
		pace.every(n, 7)
		for _, b := range checkRow(line, &e, memo) {
			if !slices.ContainsFunc(bad, func(x RowError) bool { return x.Field == b.Field }) { // one error a field
				bad = append(bad, b)
			}
		}
		errs, rows = collectRow(errs, rows, bad, line, e)
		if n > MaxImportRows {
			return nil, n, append(errs, RowError{Line: line, Message: fmt.Sprintf("more than %d rows; split the file", MaxImportRows)})
		}
	}
	return rows, n, errs
}

func collectRow(errs []RowError, rows []ParsedRow, bad []RowError, line int, e NewWatchlistEntry) ([]RowError, []ParsedRow) {
	if len(bad) > 0 {
		if room := MaxImportErrors - len(errs); room > 0 {
			errs = append(errs, bad[:min(room, len(bad))]...)
		}
		return errs, rows
	}
	return errs, append(rows, ParsedRow{Line: line, Entry: e})
}

// checkRow validates one row as AddEntry validates one entry, normalising it in place, and
// returns every bad field. memo (one for the file, or nil) holds the tokens of the words seen.
func checkRow(line int, e *NewWatchlistEntry, memo *tokenMemo) []RowError {
	var bad []RowError
	add := func(field, msg string) { bad = append(bad, RowError{Line: line, Field: field, Message: msg}) }
	e.Name = strings.TrimSpace(e.Name)
	switch {
	case e.Name == "" || len(e.Name) > 300:
		add("name", "must be 1-300 characters")
	case len(tokenizeMemo(foldName(e.Name), memo)) == 0:
		add("name", "must contain a searchable name")
	}
	switch e.EntityType {
	case "", EntityIndividual, EntityBusiness:
	default:
		add("entityType", "must be INDIVIDUAL or BUSINESS")
	}
	if e.DateOfBirth != "" {
		if _, err := time.Parse(time.DateOnly, e.DateOfBirth); err != nil {
			add("dateOfBirth", "must be an ISO 8601 date (YYYY-MM-DD)")
		}
	}
	if len(e.Aliases) > maxAliases {
		add("aliases", fmt.Sprintf("at most %d aliases", maxAliases))
	}
	aliases := e.Aliases[:0:0]
	for _, a := range e.Aliases {
		if a = strings.TrimSpace(a); a == "" || len(a) > 300 {
			add("aliases", "each alias must be 1-300 characters")
			break
		}
		aliases = append(aliases, a)
	}
	e.Aliases = aliases
	if e.Country = strings.TrimSpace(e.Country); len(e.Country) > 100 {
		add("country", "must be at most 100 characters")
	}
	if e.Reference = strings.TrimSpace(e.Reference); len(e.Reference) > 200 {
		add("reference", "must be at most 200 characters")
	}
	return bad
}

// WatchlistImport is the outcome of ImportEntries.
type WatchlistImport struct {
	Rows       int
	Imported   int
	Errors     []RowError
	EntryCount int
}

// ImportEntries adds every row of a CSV or JSON Lines document to a tenant watchlist, all or
// nothing: with any bad row the answer lists the errors and nothing is stored. The entries are
// screened from the moment this returns (this replica's matcher after commit, the others on the
// store's notification), and one re-screening job covers the list. Codes: NOT_FOUND.
func (s *Service) ImportEntries(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, watchlistID, format string, content []byte) (WatchlistImport, error) {
	w, err := s.store.GetWatchlist(ctx, tenantID, watchlistID)
	if err != nil {
		return WatchlistImport{}, err
	}
	t0 := time.Now()
	rows, n, errs := parseRows(format, content, s.matcher.pacer())
	parsed := time.Since(t0)
	out := WatchlistImport{Rows: n, Errors: errs, EntryCount: w.EntryCount}
	if len(errs) > 0 {
		return out, nil
	}
	if n == 0 {
		return out, apperr.Invalid("content", "has no rows")
	}
	now := s.now()
	entries := make([]WatchlistEntry, 0, len(rows))
	for i, r := range rows {
		yieldEvery(i, 63)
		e := r.Entry
		entries = append(entries, WatchlistEntry{ID: s.newID(), TenantID: tenantID, WatchlistID: watchlistID, Name: e.Name,
			Aliases: e.Aliases, EntityType: e.EntityType, DateOfBirth: e.DateOfBirth, Country: e.Country, Reference: e.Reference,
			CreatedBy: actor.ID, CreatedAt: now})
	}
	sum := sha256Yielding(content)
	ev := audit.Event{TenantID: tenantID, Actor: actor, Action: "watchlist.entries_imported", ResourceType: "watchlist",
		ResourceID: watchlistID, After: map[string]any{"format": strings.ToUpper(format), "entries": len(entries),
			"sha256": hex.EncodeToString(sum[:])}}
	w, err = s.store.AddEntries(ctx, tenantID, watchlistID, entries, ev,
		RescreenArgs{TenantID: string(tenantID), ListVersion: "import:" + hex.EncodeToString(sum[:8])})
	if err != nil {
		return WatchlistImport{}, err
	}
	stored := time.Since(t0)
	// One rebuild of the tenant's index for the whole document, built beside the live one and
	// swapped in (Matcher): per-row upserts rebuilt the index once a row.
	mes := make([]Entry, len(entries))
	for i, e := range entries {
		yieldEvery(i, 63)
		mes[i] = e.MatcherEntry(w)
	}
	s.matcher.UpsertTenantEntries(tenantID, mes)
	s.log.InfoContext(ctx, "watchlist import", "tenant", tenantID, "watchlist", watchlistID, "entries", len(entries),
		"parse", parsed.Round(time.Millisecond), "store", (stored - parsed).Round(time.Millisecond),
		"index", (time.Since(t0) - stored).Round(time.Millisecond))
	out.Imported, out.EntryCount = len(entries), w.EntryCount
	return out, nil
}

// sha256Yielding is sha256.Sum256(content), hashed 64 KiB at a time with a yield between: the
// hash of a 10 MiB document in one call is tens of milliseconds of assembly the scheduler cannot
// preempt (yieldEvery).
func sha256Yielding(content []byte) [sha256.Size]byte {
	h := sha256.New()
	for len(content) > 0 {
		n := min(len(content), 64<<10)
		h.Write(content[:n])
		content = content[n:]
		runtime.Gosched()
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// RowsToEntries converts parsed rows of a global list in the house format to matcher entries:
// the id is "<list>:<reference>", else "<list>:line-<n>".
func RowsToEntries(list string, typ ListType, rows []ParsedRow) []Entry {
	out := make([]Entry, 0, len(rows))
	for _, r := range rows {
		ref := r.Entry.Reference
		if ref == "" {
			ref = fmt.Sprintf("line-%d", r.Line)
		}
		we := WatchlistEntry{ID: strings.ToLower(list) + ":" + ref, Name: r.Entry.Name, Aliases: r.Entry.Aliases,
			EntityType: r.Entry.EntityType, DateOfBirth: r.Entry.DateOfBirth, Country: r.Entry.Country, Reference: ref}
		out = append(out, we.MatcherEntry(Watchlist{Name: list, Type: typ}))
	}
	return out
}

// GlobalVersions returns the current version of every global list (GET /sanctions/lists), by
// list name. Errors: INTERNAL.
func (s *Service) GlobalVersions(ctx context.Context) ([]ListVersion, error) {
	vs, err := s.store.CurrentVersions(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(vs, func(a, b ListVersion) int { return strings.Compare(a.List, b.List) })
	return vs, nil
}
