import { useEffect, useRef, useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Badge, Button, Checkbox, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { StatusBadge } from '../ui/StatusBadge';
import { CaseService } from '../gen/complyd/v1/case_pb';
import { CaseWorkspaceService, type BulkCasesResponse } from '../gen/complyd/v1/case_workspace_pb';
import { NotificationService } from '../gen/complyd/v1/notification_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { Empty, ErrorText, Loading, Pager } from '../ui/parts';
import { dateTime, enumLabel, money, plural } from '../ui/format';
import { dueText, overdue } from './due';
import { SavedViews, type Filters } from './SavedViews';
import { Shortcuts, useQueueKeys } from './Shortcuts';
import './cases.css';

// The filters' choices: every value the API takes for a case's status, type and priority (the
// moves a case may make are the server's, Case.allowedTransitions on its page).
const statuses = ['OPEN', 'IN_PROGRESS', 'PENDING_REVIEW', 'ESCALATED', 'RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE', 'CLOSED'];
const types = ['SUSPICIOUS_TRANSACTION', 'AML_ALERT', 'SANCTIONS_HIT', 'PEP_MATCH', 'FRAUD_ALERT', 'KYC_REVIEW', 'REGULATORY_INQUIRY', 'BEHAVIORAL_ANOMALY'];
const priorities = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

type Scope = 'queue' | 'mine' | 'unassigned' | 'all' | 'confirm';

// Queue triages (issue 50 point 3): time to due beside the case (what the officer sorts by, kept
// in view on a tablet), amount, party, top rule, score and age; the
// inboxes and their service level (sort "due": breached first); "needs my confirmation" (the
// pending proposals of others, four eyes); bulk assign and propose; saved views; keyboard
// shortcuts (Shortcuts.tsx). Filters, sort and paging are the server's.
export function Queue() {
  const { me, canAct } = useSession();
  const { search } = useRouter().loc;
  const [f, setF] = useState<Filters>({
    status: search.get('status') ?? 'OPEN', type: search.get('type') ?? '', priority: search.get('priority') ?? '',
    scope: (search.get('scope') as Scope | null) ?? 'queue', sort: search.get('sort') ?? 'DUE', inboxId: search.get('inbox') ?? '',
  });
  const [page, setPage] = useState(1);
  const scope = f.scope as Scope;
  const q = useQuery(CaseService.method.listCases, {
    page, limit: 20,
    status: scope === 'confirm' ? undefined : f.status || undefined, type: f.type || undefined, priority: f.priority || undefined,
    assigneeId: scope === 'queue' || scope === 'mine' ? me.id : undefined,
    includeUnassigned: scope === 'queue' || scope === 'unassigned' ? true : undefined,
    awaitingMyConfirmation: scope === 'confirm' ? true : undefined,
    inboxId: f.inboxId || undefined, sort: f.sort,
  });
  const inboxes = useQuery(CaseWorkspaceService.method.listCaseInboxes, {});
  const items = q.data?.items ?? [];
  const set = (patch: Partial<Filters>) => { setF((old) => ({ ...old, ...patch })); setPage(1); };
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [cursor, setCursor] = useState(0);
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const { navigate } = useRouter();
  const assign = useMutation(CaseService.method.assignCase, { onSuccess: () => void q.refetch() });
  useEffect(() => { setCursor(0); setSelected(new Set()); }, [q.data]);
  useEffect(() => { rows.current[cursor]?.focus(); }, [cursor]);
  useQueueKeys({
    next: () => setCursor((c) => Math.min(c + 1, items.length - 1)),
    prev: () => setCursor((c) => Math.max(c - 1, 0)),
    open: () => items[cursor] && navigate(`/cases/${items[cursor].id}`),
    toggle: () => items[cursor] && setSelected((s) => toggled(s, items[cursor].id)),
    assignToMe: () => canAct && items[cursor] && assign.mutate({ id: items[cursor].id, assigneeId: me.id }),
    nextPage: () => q.data && page < q.data.totalPages && setPage(page + 1),
    prevPage: () => page > 1 && setPage(page - 1),
  });
  const inboxOptions = [{ value: '', label: 'Any' }, ...(inboxes.data?.items ?? []).map((i) => ({ value: i.id, label: `${i.name} (${plural(i.breachedCases, 'breach', 'breaches')})` }))];
  return (
    <Stack component="section" aria-labelledby="queue-h" gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} id="queue-h" size="h2">My queue <Badge aria-label={`${q.data?.total ?? 0} cases`} size="lg">{q.data?.total ?? 0}</Badge></Title>
        <Shortcuts />
      </Group>
      <Notifications />
      <form className="filters queue-filters" onSubmit={(e) => e.preventDefault()} aria-label="Queue filters">
        <NativeSelect label="Show" value={scope} onChange={(e) => set({ scope: e.currentTarget.value })} data={[
          { value: 'queue', label: 'Me and unassigned' }, { value: 'mine', label: 'Me only' }, { value: 'unassigned', label: 'Unassigned only' },
          { value: 'all', label: 'Anyone' }, { value: 'confirm', label: 'Needs my confirmation' }]} />
        <NativeSelect label="Status" value={f.status} disabled={scope === 'confirm'} onChange={(e) => set({ status: e.currentTarget.value })}
          data={[{ value: '', label: 'Any' }, ...statuses.map((s) => ({ value: s, label: enumLabel(s) }))]} />
        <NativeSelect label="Type" value={f.type} onChange={(e) => set({ type: e.currentTarget.value })}
          data={[{ value: '', label: 'Any' }, ...types.map((s) => ({ value: s, label: enumLabel(s) }))]} />
        <NativeSelect label="Priority" value={f.priority} onChange={(e) => set({ priority: e.currentTarget.value })}
          data={[{ value: '', label: 'Any' }, ...priorities.map((s) => ({ value: s, label: enumLabel(s) }))]} />
        <NativeSelect label="Inbox" value={f.inboxId} onChange={(e) => set({ inboxId: e.currentTarget.value })} data={inboxOptions} />
        <NativeSelect label="Sort by" value={f.sort} onChange={(e) => set({ sort: e.currentTarget.value })} data={[
          { value: 'DUE', label: 'Due time (breached first)' }, { value: 'PRIORITY', label: 'Priority' },
          { value: 'OLDEST', label: 'Age (oldest first)' }, { value: 'NEWEST', label: 'Newest first' }]} />
      </form>
      <Group gap="md" wrap="wrap" align="end">
        <SavedViews current={f} onApply={(v) => { setF(v); setPage(1); }} />
        <a className="export" href={`/api/v1/cases/export.csv?${new URLSearchParams(Object.entries({ status: scope === 'confirm' ? '' : f.status, type: f.type, priority: f.priority,
          assigneeId: scope === 'queue' || scope === 'mine' ? me.id : '', includeUnassigned: scope === 'queue' || scope === 'unassigned' ? 'true' : '' })
          .filter(([, v]) => v) as [string, string][])}`} download>Export CSV</a>
      </Group>
      {canAct && selected.size > 0 && <Bulk ids={[...selected]} onDone={() => { setSelected(new Set()); void q.refetch(); }} />}
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : items.length === 0 ? <Empty>No cases match these filters.</Empty> : (
        <div className="queue-table">
          <Table highlightOnHover fz="sm" aria-label="Cases">
            <Table.Thead><Table.Tr>
              {canAct && <Table.Th scope="col"><span className="sr-only">Select</span></Table.Th>}
              <Table.Th scope="col">Case</Table.Th><Table.Th scope="col">Due</Table.Th><Table.Th scope="col">Party</Table.Th><Table.Th scope="col">Amount</Table.Th>
              <Table.Th scope="col">Top rule</Table.Th><Table.Th scope="col">Score</Table.Th><Table.Th scope="col">Priority</Table.Th>
              <Table.Th scope="col">Status</Table.Th><Table.Th scope="col">Assignee</Table.Th><Table.Th scope="col">Age</Table.Th>
            </Table.Tr></Table.Thead>
            <Table.Tbody>{items.map((c, i) => (
              <Table.Tr key={c.id} ref={(el) => { rows.current[i] = el; }} tabIndex={-1} data-cursor={i === cursor || undefined}
                aria-selected={selected.has(c.id)} onFocus={() => setCursor(i)}>
                {canAct && <Table.Td><Checkbox aria-label={`Select ${c.caseNumber}`} checked={selected.has(c.id)} onChange={() => setSelected((s) => toggled(s, c.id))} /></Table.Td>}
                <Table.Td data-label="Case"><Link to={`/cases/${c.id}`}>{c.caseNumber}</Link><Text size="xs">{c.title}</Text></Table.Td>
                <Table.Td data-label="Due">{c.dueAt ? <Badge color={overdue(c.dueAt) ? 'red.9' : '#1e6b30'} variant="filled" tt="none">{dueText(c.dueAt)}</Badge> : '—'}</Table.Td>
                <Table.Td data-label="Party">{c.party || '—'}</Table.Td>
                <Table.Td data-label="Amount">{c.amount ? money(c.amount, c.currency) : '—'}</Table.Td>
                <Table.Td data-label="Top rule">{c.topRule || enumLabel(c.type)}</Table.Td>
                <Table.Td data-label="Score">{c.score ? c.score.toFixed(0) : '—'}</Table.Td>
                <Table.Td data-label="Priority"><StatusBadge value={c.priority} /></Table.Td>
                <Table.Td data-label="Status"><StatusBadge value={c.status} /></Table.Td>
                <Table.Td data-label="Assignee">{c.assignee ? `${c.assignee.firstName} ${c.assignee.lastName}` : 'Unassigned'}</Table.Td>
                <Table.Td data-label="Age" title={dateTime(c.createdAt)}>{dueText(c.createdAt).replace(/^overdue by /, '').replace(/^due in /, '')}</Table.Td>
              </Table.Tr>))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </Stack>
  );
}

function toggled(s: Set<string>, id: string): Set<string> {
  const n = new Set(s);
  if (n.has(id)) n.delete(id); else n.add(id);
  return n;
}

// Bulk assigns or proposes for the selected cases; each case's failure is listed with its reason.
function Bulk({ ids, onDone }: { ids: string[]; onDone: () => void }) {
  const { me } = useSession();
  const people = useQuery(CaseWorkspaceService.method.listAssignableUsers, {}, { retry: false });
  const [who, setWho] = useState(me.id);
  const [resolution, setResolution] = useState('FALSE_POSITIVE');
  const [note, setNote] = useState('');
  const [result, setResult] = useState<BulkCasesResponse | null>(null);
  const done = (r: BulkCasesResponse) => { setResult(r); onDone(); };
  const assign = useMutation(CaseWorkspaceService.method.bulkAssignCases, { onSuccess: done });
  const propose = useMutation(CaseWorkspaceService.method.bulkProposeResolution, { onSuccess: (r) => { setNote(''); done(r); } });
  const officer = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'].includes(me.role);
  return (
    <Stack gap="xs" className="bulk" component="section" aria-label="Bulk actions">
      <Text fw={700}>{plural(ids.length, 'case')} selected</Text>
      {officer && (
        <Group align="end" gap="xs" wrap="wrap">
          <NativeSelect label="Assign selected to" value={who} onChange={(e) => setWho(e.currentTarget.value)}
            data={(people.data?.items ?? [{ id: me.id, firstName: me.firstName, lastName: me.lastName }]).map((p) => ({ value: p.id, label: p.id === me.id ? 'me' : `${p.firstName} ${p.lastName}` }))} />
          <Button onClick={() => assign.mutate({ caseIds: ids, assigneeId: who })} loading={assign.isPending}>Assign selected</Button>
        </Group>
      )}
      <Group align="end" gap="xs" wrap="wrap">
        <NativeSelect label="Propose for selected" value={resolution} onChange={(e) => setResolution(e.currentTarget.value)}
          data={[{ value: 'FALSE_POSITIVE', label: 'False positive' }, { value: 'TRUE_POSITIVE', label: 'True positive' }]} />
        <TextInput label="Rationale for selected" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        <Button variant="default" disabled={!note.trim()} onClick={() => propose.mutate({ caseIds: ids, resolution, note })} loading={propose.isPending}>Propose for selected</Button>
      </Group>
      <ErrorText error={assign.error ?? propose.error} />
      {result && <BulkResult r={result} />}
    </Stack>
  );
}

function BulkResult({ r }: { r: BulkCasesResponse }) {
  return (
    <div role="status">
      <Text size="sm">{plural(r.succeeded, 'case')} done, {plural(r.failed, 'failure')}.</Text>
      {r.failed > 0 && <ul>{r.results.filter((x) => !x.ok).map((x) => <li key={x.caseId}>{x.caseId}: {x.errorMessage}</li>)}</ul>}
    </div>
  );
}

function Notifications() {
  const q = useQuery(NotificationService.method.listNotifications, { page: 1, limit: 5 });
  const read = useMutation(NotificationService.method.markNotificationRead, { onSuccess: () => void q.refetch() });
  const items = q.data?.items ?? [];
  if (!items.length) return null;
  return (
    <aside aria-label="Notifications" className="notes">
      <Title order={2} size="h4">Notifications</Title>
      <ul>{items.map((n) => (
        <li key={n.id} className={n.readAt ? 'read' : 'unread'} style={{ overflowWrap: 'anywhere' }}>
          <strong>{n.title}</strong> {n.message}
          {/* The visible label stays short (a report id in it ran past a phone's width); the
              accessible name says which notification. */}
          {!n.readAt && <Button size="compact-xs" variant="default" ml="xs" aria-label={`Mark read: ${n.title}`} onClick={() => read.mutate({ id: n.id })}>Mark read</Button>}
        </li>))}
      </ul>
    </aside>
  );
}

