package document

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// View is a document with a fresh presigned download URL, valid DownloadTTL.
type View struct {
	Document
	URL       string
	ExpiresAt time.Time
}

// Links presigns download links and removes objects for the capabilities that own documents
// (KYC and KYB applications), so both behave the same way.
type Links struct {
	Blobs  Blobs
	Now    func() time.Time
	Logger *slog.Logger
}

// View presigns d's download link.
func (l Links) View(ctx context.Context, d Document) (View, error) {
	now := l.Now()
	u, err := l.Blobs.PresignGet(ctx, d.StorageKey, DownloadTTL, d.FileName)
	if err != nil {
		return View{}, fmt.Errorf("presign %s: %w", d.ID, err)
	}
	return View{Document: d, URL: u, ExpiresAt: now.Add(DownloadTTL)}, nil
}

// Views presigns every document's link.
func (l Links) Views(ctx context.Context, docs []Document) ([]View, error) {
	out := make([]View, 0, len(docs))
	for _, d := range docs {
		v, err := l.View(ctx, d)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// DeleteObject removes a stored object after its record is gone, on a context that outlives
// the request (30 s). A failure is logged with the key: the object is then an orphan an
// operator can remove; the document no longer exists for the API either way.
func (l Links) DeleteObject(ctx context.Context, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := l.Blobs.Delete(ctx, key); err != nil {
		l.Logger.ErrorContext(ctx, "delete document object; it is now an orphan", "key", key, "err", err)
	}
}
