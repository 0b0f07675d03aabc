package sanctions

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// fakeStore is a hand-written Store: the embedded interface panics on methods a test does not set.
type fakeStore struct {
	Store
	mu                       sync.Mutex
	ActiveFalsePositivesFunc func(ctx context.Context, tenantID tenancy.TenantID) ([]FalsePositive, error)
	AddEntriesFunc           func(ctx context.Context, tenantID tenancy.TenantID, watchlistID string, entries []WatchlistEntry, ev audit.Event, rescreen RescreenArgs) (Watchlist, error)
	ImportListFunc           func(ctx context.Context, v ListVersion, entries []Entry, rescreen RescreenArgs) (ListVersion, error)
	CurrentVersionsFunc      func(ctx context.Context) ([]ListVersion, error)
	TenantEntriesFunc        func(ctx context.Context, tenantID tenancy.TenantID) ([]Entry, error)
	hits                     map[string]bool
}

func (f *fakeStore) TenantEntries(ctx context.Context, tenantID tenancy.TenantID) ([]Entry, error) {
	if f.TenantEntriesFunc == nil {
		return nil, nil
	}
	return f.TenantEntriesFunc(ctx, tenantID)
}

func (f *fakeStore) ActiveFalsePositives(ctx context.Context, tenantID tenancy.TenantID) ([]FalsePositive, error) {
	if f.ActiveFalsePositivesFunc == nil {
		return nil, nil
	}
	return f.ActiveFalsePositivesFunc(ctx, tenantID)
}

func (f *fakeStore) AddEntries(ctx context.Context, tenantID tenancy.TenantID, watchlistID string, entries []WatchlistEntry, ev audit.Event, rescreen RescreenArgs) (Watchlist, error) {
	return f.AddEntriesFunc(ctx, tenantID, watchlistID, entries, ev, rescreen)
}

func (f *fakeStore) ImportList(ctx context.Context, v ListVersion, entries []Entry, rescreen RescreenArgs) (ListVersion, error) {
	return f.ImportListFunc(ctx, v, entries, rescreen)
}

func (f *fakeStore) CurrentVersions(ctx context.Context) ([]ListVersion, error) {
	if f.CurrentVersionsFunc == nil {
		return nil, nil
	}
	return f.CurrentVersionsFunc(ctx)
}

// RecordRescreenHit keeps hits in memory with the store's contract: open runs for new hits
// and its error undoes the record.
func (f *fakeStore) RecordRescreenHit(_ context.Context, tenantID tenancy.TenantID, h RescreenHit, open func() error) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := string(tenantID) + "|" + h.SubjectType + "|" + h.SubjectID + "|" + h.EntryID
	if f.hits[key] {
		return false, nil
	}
	if err := open(); err != nil {
		return false, err
	}
	f.hits[key] = true
	return true, nil
}

type fakeSubjects struct {
	EachSubjectFunc func(ctx context.Context, tenantID tenancy.TenantID, fn func(Subject) error) error
}

func (f fakeSubjects) EachSubject(ctx context.Context, tenantID tenancy.TenantID, fn func(Subject) error) error {
	return f.EachSubjectFunc(ctx, tenantID, fn)
}

type fakeCases struct {
	OpenCaseFunc func(ctx context.Context, req CaseRequest) error
}

func (f fakeCases) OpenCase(ctx context.Context, req CaseRequest) error {
	return f.OpenCaseFunc(ctx, req)
}

func newTestService(st *fakeStore) *Service {
	n := 0
	return NewService(Deps{Store: st, Matcher: NewMatcher(), Now: time.Now, Logger: slog.New(slog.DiscardHandler),
		NewID: func() string { n++; return "id-" + strconv.Itoa(n) }})
}

const tenantA = tenancy.TenantID("00000000-0000-0000-0000-00000000000a")

func TestRescreen(t *testing.T) {
	t.Parallel()
	type testBundle struct {
		svc    *Service
		store  *fakeStore
		opened []CaseRequest
		r      *Rescreener
	}
	setup := func(t *testing.T) *testBundle {
		b := &testBundle{store: &fakeStore{hits: map[string]bool{}}}
		b.svc = newTestService(b.store)
		b.svc.Matcher().Replace(ListOFACSDN, []Entry{
			{ID: "ofac-sdn:1", SourceID: "1", List: ListOFACSDN, ListType: ListTypeSanctions, EntityType: EntityIndividual, Name: "Ayman AL-ZAWAHIRI"},
		})
		b.svc.Matcher().Replace("NG-PEP", []Entry{
			{ID: "ng-pep:7", SourceID: "7", List: "NG-PEP", ListType: ListTypePEP, EntityType: EntityIndividual, Name: "Adaeze Nwosu Obi"},
		})
		subjects := []Subject{
			{TenantID: tenantA, Type: SubjectKYC, ID: "kyc_1", Name: "Aiman al Zawahiri", EntityType: EntityIndividual, Key: "22222222222"},
			{TenantID: tenantA, Type: SubjectCustomer, ID: "cus_2", Name: "Adaeze Obi", EntityType: EntityIndividual, Key: "0123456789"},
			{TenantID: tenantA, Type: SubjectKYC, ID: "kyc_3", Name: "Chidi Eze", EntityType: EntityIndividual},
		}
		b.r = &Rescreener{Service: b.svc, Cases: fakeCases{OpenCaseFunc: func(_ context.Context, req CaseRequest) error {
			b.opened = append(b.opened, req)
			return nil
		}}, Subjects: fakeSubjects{EachSubjectFunc: func(_ context.Context, tid tenancy.TenantID, fn func(Subject) error) error {
			require.Equal(t, tenantA, tid)
			for _, s := range subjects {
				if err := fn(s); err != nil {
					return err
				}
			}
			return nil
		}}}
		return b
	}

	t.Run("a global list change opens one case per new hit on that list, once", func(t *testing.T) {
		b := setup(t)
		args := RescreenArgs{TenantID: string(tenantA), List: ListOFACSDN, ListVersion: "OFAC-SDN@2"}
		res, err := b.r.Run(context.Background(), args)
		require.NoError(t, err)
		require.Equal(t, RescreenResult{Subjects: 3, Hits: 1, NewCases: 1}, res)
		require.Len(t, b.opened, 1)
		c := b.opened[0]
		require.Equal(t, CaseSanctionsHit, c.Type)
		require.Equal(t, "kyc_1", c.Subject.ID)
		require.Equal(t, "ofac-sdn:1", c.Match.EntryID)
		require.Equal(t, "OFAC-SDN@2", c.ListVersion)
		require.NotEmpty(t, c.Band)
		require.Contains(t, c.Match.Explanation.String(), "transliteration")

		res, err = b.r.Run(context.Background(), RescreenArgs{TenantID: string(tenantA), List: ListOFACSDN, ListVersion: "OFAC-SDN@3"})
		require.NoError(t, err)
		require.Equal(t, RescreenResult{Subjects: 3, Hits: 1, NewCases: 0}, res, "a recorded hit opens no second case")
		require.Len(t, b.opened, 1)
	})

	t.Run("PEP list hits open PEP_MATCH", func(t *testing.T) {
		b := setup(t)
		_, err := b.r.Run(context.Background(), RescreenArgs{TenantID: string(tenantA), List: "NG-PEP", ListVersion: "NG-PEP@1"})
		require.NoError(t, err)
		require.Len(t, b.opened, 1)
		require.Equal(t, CasePEPMatch, b.opened[0].Type)
		require.Equal(t, "cus_2", b.opened[0].Subject.ID)
	})

	t.Run("an added tenant entry only considers that entry", func(t *testing.T) {
		b := setup(t)
		// The job reloads the tenant's entries from the store first: the matcher of the replica
		// running it may not have heard of the new entry yet.
		b.store.TenantEntriesFunc = func(context.Context, tenancy.TenantID) ([]Entry, error) {
			return []Entry{{ID: "e-9", SourceID: "REF-9", List: "Blocked", ListType: ListTypeInternal, Name: "Chidi Eze"}}, nil
		}
		res, err := b.r.Run(context.Background(), RescreenArgs{TenantID: string(tenantA), ListVersion: "entry:e-9", EntryID: "e-9"})
		require.NoError(t, err)
		require.Equal(t, 1, res.NewCases)
		require.Equal(t, "kyc_3", b.opened[0].Subject.ID)
		require.Equal(t, BandBlock, b.opened[0].Band)
	})

	t.Run("a reviewed false positive for the subject key opens nothing", func(t *testing.T) {
		b := setup(t)
		b.store.ActiveFalsePositivesFunc = func(context.Context, tenancy.TenantID) ([]FalsePositive, error) {
			return []FalsePositive{{ID: "fp1", SubjectKey: "22222222222", EntryID: "ofac-sdn:1"}}, nil
		}
		res, err := b.r.Run(context.Background(), RescreenArgs{TenantID: string(tenantA), List: ListOFACSDN, ListVersion: "OFAC-SDN@2"})
		require.NoError(t, err)
		require.Zero(t, res.NewCases)
		require.Empty(t, b.opened)
	})

	t.Run("a failing case opener leaves the hit unrecorded so the retry opens it", func(t *testing.T) {
		b := setup(t)
		fail := true
		b.r.Cases = fakeCases{OpenCaseFunc: func(_ context.Context, req CaseRequest) error {
			if fail {
				return errors.New("cases down")
			}
			b.opened = append(b.opened, req)
			return nil
		}}
		args := RescreenArgs{TenantID: string(tenantA), List: ListOFACSDN, ListVersion: "OFAC-SDN@2"}
		_, err := b.r.Run(context.Background(), args)
		require.ErrorContains(t, err, "cases down")
		fail = false
		res, err := b.r.Run(context.Background(), args)
		require.NoError(t, err)
		require.Equal(t, 1, res.NewCases)
	})
}

func TestScreenSuppressionAndValidation(t *testing.T) {
	t.Parallel()
	st := &fakeStore{ActiveFalsePositivesFunc: func(context.Context, tenancy.TenantID) ([]FalsePositive, error) {
		return []FalsePositive{{ID: "fp1", SubjectKey: "BVN-1", EntryID: "e1"}}, nil
	}}
	svc := newTestService(st)
	svc.Matcher().UpsertTenantEntry(tenantA, Entry{ID: "e1", SourceID: "e1", List: "L", ListType: ListTypeInternal, Name: "Emeka Okonkwo"})
	svc.Matcher().UpsertTenantEntry(tenantA, Entry{ID: "e2", SourceID: "e2", List: "L", ListType: ListTypeInternal, Name: "Emeka Okonkwo Nnamdi"})
	ctx := context.Background()
	ids := func(p ScreenParams) []string {
		ms, err := svc.Screen(ctx, tenantA, p)
		require.NoError(t, err)
		var out []string
		for _, m := range ms {
			out = append(out, m.EntryID)
		}
		return out
	}
	require.Equal(t, []string{"e1", "e2"}, ids(ScreenParams{Name: "Emeka Okonkwo"}))
	require.Equal(t, []string{"e2"}, ids(ScreenParams{Name: "Emeka Okonkwo", SubjectKey: "BVN-1"}))
	require.Equal(t, []string{"e2"}, ids(ScreenParams{Name: "Emeka Okonkwo", SubjectKey: "BVN-1", Limit: 1}), "the limit counts unsuppressed matches")
	require.Equal(t, []string{"e1", "e2"}, ids(ScreenParams{Name: "Emeka Okonkwo", SubjectKey: "BVN-2"}))
	require.Nil(t, ids(ScreenParams{Name: "Emeka Okonkwo", Threshold: 0.99, Limit: 1, SubjectKey: "BVN-1"}))

	for _, p := range []ScreenParams{{Name: " "}, {Name: "x", Threshold: 1.5}, {Name: "x", Limit: 101}, {Name: "x", EntityType: "VESSEL"}} {
		_, err := svc.Screen(ctx, tenantA, p)
		require.Error(t, err, "%+v", p)
	}
}

func TestImportParsesBeforeStoring(t *testing.T) {
	t.Parallel()
	st := &fakeStore{ImportListFunc: func(context.Context, ListVersion, []Entry, RescreenArgs) (ListVersion, error) {
		t.Fatal("a bad file must not reach the store")
		return ListVersion{}, nil
	}}
	svc := newTestService(st)
	_, err := svc.Import(context.Background(), ImportParams{List: "X", Format: FormatOFACSDNCSV, Files: []SourceFile{{Name: "sdn.csv", Data: []byte("garbage")}}})
	require.ErrorIs(t, err, ErrBadListFile)
	_, err = svc.Import(context.Background(), ImportParams{List: "X", Format: "pdf", Files: []SourceFile{{Name: "a", Data: []byte("x")}}})
	require.ErrorContains(t, err, "unknown format")
	_, err = svc.Import(context.Background(), ImportParams{List: "bad name", Format: FormatUNXML})
	require.Error(t, err)
}

// TestParseFilesSDNOnly imports sdn.csv alone (alt and add are optional).
func TestParseFilesSDNOnly(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(sanctionsDataDir(t), "ofac_sdn/2024-05-03/sdn.csv"))
	require.NoError(t, err)
	es, err := ParseFiles(FormatOFACSDNCSV, []SourceFile{{Name: "sdn.csv", Data: data}})
	require.NoError(t, err)
	require.Greater(t, len(es), 10000)
}

func TestOFACFileRoles(t *testing.T) {
	t.Parallel()
	f := func(names ...string) []SourceFile {
		out := make([]SourceFile, len(names))
		for i, n := range names {
			out[i] = SourceFile{Name: n, Data: []byte(n)}
		}
		return out
	}
	read := func(r io.Reader) int { b, _ := io.ReadAll(r); return len(b) }
	sdn, alt, add, err := ofacFiles(f("x/add.csv", "x/sdn.csv", "x/alt.csv"))
	require.NoError(t, err)
	require.Equal(t, len("x/sdn.csv"), read(sdn))
	require.Equal(t, len("x/alt.csv"), read(alt))
	require.Equal(t, len("x/add.csv"), read(add))
	// Unrecognised names: taken in order sdn, alt.
	sdn, alt, add, err = ofacFiles(f("one", "two"))
	require.NoError(t, err)
	require.Equal(t, 3, read(sdn))
	require.Equal(t, 3, read(alt))
	require.Nil(t, add, "an absent file is an untyped nil reader")
	_, _, _, err = ofacFiles(f("alt.csv"))
	require.ErrorIs(t, err, ErrBadListFile, "named files without sdn")
	_, _, _, err = ofacFiles(nil)
	require.ErrorIs(t, err, ErrBadListFile)
}
