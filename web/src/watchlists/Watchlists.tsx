import { useState } from 'react';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { useSession } from '../auth/session';
import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { WatchlistService, type GlobalList, type Watchlist, type WatchlistEntry, type ImportWatchlistEntriesResponse } from '../gen/complyd/v1/watchlist_pb';
import { ErrorText, Field, Loading, Pager } from '../ui/parts';
import { DataTable, type Col } from '../ui/DataTable';
import { calendarDate, count, dateTime, enumLabel, plural } from '../ui/format';
import { useZone } from '../ui/zone';

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
  const zone = useZone();
  const cols: Col<Watchlist>[] = [
    { id: 'name', header: 'Name', cell: (w) => w.name, sort: (w) => w.name },
    { id: 'type', header: 'Type', cell: (w) => enumLabel(w.type), sort: (w) => w.type },
    { id: 'entries', header: 'Entries', cell: (w) => count(w.entryCount), sort: (w) => w.entryCount },
    { id: 'created', header: 'Created', cell: (w) => dateTime(w.createdAt, zone) },
    { id: 'open', header: 'Open', cell: (w) => <Button size="xs" variant="default" onClick={() => setOpen(w.id)}>Open {w.name}</Button> },
  ];
  return (
    <section aria-labelledby="wl-h">
      <Title order={1} id="wl-h" mb="sm">Watchlists</Title>
      <Title order={2} size="h3" mb="xs">Tenant lists</Title>
      {admin && <CreateList onDone={(id) => { void lists.refetch(); setOpen(id); }} />}
      {lists.isError ? <ErrorText error={lists.error} /> : (
        <DataTable label="Tenant watchlists" rows={lists.data?.items} cols={cols} rowKey={(w) => w.id} loading={lists.isPending}
          empty="No watchlists yet." onOpen={(w) => setOpen(w.id)} />
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
    <form onSubmit={(e) => { e.preventDefault(); create.mutate({ name, type }); }}>
      <Group align="end" gap="sm" wrap="wrap" mb="sm">
        <TextInput label="New list name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <NativeSelect label="List type" value={type} onChange={(e) => setType(e.currentTarget.value)}
          data={[{ value: 'PEP', label: 'PEP' }, { value: 'SANCTIONS', label: 'Sanctions' }, { value: 'INTERNAL', label: 'Internal' }]} />
        <Button type="submit" loading={create.isPending}>Create list</Button>
      </Group>
      <ErrorText error={create.error} />
    </form>
  );
}

function ListDetail({ list, admin, onChange }: { list: Watchlist; admin: boolean; onChange: () => void }) {
  const [page, setPage] = useState(1);
  const entries = useQuery(WatchlistService.method.listWatchlistEntries, { watchlistId: list.id, page, limit: 50 });
  const refresh = () => { void entries.refetch(); onChange(); };
  const del = useMutation(WatchlistService.method.deleteWatchlistEntry, { onSuccess: refresh });
  const cols: Col<WatchlistEntry>[] = [
    { id: 'name', header: 'Name', cell: (e) => e.name, sort: (e) => e.name },
    { id: 'aliases', header: 'Aliases', cell: (e) => e.aliases.join('; ') },
    { id: 'type', header: 'Type', cell: (e) => e.entityType ?? '—', sort: (e) => e.entityType ?? '' },
    { id: 'dob', header: 'Date of birth', cell: (e) => (e.dateOfBirth ? calendarDate(isoDay(e.dateOfBirth)) : '—') },
    { id: 'country', header: 'Country', cell: (e) => e.country ?? '—', sort: (e) => e.country ?? '' },
    { id: 'reference', header: 'Reference', cell: (e) => e.reference ?? '—' },
    ...(admin ? [{ id: 'delete', header: 'Delete', cell: (e: WatchlistEntry) => (
      <Button size="xs" color="red.8" variant="outline" loading={del.isPending && del.variables?.entryId === e.id}
        onClick={() => del.mutate({ watchlistId: list.id, entryId: e.id })}>Delete {e.name}</Button>) }] : []),
  ];
  return (
    <section aria-labelledby="wl-detail-h">
      <Title order={2} size="h3" id="wl-detail-h" my="sm">{list.name} ({list.type})</Title>
      {admin && <ImportFile list={list} onDone={refresh} />}
      {admin && <AddEntry list={list} onDone={refresh} />}
      <ErrorText error={del.error} />
      {entries.isError ? <ErrorText error={entries.error} /> : (
        <DataTable label={`Entries of ${list.name}`} rows={entries.data?.items} cols={cols} rowKey={(e) => e.id} loading={entries.isPending}
          empty="This list has no entries." />
      )}
      {entries.data && entries.data.items.length > 0 && <Pager page={entries.data.page} totalPages={entries.data.totalPages} total={entries.data.total} onPage={setPage} />}
    </section>
  );
}

function AddEntry({ list, onDone }: { list: Watchlist; onDone: () => void }) {
  const [name, setName] = useState('');
  const [aliases, setAliases] = useState('');
  const add = useMutation(WatchlistService.method.addWatchlistEntry, { onSuccess: () => { setName(''); setAliases(''); onDone(); } });
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      add.mutate({ watchlistId: list.id, name, aliases: aliases.split(';').map((a) => a.trim()).filter(Boolean) });
    }}>
      <Group align="end" gap="sm" wrap="wrap" mb="sm">
        <TextInput label="Entry name" required maxLength={300} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="Aliases (separated by ;)" value={aliases} onChange={(e) => setAliases(e.currentTarget.value)} />
        <Button type="submit" loading={add.isPending}>Add entry</Button>
      </Group>
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
      <Button type="submit" loading={imp.isPending} mb="xs">Import file</Button>
      <Stack gap={4} w="100%">
        <ErrorText error={imp.error} />
        {result && result.errors.length === 0 && <Text role="status" size="sm">Imported {result.imported} entries ({result.entryCount} in the list).</Text>}
        {result && result.errors.length > 0 && (
          <Alert role="alert" color="red" variant="light" p="xs">
            <Text size="sm" c="red.9" fw={600}>Nothing was imported: {plural(result.errors.length, 'problem')} in {result.rows} rows.</Text>
            <ul aria-label="Import errors">{result.errors.map((e, i) => (
              <li key={i}>Line {e.line}{e.field ? `, ${e.field}` : ''}: {e.message}</li>))}
            </ul>
          </Alert>
        )}
      </Stack>
    </form>
  );
}

// isoDay is a date-only timestamp's day (YYYY-MM-DD): lists state days, stored at UTC midnight.
function isoDay(t: Timestamp): string {
  return timestampDate(t).toISOString().slice(0, 10);
}

// publishedOn is a list's publication date as its files state it, written as people read it
// ("27 May 2024"), or says they do not.
function publishedOn(t?: Timestamp): string {
  return t ? calendarDate(isoDay(t)) : 'not stated';
}

function GlobalLists() {
  const g = useQuery(WatchlistService.method.listGlobalLists, {});
  const zone = useZone();
  const head = <Title order={2} size="h3" my="sm">Global lists</Title>;
  if (g.isPending) return <>{head}<Loading /></>;
  if (g.isError) return <>{head}<ErrorText error={g.error} /></>;
  const stale = g.data.items.filter((l) => l.stale);
  const cols: Col<GlobalList>[] = [
    { id: 'list', header: 'List', cell: (l) => l.list, sort: (l) => l.list },
    { id: 'type', header: 'Type', cell: (l) => enumLabel(l.type), sort: (l) => l.type },
    { id: 'version', header: 'Version', cell: (l) => `${l.version}${l.sourceVersion ? ` (${l.sourceVersion})` : ''}` },
    { id: 'format', header: 'Format', cell: (l) => l.format, hidden: false },
    { id: 'entries', header: 'Entries', cell: (l) => count(l.entryCount), sort: (l) => l.entryCount },
    { id: 'published', header: 'Published', cell: (l) => publishedOn(l.publishedAt) },
    { id: 'age', header: 'Age', cell: (l) => (l.stale ? `Stale: ${l.ageDays} days` : `${l.ageDays} days`), sort: (l) => l.ageDays },
    { id: 'loaded', header: 'Loaded', cell: (l) => dateTime(l.importedAt, zone) },
  ];
  return (
    <>
      {head}
      <Stack gap="xs" mb="xs">
        {g.data.missing.length > 0 && (
          <Alert role="alert" color="red" variant="light" p="xs"><Text size="sm" c="red.9" fw={600}>
            Expected list{g.data.missing.length > 1 ? 's' : ''} missing: {g.data.missing.join(', ')}. Screening runs without {g.data.missing.length > 1 ? 'them' : 'it'} until imported (complyd watchlist import).
          </Text></Alert>)}
        {stale.map((l) => (
          <Alert role="alert" color="orange" variant="light" p="xs" key={l.list}><Text size="sm" c="gray.9" fw={600}>
            {l.list} is stale: published {publishedOn(l.publishedAt)}, {l.ageDays} days ago (maximum {l.maxAgeDays}). Screening misses every change since.
          </Text></Alert>))}
      </Stack>
      <DataTable label="Global lists" rows={g.data.items} cols={cols} rowKey={(l) => l.list}
        empty="No global list is loaded: run complyd watchlist import." />
    </>
  );
}
