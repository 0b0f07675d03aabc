package sanctions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// FtM delta operations (OpenSanctions' entities.delta.json: one {"op", "entity"} a line).
const (
	FtMAdd = "ADD"
	FtMMod = "MOD"
	FtMDel = "DEL"
)

// FtMIndex is a delta index (delta.json): each version and where its delta file is.
type FtMIndex struct {
	Versions  map[string]string `json:"versions"`
	UpdatedAt string            `json:"updated_at"`
}

// ParseFtMIndex reads a delta index. Errors wrap ErrBadListFile.
func ParseFtMIndex(data []byte) (FtMIndex, error) {
	var ix FtMIndex
	if err := json.Unmarshal(data, &ix); err != nil {
		return ix, fmt.Errorf("%w: ftm delta index: %v", ErrBadListFile, err)
	}
	if len(ix.Versions) == 0 {
		return ix, fmt.Errorf("%w: ftm delta index: no versions", ErrBadListFile)
	}
	return ix, nil
}

// Newer returns the versions after since, oldest first: OpenSanctions' version ids start with
// their time (20240527134702-zbn), so their order as strings is their order in time.
func (ix FtMIndex) Newer(since string) []string {
	var out []string
	for v := range ix.Versions {
		if v > since {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

type ftmOp struct {
	Op     string     `json:"op"`
	Entity *ftmEntity `json:"entity"`
}

// DeltaResult is what one delta did to a list.
type DeltaResult struct {
	Entries []Entry
	// Changed are the ids of the entries added or modified (they are re-screened); Deleted the
	// ids removed.
	Changed, Deleted []string
}

// ApplyFtMDelta applies one delta file, in line order, to the entries of list (a version in
// force, ids "<list>:<FtM id>"): ADD and MOD of a party put its entry (a MOD keeps the
// programmes earlier Sanction entities gave it), DEL removes it; a party that loses its last
// topic is removed. A Sanction entity added or modified adds its programme to the party it
// names. A deleted relation entity changes nothing (its programme stays until the next full
// import: docs/guide/watchlists.md). A bad line fails the delta whole with its line number.
func ApplyFtMDelta(list string, cur []Entry, r io.Reader) (DeltaResult, error) {
	var ops []ftmOp
	set := newFtMSet()
	err := readFtM(r, func(line int, raw []byte) error {
		var op ftmOp
		dec := json.NewDecoder(bytes.NewReader(raw))
		if err := dec.Decode(&op); err != nil {
			return fmt.Errorf("%w: ftm delta: line %d: not an operation: %v", ErrBadListFile, line, err)
		}
		if op.Op != FtMAdd && op.Op != FtMMod && op.Op != FtMDel {
			return fmt.Errorf("%w: ftm delta: line %d: op must be ADD, MOD or DEL", ErrBadListFile, line)
		}
		if op.Entity == nil || op.Entity.ID == "" || op.Op != FtMDel && op.Entity.Schema == "" {
			return fmt.Errorf("%w: ftm delta: line %d: an operation needs an entity with an id and a schema", ErrBadListFile, line)
		}
		if op.Op != FtMDel {
			set.add(op.Entity)
		}
		ops = append(ops, op)
		return nil
	})
	if err != nil {
		return DeltaResult{}, err
	}
	prefix := strings.ToLower(list) + ":"
	byID := make(map[string]Entry, len(cur))
	order := make([]string, 0, len(cur))
	for _, e := range cur {
		byID[e.ID] = e
		order = append(order, e.ID)
	}
	changed, deleted := map[string]bool{}, map[string]bool{}
	put := func(e Entry) {
		if _, ok := byID[e.ID]; !ok {
			order = append(order, e.ID)
		}
		byID[e.ID] = e
		changed[e.ID], deleted[e.ID] = true, false
	}
	remove := func(id string) {
		if _, ok := byID[id]; ok {
			delete(byID, id)
			deleted[id], changed[id] = true, false
		}
	}
	for _, op := range ops {
		id := prefix + op.Entity.ID
		if op.Op == FtMDel {
			remove(id)
			continue
		}
		if ftmThings[op.Entity.Schema] == "" {
			continue // relations: below
		}
		e, ok := set.entry(op.Entity)
		if !ok {
			remove(id)
			continue
		}
		e.ID, e.List = id, list
		if prev, had := byID[id]; had && op.Op == FtMMod {
			for _, p := range prev.Programs {
				if !slices.Contains(e.Programs, p) {
					e.Programs = append(e.Programs, p)
				}
			}
		}
		put(e)
	}
	// Sanctions of parties this delta did not touch.
	for target, sns := range set.sanctions {
		id := prefix + target
		e, ok := byID[id]
		if !ok || changed[id] {
			continue
		}
		e.Programs = slices.Clone(e.Programs)
		grew := false
		for _, sn := range sns {
			if label := sanctionLabel(sn); label != "" && !slices.Contains(e.Programs, label) {
				e.Programs, grew = append(e.Programs, label), true
			}
		}
		if grew {
			put(e)
		}
	}
	res := DeltaResult{Entries: make([]Entry, 0, len(byID))}
	for _, id := range order { // an id deleted and added again is in order twice
		if e, ok := byID[id]; ok {
			res.Entries = append(res.Entries, e)
			delete(byID, id)
		}
	}
	for id, yes := range changed {
		if yes {
			res.Changed = append(res.Changed, id)
		}
	}
	for id, yes := range deleted {
		if yes {
			res.Deleted = append(res.Deleted, id)
		}
	}
	sort.Strings(res.Changed)
	sort.Strings(res.Deleted)
	return res, nil
}

// ftmPublished is the publication time of an FtM document: its version's time when the version
// id carries one, else the newest last_seen of its entities; zero when neither is known.
func ftmPublished(version, lastSeen string) time.Time {
	if t, ok := FtMVersionTime(version); ok {
		return t
	}
	if t, ok := ftmTime(lastSeen); ok {
		return t
	}
	return time.Time{}
}
