import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { CaseService } from '../gen/complyd/v1/case_pb';
import { NotificationService } from '../gen/complyd/v1/notification_pb';
import { useSession } from '../auth/session';
import { Link } from '../ui/router';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';
import { label, priorities, statuses, types } from './states';

const rank: Record<string, number> = { CRITICAL: 0, HIGH: 1, MEDIUM: 2, LOW: 3 };

// Queue is "My queue": open cases, filtered on the server (status, type, priority, assignee) and
// paged there; the page shown is sorted by priority or age.
export function Queue() {
  const { me } = useSession();
  const [status, setStatus] = useState('OPEN');
  const [type, setType] = useState('');
  const [priority, setPriority] = useState('');
  const [mine, setMine] = useState(false);
  const [sort, setSort] = useState<'priority' | 'age'>('priority');
  const [page, setPage] = useState(1);
  const q = useQuery(CaseService.method.listCases, {
    page, limit: 20,
    status: status || undefined, type: type || undefined, priority: priority || undefined,
    assigneeId: mine ? me.id : undefined,
  });
  const items = [...(q.data?.items ?? [])].sort((a, b) =>
    sort === 'priority'
      ? (rank[a.priority] ?? 9) - (rank[b.priority] ?? 9)
      : Number(a.createdAt?.seconds ?? 0n) - Number(b.createdAt?.seconds ?? 0n));
  const reset = (f: () => void) => { f(); setPage(1); };
  return (
    <section aria-labelledby="queue-h">
      <h1 id="queue-h">My queue <span className="badge" aria-label={`${q.data?.total ?? 0} cases`}>{q.data?.total ?? 0}</span></h1>
      <Notifications />
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Status"><select value={status} onChange={(e) => reset(() => setStatus(e.target.value))}><option value="">any</option>{statuses.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select></Field>
        <Field label="Type"><select value={type} onChange={(e) => reset(() => setType(e.target.value))}><option value="">any</option>{types.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select></Field>
        <Field label="Priority"><select value={priority} onChange={(e) => reset(() => setPriority(e.target.value))}><option value="">any</option>{priorities.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select></Field>
        <Field label="Assigned to me only"><input type="checkbox" checked={mine} onChange={(e) => reset(() => setMine(e.target.checked))} /></Field>
        <Field label="Sort by"><select value={sort} onChange={(e) => setSort(e.target.value as 'priority' | 'age')}><option value="priority">priority</option><option value="age">age (oldest first)</option></select></Field>
      </form>
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
