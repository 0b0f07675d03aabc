package sanctions

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/complyd/complyd/internal/apperr"
)

// DeltaParams is one FtM delta file of a list's version.
type DeltaParams struct {
	List    string
	Version string
	File    SourceFile
}

// ImportFtMDelta applies one FtM delta version to the version in force of p.List (an FtM list)
// and stores the outcome as the list's next version, with p.Version recorded, in one
// transaction with a re-screening job per tenant narrowed to the added and modified entries
// (none when the delta only deleted). A version not newer than the one recorded changes
// nothing (Unchanged). Codes: VALIDATION_ERROR (no FtM list of that name: import the full
// list first); a bad delta line wraps ErrBadListFile.
func (s *Service) ImportFtMDelta(ctx context.Context, p DeltaParams) (ImportResult, error) {
	if err := validListName(p.List); err != nil {
		return ImportResult{}, err
	}
	if p.Version == "" {
		return ImportResult{}, apperr.Invalid("version", "a delta needs its version")
	}
	cur, ok, err := s.currentVersion(ctx, p.List)
	if err != nil {
		return ImportResult{}, err
	}
	if !ok || cur.Format != FormatFtM {
		return ImportResult{}, apperr.Invalid("list", fmt.Sprintf("%s has no FtM version to apply a delta to: import its entities file first", p.List))
	}
	if p.Version <= cur.SourceVersion {
		return ImportResult{Version: cur, Unchanged: true}, nil
	}
	entries, err := s.store.LoadVersion(ctx, cur.ID)
	if err != nil {
		return ImportResult{}, fmt.Errorf("load %s v%d: %w", p.List, cur.Version, err)
	}
	res, err := ApplyFtMDelta(p.List, entries, bytes.NewReader(p.File.Data))
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s version %s: %w", p.List, p.Version, err)
	}
	for i := range res.Entries {
		res.Entries[i].List = p.List
	}
	sum := sha256.Sum256(p.File.Data)
	v := ListVersion{List: p.List, Type: cur.Type, Format: FormatFtM, EntryCount: len(res.Entries), ImportedAt: s.now(),
		PublishedAt: ftmPublished(p.Version, ""), SourceVersion: p.Version,
		Files: []FileDigest{{Name: p.File.Name, SHA256: hex.EncodeToString(sum[:]), Bytes: len(p.File.Data)}}}
	if v.PublishedAt.IsZero() {
		v.PublishedAt = cur.PublishedAt
	}
	v, err = s.store.ImportList(ctx, v, res.Entries, RescreenArgs{List: p.List, EntryIDs: res.Changed, Skip: len(res.Changed) == 0})
	if err != nil {
		return ImportResult{}, fmt.Errorf("store list %s: %w", p.List, err)
	}
	s.matcher.Replace(p.List, res.Entries)
	s.mu.Lock()
	s.versions[p.List] = v.ID
	s.mu.Unlock()
	s.log.InfoContext(ctx, "ftm delta applied", "list", p.List, "sourceVersion", p.Version, "version", v.Version,
		"changed", len(res.Changed), "deleted", len(res.Deleted), "entries", len(res.Entries))
	return ImportResult{Version: v}, nil
}

// FetchFunc returns the bytes at a delta index's address (the scheduled update's guarded HTTP
// client; the CLI's file or HTTP reader).
type FetchFunc func(ctx context.Context, url string) ([]byte, error)

// ApplyFtMIndex applies, oldest first, every version of the delta index newer than the one
// recorded for list, each in its own transaction: a failing version stops there, with the
// versions before it in force, and the next run resumes from it. It returns one result per
// version applied.
func (s *Service) ApplyFtMIndex(ctx context.Context, list string, ix FtMIndex, fetch FetchFunc) ([]ImportResult, error) {
	cur, ok, err := s.currentVersion(ctx, list)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.Invalid("list", fmt.Sprintf("%s has no FtM version to apply deltas to: import its entities file first", list))
	}
	var out []ImportResult
	for _, ver := range ix.Newer(cur.SourceVersion) {
		data, err := fetch(ctx, ix.Versions[ver])
		if err != nil {
			return out, fmt.Errorf("%s version %s: %w", list, ver, err)
		}
		r, err := s.ImportFtMDelta(ctx, DeltaParams{List: list, Version: ver, File: SourceFile{Name: ver + "/entities.delta.json", Data: data}})
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// currentVersion returns the version in force of list.
func (s *Service) currentVersion(ctx context.Context, list string) (ListVersion, bool, error) {
	vs, err := s.store.CurrentVersions(ctx)
	if err != nil {
		return ListVersion{}, false, err
	}
	for _, v := range vs {
		if v.List == list {
			return v, true, nil
		}
	}
	return ListVersion{}, false, nil
}
