package app

import (
	"fmt"

	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/archive"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/postgres"
)

// wireArchive wires issue 54's retention and archive (docs/guide/retention.md): ArchiveService
// and LegalHoldService over the document store (S3 when COMPLYD_S3_ENDPOINT is set), and, when
// COMPLYD_ARCHIVE_ENABLED=true, the nightly pass that archives, verifies and drops every
// tenant's months past its retention. It needs wireKYC (the document store).
func wireArchive(w *wiring) error {
	if w.blobs == nil {
		return fmt.Errorf("wireArchive needs the document store (wireKYC first)")
	}
	svc, store := newArchiveService(w)
	h := connectapi.NewArchiveHandler(svc, store, w.log)
	p, hh := complydv1connect.NewArchiveServiceHandler(h, w.handlerOpts...)
	w.addService(complydv1connect.ArchiveServiceName, p, hh)
	p, hh = complydv1connect.NewLegalHoldServiceHandler(h, w.handlerOpts...)
	w.addService(complydv1connect.LegalHoldServiceName, p, hh)
	on, err := envBool("COMPLYD_ARCHIVE_ENABLED", false)
	if err != nil {
		return err
	}
	if on {
		river.AddWorker(w.workers, &jobs.ArchiveWorker{Archiver: svc})
		w.periodic = append(w.periodic, jobs.ArchiveJob())
	}
	return nil
}

func newArchiveService(w *wiring) (*archive.Service, *postgres.ArchiveStore) {
	store := postgres.NewArchiveStore(w.db)
	return archive.NewService(archive.Deps{Months: store, Partitions: store, Store: store, Blobs: w.blobs, Now: w.now, Logger: w.log}), store
}
