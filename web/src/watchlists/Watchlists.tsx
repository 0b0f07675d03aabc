import { useState } from 'react';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { WatchlistService, type Watchlist, type ImportWatchlistEntriesResponse } from '../gen/complyd/v1/watchlist_pb';
import { useSession } from '../auth/session';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';

// Watchlists: the tenant's own lists (screened alongside the global ones from the moment an
// entry is added), their entries, a bulk import from a CSV or JSON Lines file read in the
// browser, and the global lists with the version in force and when it was loaded.
// Changing lists is BANK_ADMIN's (the API refuses the others anyway).
export function Watchlists() {
  const { me } = useSession();
  const admin = me.role === 'BANK_ADMIN';
  const [open, setOpen] = useState<string | null>(null);
  const lists = useQuery(WatchlistService.method.listWatchlists, { page: 1, limit: 100 });
  const current = lists.data?.items.find((w) => w.id === open);
  return (
    <section aria-labelledby="wl-h">
      <h1 id="wl-h">Watchlists</h1>
      <h2>Tenant lists</h2>
      {admin && <CreateList onDone={(id) => { void lists.refetch(); setOpen(id); }} />}
      {lists.isPending ? <Loading /> : lists.isError ? <ErrorText error={lists.error} /> : lists.data.items.length === 0 ? <Empty>No watchlists yet.</Empty> : (
        <table aria-label="Tenant watchlists">
          <thead><tr><th>Name</th><th>Type</th><th>Entries</th><th>Created</th><th></th></tr></thead>
          <tbody>{lists.data.items.map((w) => (
            <tr key={w.id}><td>{w.name}</td><td>{w.type}</td><td>{w.entryCount}</td><td>{when(w.createdAt)}</td>
              <td><button type="button" onClick={() => setOpen(w.id)}>Open {w.name}</button></td></tr>))}
          </tbody>
        </table>
      )}
      {current && <ListDetail key={current.id} list={current} admin={admin} onChange={() => void lists.refetch()} />}
      <GlobalLists />
    </section>
  );
}

function CreateList({ onDone }: { onDone: (id: string) => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState('PEP');
  const create = useMutation(WatchlistService.method.createWatchlist, { onSuccess: (w) => { setName(''); onDone(w.id); } });
  return (
    <form className="filters" onSubmit={(e) => { e.preventDefault(); create.mutate({ name, type }); }}>
      <Field label="New list name"><input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} /></Field>
      <Field label="List type">
        <select value={type} onChange={(e) => setType(e.target.value)}>
          <option value="PEP">PEP</option><option value="SANCTIONS">Sanctions</option><option value="INTERNAL">Internal</option>
        </select>
      </Field>
      <button type="submit">Create list</button>
      <ErrorText error={create.error} />
    </form>
  );
}

function ListDetail({ list, admin, onChange }: { list: Watchlist; admin: boolean; onChange: () => void }) {
  const [page, setPage] = useState(1);
  const entries = useQuery(WatchlistService.method.listWatchlistEntries, { watchlistId: list.id, page, limit: 50 });
  const refresh = () => { void entries.refetch(); onChange(); };
  const del = useMutation(WatchlistService.method.deleteWatchlistEntry, { onSuccess: refresh });
  return (
    <section aria-labelledby="wl-detail-h">
      <h2 id="wl-detail-h">{list.name} ({list.type})</h2>
      {admin && <ImportFile list={list} onDone={refresh} />}
      {admin && <AddEntry list={list} onDone={refresh} />}
      <ErrorText error={del.error} />
      {entries.isPending ? <Loading /> : entries.isError ? <ErrorText error={entries.error} /> : entries.data.items.length === 0 ? <Empty>This list has no entries.</Empty> : (
        <>
          <table aria-label={`Entries of ${list.name}`}>
            <thead><tr><th>Name</th><th>Aliases</th><th>Type</th><th>Date of birth</th><th>Country</th><th>Reference</th>{admin && <th></th>}</tr></thead>
            <tbody>{entries.data.items.map((e) => (
              <tr key={e.id}><td>{e.name}</td><td>{e.aliases.join('; ')}</td><td>{e.entityType ?? '—'}</td>
                <td>{e.dateOfBirth ? when(e.dateOfBirth).slice(0, 10) : '—'}</td><td>{e.country ?? '—'}</td><td>{e.reference ?? '—'}</td>
                {admin && <td><button type="button" onClick={() => del.mutate({ watchlistId: list.id, entryId: e.id })}>Delete {e.name}</button></td>}
              </tr>))}
            </tbody>
          </table>
          <Pager page={entries.data.page} totalPages={entries.data.totalPages} total={entries.data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}

function AddEntry({ list, onDone }: { list: Watchlist; onDone: () => void }) {
  const [name, setName] = useState('');
  const [aliases, setAliases] = useState('');
  const add = useMutation(WatchlistService.method.addWatchlistEntry, { onSuccess: () => { setName(''); setAliases(''); onDone(); } });
  return (
    <form className="filters" onSubmit={(e) => {
      e.preventDefault();
      add.mutate({ watchlistId: list.id, name, aliases: aliases.split(';').map((a) => a.trim()).filter(Boolean) });
    }}>
      <Field label="Entry name"><input required maxLength={300} value={name} onChange={(e) => setName(e.target.value)} /></Field>
      <Field label="Aliases (separated by ;)"><input value={aliases} onChange={(e) => setAliases(e.target.value)} /></Field>
      <button type="submit">Add entry</button>
      <ErrorText error={add.error} />
    </form>
  );
}

// ImportFile reads the chosen file in the browser and sends its text to ImportWatchlistEntries;
// a file with bad rows keeps nothing, and every bad row is listed with its line.
function ImportFile({ list, onDone }: { list: Watchlist; onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportWatchlistEntriesResponse | null>(null);
  const imp = useMutation(WatchlistService.method.importWatchlistEntries, {
    onSuccess: (r) => { setResult(r); if (r.imported > 0) onDone(); },
  });
  return (
    <form className="filters" onSubmit={(e) => {
      e.preventDefault();
      if (!file) return;
      setResult(null);
      const format = /\.jsonl?$/i.test(file.name) ? 'JSONL' : 'CSV';
      void file.text().then((content) => imp.mutate({ watchlistId: list.id, format, content }));
    }}>
      <Field label="CSV or JSON Lines file"><input type="file" accept=".csv,.jsonl,.json,text/csv" required onChange={(e) => setFile(e.target.files?.[0] ?? null)} /></Field>
      <button type="submit" disabled={imp.isPending}>Import file</button>
      <ErrorText error={imp.error} />
      {result && result.errors.length === 0 && <p role="status">Imported {result.imported} entries ({result.entryCount} in the list).</p>}
      {result && result.errors.length > 0 && (
        <div role="alert" className="error">
          <p>Nothing was imported: {result.errors.length} problem{result.errors.length > 1 ? 's' : ''} in {result.rows} rows.</p>
          <ul aria-label="Import errors">{result.errors.map((e, i) => (
            <li key={i}>Line {e.line}{e.field ? `, ${e.field}` : ''}: {e.message}</li>))}
          </ul>
        </div>
      )}
    </form>
  );
}

// publishedOn is a list's publication date as its files state it (YYYY-MM-DD), or says they do not.
function publishedOn(t?: Timestamp): string {
  return t ? timestampDate(t).toISOString().slice(0, 10) : 'not stated';
}

function GlobalLists() {
  const g = useQuery(WatchlistService.method.listGlobalLists, {});
  if (g.isPending) return <><h2>Global lists</h2><Loading /></>;
  if (g.isError) return <><h2>Global lists</h2><ErrorText error={g.error} /></>;
  const stale = g.data.items.filter((l) => l.stale);
  return (
    <>
      <h2>Global lists</h2>
      {g.data.missing.length > 0 && (
        <p role="alert" className="error">
          Expected list{g.data.missing.length > 1 ? 's' : ''} missing: {g.data.missing.join(', ')}. Screening runs without {g.data.missing.length > 1 ? 'them' : 'it'} until imported (complyd watchlist import).
        </p>)}
      {stale.map((l) => (
        <p role="alert" className="error" key={l.list}>
          {l.list} is stale: published {publishedOn(l.publishedAt)}, {l.ageDays} days ago (maximum {l.maxAgeDays}). Screening misses every change since.
        </p>))}
      {g.data.items.length === 0 ? <Empty>No global list is loaded: run complyd watchlist import.</Empty> : (
        <table aria-label="Global lists">
          <thead><tr><th>List</th><th>Type</th><th>Version</th><th>Format</th><th>Entries</th><th>Published</th><th>Age</th><th>Loaded</th></tr></thead>
          <tbody>{g.data.items.map((l) => (
            <tr key={l.list}><td>{l.list}</td><td>{l.type}</td><td>{l.version}{l.sourceVersion ? ` (${l.sourceVersion})` : ''}</td><td>{l.format}</td>
              <td>{l.entryCount}</td><td>{publishedOn(l.publishedAt)}</td><td>{l.stale ? `Stale: ${l.ageDays} days` : `${l.ageDays} days`}</td>
              <td>{when(l.importedAt)}</td></tr>))}
          </tbody>
        </table>
      )}
    </>
  );
}
