package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/google/uuid"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Service archives, verifies, drops and restores tenant-months, and keeps the legal holds.
type Service struct {
	months MonthStore
	parts  Partitions
	store  Store
	blobs  Blobs
	now    func() time.Time
	log    *slog.Logger
}

// Deps are the Service's dependencies; all are required.
type Deps struct {
	Months MonthStore
	// Partitions, when set, is the partition path: a month that is a partition of its own is
	// left VERIFIED by Run and dropped whole by DropPartitions.
	Partitions Partitions
	Store      Store
	Blobs      Blobs
	Now        func() time.Time
	Logger     *slog.Logger
}

// NewService returns the Service; it panics on a missing dependency (Partitions is optional).
func NewService(d Deps) *Service {
	if d.Months == nil || d.Store == nil || d.Blobs == nil || d.Now == nil || d.Logger == nil {
		panic("archive.NewService: every dependency is required")
	}
	return &Service{months: d.Months, parts: d.Partitions, store: d.Store, blobs: d.Blobs, now: d.Now, log: d.Logger}
}

// RetentionYears returns the tenant's retention period in years (at least MinRetentionYears).
func (s *Service) RetentionYears(ctx context.Context, tenantID tenancy.TenantID) (int, error) {
	years, err := s.store.RetentionYears(ctx, tenantID)
	return max(years, MinRetentionYears), err
}

// Cutoff returns the instant before which a tenant's months are past its retention: a month is
// due when it ended at or before now minus the retention years.
func (s *Service) Cutoff(ctx context.Context, tenantID tenancy.TenantID) (time.Time, error) {
	years, err := s.store.RetentionYears(ctx, tenantID)
	if err != nil {
		return time.Time{}, err
	}
	if years < MinRetentionYears {
		years = MinRetentionYears
	}
	return s.now().UTC().AddDate(-years, 0, 0), nil
}

// Due lists the tenant's months of table past its retention that have no archive yet.
func (s *Service) Due(ctx context.Context, tenantID tenancy.TenantID, table string) ([]Month, error) {
	cutoff, err := s.Cutoff(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	ms, err := s.months.Months(ctx, tenantID, table, cutoff)
	if err != nil {
		return nil, err
	}
	done, err := s.store.ArchivedMonths(ctx, tenantID, table)
	if err != nil {
		return nil, err
	}
	out := ms[:0]
	for _, m := range ms {
		if !done[m.Month] {
			out = append(out, m)
		}
	}
	return out, nil
}

// Prefix is where a tenant-month's objects go: archives/<tenant>/<table>/<YYYY-MM>/<archive id>/.
func Prefix(tenantID tenancy.TenantID, table string, month time.Time, id string) string {
	return fmt.Sprintf("archives/%s/%s/%s/%s/", tenantID, table, month.Format("2006-01"), id)
}

// Archive exports the tenant's rows of table in month that no hold protects to the object
// store and records the archive (WRITTEN); it refuses a month within the tenant's retention.
// The rows stay in the database until Drop.
func (s *Service) Archive(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, table string, month time.Time) (Archive, error) {
	if !archived(table) {
		return Archive{}, apperr.Invalid("table", "only transactions and audit_events are archived")
	}
	month = MonthOf(month)
	cutoff, err := s.Cutoff(ctx, tenantID)
	if err != nil {
		return Archive{}, err
	}
	if month.AddDate(0, 1, 0).After(cutoff) {
		return Archive{}, apperr.Newf(apperr.Conflict, "%s is within the tenant's retention (months ending before %s may be archived)",
			month.Format("2006-01"), cutoff.Format(time.RFC3339))
	}
	id := uuid.Must(uuid.NewV7()).String()
	prefix := Prefix(tenantID, table, month, id)
	a := Archive{ID: id, TenantID: tenantID, Table: table, Month: month, Prefix: prefix,
		DataKey: prefix + table + ".jsonl.gz", ManifestKey: prefix + "manifest.json", State: StateWritten, CreatedAt: s.now().UTC()}

	tmp, err := os.CreateTemp("", "complyd-archive-*.jsonl.gz")
	if err != nil {
		return Archive{}, fmt.Errorf("archive temp file: %w", err)
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	hash := sha256.New()
	counted := &countingWriter{w: io.MultiWriter(tmp, hash)}
	zw := gzip.NewWriter(counted)
	var dg digest
	info, err := s.months.Export(ctx, ExportParams{TenantID: tenantID, Table: table, Month: month}, func(rowID string, row []byte) error {
		dg.add(rowID)
		a.Rows++
		if _, err := zw.Write(row); err != nil {
			return err
		}
		_, err := zw.Write([]byte{'\n'})
		return err
	})
	if err != nil {
		return Archive{}, fmt.Errorf("export %s %s: %w", table, month.Format("2006-01"), err)
	}
	if err := zw.Close(); err != nil {
		return Archive{}, fmt.Errorf("compress archive: %w", err)
	}
	a.Bytes, a.SHA256, a.IDDigest, a.HeldRows = counted.n, hex.EncodeToString(hash.Sum(nil)), dg.String(), info.HeldRows
	if a.Rows == 0 {
		return Archive{}, apperr.Newf(apperr.Conflict, "no rows to archive in %s (%d held)", month.Format("2006-01"), info.HeldRows)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return Archive{}, fmt.Errorf("rewind archive: %w", err)
	}
	if _, err := s.blobs.Put(ctx, a.DataKey, tmp, "application/gzip"); err != nil {
		return Archive{}, fmt.Errorf("put archive data: %w", err)
	}
	m := Manifest{SchemaVersion: SchemaVersion, MigrationVersion: info.MigrationVersion, ArchiveID: id, TenantID: string(tenantID),
		Table: table, TimeColumn: info.TimeColumn, From: month, To: month.AddDate(0, 1, 0), CreatedAt: a.CreatedAt,
		Files:   []ManifestFile{{Name: table + ".jsonl.gz", Key: a.DataKey, Format: "jsonl+gzip", Rows: a.Rows, Bytes: a.Bytes, SHA256: a.SHA256}},
		Columns: info.Columns, HeldRows: info.HeldRows, IDDigest: a.IDDigest}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return Archive{}, fmt.Errorf("marshal manifest: %w", err)
	}
	if _, err := s.blobs.Put(ctx, a.ManifestKey, bytes.NewReader(mb), "application/json"); err != nil {
		return Archive{}, fmt.Errorf("put archive manifest: %w", err)
	}
	ev := audit.Event{TenantID: tenantID, Actor: actor, Action: "archive.written", ResourceType: "archive", ResourceID: id,
		After: map[string]any{"table": table, "month": month.Format("2006-01"), "rows": a.Rows, "heldRows": a.HeldRows,
			"sha256": a.SHA256, "prefix": prefix}}
	if err := s.store.CreateArchive(ctx, a, ev); err != nil {
		return Archive{}, err
	}
	return a, nil
}

// ErrVerify is the cause of a failed verification.
var ErrVerify = errors.New("archive verification failed")

// Verify reads the archive's manifest and data back from the object store and checks them
// against the record: the manifest's row count, checksum and id digest, the data's SHA-256,
// its row count and the digest of its rows' ids. A WRITTEN or VERIFIED archive becomes VERIFIED
// or FAILED (with the reason); a failure returns CONFLICT.
func (s *Service) Verify(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (Archive, error) {
	a, err := s.store.GetArchive(ctx, tenantID, id)
	if err != nil {
		return Archive{}, err
	}
	if a.State == StateDropped || a.State == StateFailed {
		return a, apperr.Newf(apperr.Conflict, "archive is %s", a.State)
	}
	_, verr := s.readBack(ctx, a, nil)
	now := s.now().UTC()
	state, failure, action := StateVerified, "", "archive.verified"
	if verr != nil {
		state, failure, action = StateFailed, verr.Error(), "archive.verify_failed"
	}
	ev := audit.Event{TenantID: tenantID, Actor: actor, Action: action, ResourceType: "archive", ResourceID: id,
		Before: map[string]any{"state": a.State}, After: map[string]any{"state": state, "failure": failure}}
	if err := s.store.SetState(ctx, tenantID, id, state, failure, now, ev); err != nil {
		return Archive{}, err
	}
	if verr != nil {
		s.log.WarnContext(ctx, "archive verification failed", "archive", id, "tenant", tenantID, "err", verr)
		return Archive{}, apperr.Newf(apperr.Conflict, "archive %s failed verification: %v", id, verr)
	}
	return s.store.GetArchive(ctx, tenantID, id)
}

// Drop verifies the archive again (reading every object back) and, only when that passes,
// deletes its rows from the database. A failed verification marks the archive FAILED and
// deletes nothing.
func (s *Service) Drop(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (int64, error) {
	a, err := s.Verify(ctx, tenantID, actor, id)
	if err != nil {
		return 0, err
	}
	ev := audit.Event{TenantID: tenantID, Actor: actor, Action: "archive.dropped", ResourceType: "archive", ResourceID: id,
		Before: map[string]any{"state": a.State}, After: map[string]any{"state": StateDropped, "table": a.Table,
			"month": a.Month.Format("2006-01"), "rows": a.Rows}}
	return s.months.DropMonth(ctx, tenantID, id, ev)
}

// Run archives, verifies and drops every month of the tenant past its retention, of every
// table of Tables; it stops at the first failure and returns how many months it archived and
// verified and then dropped, or (a month that is a partition of its own) left VERIFIED for
// DropPartitions to drop with the partition.
func (s *Service) Run(ctx context.Context, tenantID tenancy.TenantID) (int, error) {
	done := 0
	// An archive written or verified by an earlier pass that stopped before its drop (a crash,
	// the object store down) is finished first: its month is no longer "due".
	pending, err := s.store.ListArchives(ctx, tenantID, paging.Params{Page: 1, Limit: 1000})
	if err != nil {
		return 0, err
	}
	for _, a := range pending.Items {
		if a.State != StateWritten && a.State != StateVerified {
			continue
		}
		counted, err := s.finish(ctx, tenantID, a)
		if err != nil {
			return done, err
		}
		if counted {
			done++
		}
	}
	for _, table := range Tables {
		due, err := s.Due(ctx, tenantID, table)
		if err != nil {
			return done, err
		}
		for _, m := range due {
			a, err := s.Archive(ctx, tenantID, audit.System, table, m.Month)
			if apperr.CodeOf(err) == apperr.Conflict { // every row of the month is held
				continue
			}
			if err != nil {
				return done, err
			}
			if _, err := s.finish(ctx, tenantID, a); err != nil {
				return done, err
			}
			done++
		}
	}
	return done, nil
}

// finish verifies the archive a and drops its rows, except in a month that is a partition of
// its own: that one stays VERIFIED until DropPartitions drops the partition whole. counted is
// false for such an archive that was VERIFIED already (an earlier pass counted it).
func (s *Service) finish(ctx context.Context, tenantID tenancy.TenantID, a Archive) (counted bool, err error) {
	if s.parts != nil {
		own, err := s.parts.OwnPartition(ctx, a.Table, a.Month)
		if err != nil {
			return false, err
		}
		if own {
			if _, err := s.Verify(ctx, tenantID, audit.System, a.ID); err != nil {
				return false, err
			}
			return a.State != StateVerified, nil
		}
	}
	if _, err := s.Drop(ctx, tenantID, audit.System, a.ID); err != nil {
		return false, err
	}
	return true, nil
}

// DropPartitions drops, oldest first, the partitions of Tables whose month ended at least
// MinRetentionYears ago and whose rows are, tenant by tenant, archived and verified or retained
// (copied to <table>_retained: rows a hold protects, rows of a tenant with a longer retention),
// and empty ones. It stops at a table's first partition some tenant's rows of which are not
// archived yet (logged; a later pass goes on from there): the months stay contiguous, the
// oldest's range going to the catch-all before them (migration 0050). It returns how many
// partitions it dropped and the first other error.
func (s *Service) DropPartitions(ctx context.Context) (int, error) {
	if s.parts == nil {
		return 0, nil
	}
	cutoff := s.now().UTC().AddDate(-MinRetentionYears, 0, 0)
	dropped := 0
	var first error
	for _, table := range Tables {
		months, err := s.parts.DuePartitions(ctx, table, cutoff)
		if err != nil {
			return dropped, err
		}
	drops:
		for _, m := range months {
			_, err := s.parts.DropPartition(ctx, table, m, func(pt PartitionTenant) audit.Event {
				return partitionEvent(table, m, pt)
			})
			switch apperr.CodeOf(err) {
			case "":
				dropped++
				s.log.InfoContext(ctx, "archive: partition dropped", "table", table, "month", m.Format("2006-01"))
			case apperr.Conflict, apperr.NotFound:
				s.log.InfoContext(ctx, "archive: partition not dropped yet", "table", table, "month", m.Format("2006-01"), "reason", err)
				break drops
			default:
				s.log.ErrorContext(ctx, "archive: partition drop failed", "table", table, "month", m.Format("2006-01"), "err", err)
				if first == nil {
					first = err
				}
				break drops
			}
		}
	}
	return dropped, first
}

// partitionEvent audits one tenant's part of a dropped partition: archive.dropped for the
// archive that became DROPPED with it, archive.retained when the tenant's rows were only
// retained.
func partitionEvent(table string, month time.Time, pt PartitionTenant) audit.Event {
	after := map[string]any{"table": table, "month": month.Format("2006-01"), "partition": true,
		"rows": pt.Archived, "retainedRows": pt.Retained}
	if pt.ArchiveID != "" {
		after["state"] = StateDropped
		return audit.Event{TenantID: pt.TenantID, Actor: audit.System, Action: "archive.dropped", ResourceType: "archive",
			ResourceID: pt.ArchiveID, Before: map[string]any{"state": StateVerified}, After: after}
	}
	return audit.Event{TenantID: pt.TenantID, Actor: audit.System, Action: "archive.retained", ResourceType: "partition",
		ResourceID: table + "_p" + month.Format("200601"), After: after}
}

// RunAll runs Run for every tenant, then DropPartitions, and returns how many tenant-months
// Run finished; it goes on past a tenant that fails and returns the first error.
func (s *Service) RunAll(ctx context.Context) (int, error) {
	tenants, err := s.store.Tenants(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	var first error
	for _, t := range tenants {
		n, err := s.Run(ctx, t)
		total += n
		if err != nil {
			s.log.ErrorContext(ctx, "archive pass failed", "tenant", t, "err", err)
			if first == nil {
				first = err
			}
		}
	}
	if _, err := s.DropPartitions(ctx); err != nil && first == nil {
		first = err
	}
	return total, first
}

// Restore reads the archive back, verifies it as Verify does, and loads its rows into the
// examiner's copy (archive_restored_rows); a dropped archive can be restored any number of
// times (the copy is written once and checked against the archive after).
func (s *Service) Restore(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (Archive, error) {
	a, err := s.store.GetArchive(ctx, tenantID, id)
	if err != nil {
		return Archive{}, err
	}
	if a.State == StateFailed {
		return Archive{}, apperr.Newf(apperr.Conflict, "archive failed verification: %s", a.Failure)
	}
	var rows [][]byte
	if _, err := s.readBack(ctx, a, func(row []byte) { rows = append(rows, append([]byte(nil), row...)) }); err != nil {
		return Archive{}, apperr.Newf(apperr.Conflict, "archive %s failed verification: %v", id, err)
	}
	ev := audit.Event{TenantID: tenantID, Actor: actor, Action: "archive.restored", ResourceType: "archive", ResourceID: id,
		After: map[string]any{"rows": len(rows), "table": a.Table, "month": a.Month.Format("2006-01")}}
	if err := s.store.Restore(ctx, tenantID, id, rows, s.now().UTC(), ev); err != nil {
		return Archive{}, err
	}
	return s.store.GetArchive(ctx, tenantID, id)
}

// readBack reads the manifest and the data object and checks them against a; row, when set,
// receives each data row.
func (s *Service) readBack(ctx context.Context, a Archive, row func([]byte)) (Manifest, error) {
	var m Manifest
	mr, err := s.blobs.Get(ctx, a.ManifestKey)
	if err != nil {
		return m, fmt.Errorf("%w: read manifest: %v", ErrVerify, err)
	}
	err = json.NewDecoder(mr).Decode(&m)
	mr.Close()
	if err != nil {
		return m, fmt.Errorf("%w: decode manifest: %v", ErrVerify, err)
	}
	if m.ArchiveID != a.ID || m.TenantID != string(a.TenantID) || m.Table != a.Table || len(m.Files) != 1 {
		return m, fmt.Errorf("%w: manifest names another archive", ErrVerify)
	}
	f := m.Files[0]
	if f.Key != a.DataKey || f.Rows != a.Rows || f.SHA256 != a.SHA256 || f.Bytes != a.Bytes || m.IDDigest != a.IDDigest {
		return m, fmt.Errorf("%w: manifest does not match the archive's record", ErrVerify)
	}
	dr, err := s.blobs.Get(ctx, a.DataKey)
	if err != nil {
		return m, fmt.Errorf("%w: read data: %v", ErrVerify, err)
	}
	defer dr.Close()
	hash := sha256.New()
	counted := &countingWriter{w: hash}
	zr, err := gzip.NewReader(io.TeeReader(dr, counted))
	if err != nil {
		return m, fmt.Errorf("%w: data is not gzip: %v", ErrVerify, err)
	}
	var (
		dg digest
		n  int64
	)
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		var r struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil || r.ID == "" {
			return m, fmt.Errorf("%w: row %d is not a JSON object with an id", ErrVerify, n+1)
		}
		dg.add(r.ID)
		n++
		if row != nil {
			row(sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		return m, fmt.Errorf("%w: read data: %v", ErrVerify, err)
	}
	if _, err := io.Copy(io.Discard, dr); err != nil { // the rest after the gzip stream, if any
		return m, fmt.Errorf("%w: read data: %v", ErrVerify, err)
	}
	sum := hex.EncodeToString(hash.Sum(nil))
	switch {
	case sum != a.SHA256:
		return m, fmt.Errorf("%w: data SHA-256 %s, manifest %s", ErrVerify, sum, a.SHA256)
	case counted.n != a.Bytes:
		return m, fmt.Errorf("%w: data is %d bytes, manifest %d", ErrVerify, counted.n, a.Bytes)
	case n != a.Rows:
		return m, fmt.Errorf("%w: data has %d rows, manifest %d", ErrVerify, n, a.Rows)
	case dg.String() != a.IDDigest:
		return m, fmt.Errorf("%w: data's row ids differ from the archived ones", ErrVerify)
	}
	return m, nil
}

// Get returns one archive.
func (s *Service) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (Archive, error) {
	return s.store.GetArchive(ctx, tenantID, id)
}

// List lists the tenant's archives, newest month first.
func (s *Service) List(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[Archive], error) {
	return s.store.ListArchives(ctx, tenantID, p)
}

// RestoredRows pages through the examiner's copy of a restored archive.
func (s *Service) RestoredRows(ctx context.Context, tenantID tenancy.TenantID, id string, p paging.Params) (paging.Result[[]byte], error) {
	return s.store.ListRestoredRows(ctx, tenantID, id, p)
}

// PlaceHold places a legal hold on a subject.
func (s *Service) PlaceHold(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, subjectType, subjectID, reason string) (Hold, error) {
	switch subjectType {
	case SubjectAccount, SubjectCustomer, SubjectCase, SubjectTransaction:
	default:
		return Hold{}, apperr.Invalid("subjectType", "must be ACCOUNT, CUSTOMER, CASE or TRANSACTION")
	}
	if subjectID == "" {
		return Hold{}, apperr.Invalid("subjectId", "is required")
	}
	if reason == "" {
		return Hold{}, apperr.Invalid("reason", "is required")
	}
	h := Hold{ID: uuid.Must(uuid.NewV7()).String(), TenantID: tenantID, SubjectType: subjectType, SubjectID: subjectID,
		Reason: reason, PlacedBy: actorName(actor), PlacedAt: s.now().UTC()}
	ev := audit.Event{TenantID: tenantID, Actor: actor, Action: "legal_hold.placed", ResourceType: "legal_hold", ResourceID: h.ID,
		After: map[string]any{"subjectType": subjectType, "subjectId": subjectID, "reason": reason}}
	if err := s.store.PlaceHold(ctx, h, ev); err != nil {
		return Hold{}, err
	}
	return h, nil
}

// LiftHold lifts an active hold; its rows become archivable again once past retention.
func (s *Service) LiftHold(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, reason string) (Hold, error) {
	return s.store.LiftHold(ctx, tenantID, id, actorName(actor), reason, s.now().UTC(), func(before Hold) audit.Event {
		return audit.Event{TenantID: tenantID, Actor: actor, Action: "legal_hold.lifted", ResourceType: "legal_hold", ResourceID: id,
			Before: map[string]any{"subjectType": before.SubjectType, "subjectId": before.SubjectID, "active": true},
			After:  map[string]any{"active": false, "reason": reason}}
	})
}

// ListHolds lists the tenant's holds, newest first.
func (s *Service) ListHolds(ctx context.Context, tenantID tenancy.TenantID, activeOnly bool, p paging.Params) (paging.Result[Hold], error) {
	return s.store.ListHolds(ctx, tenantID, activeOnly, p)
}

func actorName(a audit.Actor) string {
	if a.ID != "" {
		return a.ID
	}
	return a.Type
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
