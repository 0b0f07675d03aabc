import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { CaseService } from '../gen/complyd/v1/case_pb';
import { NotificationService } from '../gen/complyd/v1/notification_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';
import { label, priorities, statuses, types } from './states';

// Queue is "My queue": by default the open cases assigned to me and the unassigned ones, filtered
// (status, type, priority, assignee), sorted (priority or age) and paged on the server.
export function Queue() {
  const { me } = useSession();
  // The filters start from the query string, so a link (an Overview chart) opens a filtered queue.
  const { search } = useRouter().loc;
  const [status, setStatus] = useState(search.get('status') ?? 'OPEN');
  const [type, setType] = useState(search.get('type') ?? '');
  const [priority, setPriority] = useState(search.get('priority') ?? '');
  const [scope, setScope] = useState<'queue' | 'mine' | 'unassigned' | 'all'>((search.get('scope') as 'all' | null) ?? 'queue');
  const [sort, setSort] = useState(search.get('sort') ?? 'PRIORITY');
  const [page, setPage] = useState(1);
  const q = useQuery(CaseService.method.listCases, {
    page, limit: 20,
    status: status || undefined, type: type || undefined, priority: priority || undefined,
    assigneeId: scope === 'queue' || scope === 'mine' ? me.id : undefined,
    includeUnassigned: scope === 'queue' || scope === 'unassigned' ? true : undefined,
    sort,
  });
  const items = q.data?.items ?? [];
  const reset = (f: () => void) => { f(); setPage(1); };
  return (
    <section aria-labelledby="queue-h">
      <h1 id="queue-h">My queue <span className="badge" aria-label={`${q.data?.total ?? 0} cases`}>{q.data?.total ?? 0}</span></h1>
      <Notifications />
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Status"><select value={status} onChange={(e) => reset(() => setStatus(e.target.value))}><option value="">any</option>{statuses.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select></Field>
        <Field label="Type"><select value={type} onChange={(e) => reset(() => setType(e.target.value))}><option value="">any</option>{types.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select></Field>
        <Field label="Priority"><select value={priority} onChange={(e) => reset(() => setPriority(e.target.value))}><option value="">any</option>{priorities.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select></Field>
        <Field label="Assignee"><select value={scope} onChange={(e) => reset(() => setScope(e.target.value as typeof scope))}>
          <option value="queue">me and unassigned</option><option value="mine">me only</option><option value="unassigned">unassigned only</option><option value="all">anyone</option></select></Field>
        <Field label="Sort by"><select value={sort} onChange={(e) => reset(() => setSort(e.target.value))}><option value="PRIORITY">priority</option><option value="OLDEST">age (oldest first)</option><option value="NEWEST">newest first</option></select></Field>
      </form>
      <a className="export" href={`/api/v1/cases/export.csv?${new URLSearchParams(Object.entries({ status, type, priority,
        assigneeId: scope === 'queue' || scope === 'mine' ? me.id : '', includeUnassigned: scope === 'queue' || scope === 'unassigned' ? 'true' : '' })
        .filter(([, v]) => v) as [string, string][])}`} download>Export CSV</a>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : items.length === 0 ? <Empty>No cases match these filters.</Empty> : (
        <table>
          <thead><tr><th>Case</th><th>Title</th><th>Type</th><th>Priority</th><th>Status</th><th>Assignee</th><th>Opened</th></tr></thead>
          <tbody>{items.map((c) => (
            <tr key={c.id}>
              <td><Link to={`/cases/${c.id}`}>{c.caseNumber}</Link></td><td>{c.title}</td><td>{label(c.type)}</td>
              <td className={`prio-${c.priority}`}>{label(c.priority)}</td><td>{label(c.status)}</td>
              <td>{c.assignee ? `${c.assignee.firstName} ${c.assignee.lastName}` : 'unassigned'}</td><td>{when(c.createdAt)}</td>
            </tr>))}
          </tbody>
        </table>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

function Notifications() {
  const q = useQuery(NotificationService.method.listNotifications, { page: 1, limit: 5 });
  const read = useMutation(NotificationService.method.markNotificationRead, { onSuccess: () => void q.refetch() });
  const items = q.data?.items ?? [];
  if (!items.length) return null;
  return (
    <aside aria-label="Notifications" className="notes">
      <h2>Notifications</h2>
      <ul>{items.map((n) => (
        <li key={n.id} className={n.readAt ? 'read' : 'unread'}>
          <strong>{n.title}</strong> {n.message}
          {!n.readAt && <button type="button" onClick={() => read.mutate({ id: n.id })}>Mark read: {n.title}</button>}
        </li>))}
      </ul>
    </aside>
  );
}
