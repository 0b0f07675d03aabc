// Package sanctionshttp downloads the official sanctions list files over HTTP for the periodic
// refresh (docs/guide/sanctions.md, COMPLYD_SANCTIONS_REFRESH). It only fetches bytes; parsing and
// storing are sanctions.Service.Import's job.
//
// sanctionshttp is an adapter: it may import core packages and net/http, never other adapters.
package sanctionshttp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path"
	"time"

	"github.com/complyd/complyd/internal/sanctions"
)

// Official download addresses.
const (
	OFACBaseURL = "https://www.treasury.gov/ofac/downloads/"
	UNURL       = "https://scsanctions.un.org/resources/xml/en/consolidated.xml"
)

// Source is one list and the files that make it.
type Source struct {
	List   string
	Format string
	URLs   []string
}

// Sources returns the OFAC SDN (sdn.csv, alt.csv, add.csv under ofacBase) and UN consolidated
// sources; an empty address leaves that list out.
func Sources(ofacBase, unURL string) []Source {
	var out []Source
	if ofacBase != "" {
		if ofacBase[len(ofacBase)-1] != '/' {
			ofacBase += "/"
		}
		out = append(out, Source{List: sanctions.ListOFACSDN, Format: sanctions.FormatOFACSDNCSV,
			URLs: []string{ofacBase + "sdn.csv", ofacBase + "alt.csv", ofacBase + "add.csv"}})
	}
	if unURL != "" {
		out = append(out, Source{List: sanctions.ListUNSC, Format: sanctions.FormatUNXML, URLs: []string{unURL}})
	}
	return out
}

// Fetcher downloads list files.
type Fetcher struct {
	Client *http.Client
	// MaxBytes caps one file (default 256 MiB).
	MaxBytes int64
}

// NewFetcher returns a fetcher with a 2-minute per-request timeout.
func NewFetcher() *Fetcher {
	return &Fetcher{Client: &http.Client{Timeout: 2 * time.Minute}, MaxBytes: 256 << 20}
}

// Fetch downloads every file of src, named after the last path element of its URL.
func (f *Fetcher) Fetch(ctx context.Context, src Source) ([]sanctions.SourceFile, error) {
	out := make([]sanctions.SourceFile, 0, len(src.URLs))
	for _, u := range src.URLs {
		data, err := f.get(ctx, u)
		if err != nil {
			return nil, fmt.Errorf("download %s: %w", u, err)
		}
		out = append(out, sanctions.SourceFile{Name: path.Base(u), Data: data})
	}
	return out, nil
}

func (f *Fetcher) get(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "complyd sanctions refresh")
	res, err := f.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s", res.Status)
	}
	max := f.MaxBytes
	if max <= 0 {
		max = 256 << 20
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d bytes", max)
	}
	return data, nil
}

// Importer is what Refresh stores into (sanctions.Service).
type Importer interface {
	Import(ctx context.Context, p sanctions.ImportParams) (sanctions.ImportResult, error)
}

// Refresh downloads and imports every source once. A failing source is reported and the
// others still run; its previous version stays in force.
func (f *Fetcher) Refresh(ctx context.Context, imp Importer, sources []Source) ([]sanctions.ImportResult, error) {
	var res []sanctions.ImportResult
	var firstErr error
	for _, src := range sources {
		files, err := f.Fetch(ctx, src)
		if err == nil {
			var r sanctions.ImportResult
			r, err = imp.Import(ctx, sanctions.ImportParams{List: src.List, Type: sanctions.ListTypeSanctions, Format: src.Format, Files: files})
			if err == nil {
				res = append(res, r)
				continue
			}
		}
		if firstErr == nil {
			firstErr = fmt.Errorf("refresh %s: %w", src.List, err)
		}
	}
	return res, firstErr
}
