import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { AuditService } from '../gen/complyd/v1/audit_pb';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';

// AuditLog is the tenant's audit trail (BANK_ADMIN and AUDITOR): who changed what and when,
// filtered by actor, action, resource type and period, paged on the server, and exported whole
// as CSV with the same filters (docs/guide/dashboard.md "Audit log").
export function AuditLog() {
  const [actorId, setActorId] = useState('');
  const [action, setAction] = useState('');
  const [resourceType, setResourceType] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const actor = uuid.test(actorId.trim()) ? actorId.trim() : undefined;
  // Dates are whole UTC days: from its midnight to the next day's (to is exclusive).
  const start = (d: string) => (d ? new Date(d + 'T00:00:00Z') : undefined);
  const end = (d: string) => (d ? new Date(new Date(d + 'T00:00:00Z').getTime() + 86400_000) : undefined);
  const q = useQuery(AuditService.method.listAuditEvents, {
    page, limit: 20, actorId: actor, action: action.trim() || undefined, resourceType: resourceType.trim() || undefined,
    from: from ? timestampFromDate(start(from)!) : undefined, to: to ? timestampFromDate(end(to)!) : undefined,
  });
  const reset = (f: () => void) => { f(); setPage(1); };
  const exportQuery = new URLSearchParams(Object.entries({ actorId: actor ?? '', action: action.trim(), resourceType: resourceType.trim(),
    from: from ? start(from)!.toISOString() : '', to: to ? end(to)!.toISOString() : '' }).filter(([, v]) => v));
  return (
    <section aria-labelledby="audit-h">
      <h1 id="audit-h">Audit log</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Actor (user id)"><input value={actorId} onChange={(e) => reset(() => setActorId(e.target.value))} aria-invalid={actorId !== '' && !actor} /></Field>
        <Field label="Action"><input value={action} placeholder="e.g. user.created" onChange={(e) => reset(() => setAction(e.target.value))} /></Field>
        <Field label="Resource type"><input value={resourceType} placeholder="e.g. case" onChange={(e) => reset(() => setResourceType(e.target.value))} /></Field>
        <Field label="From date"><input type="date" value={from} onChange={(e) => reset(() => setFrom(e.target.value))} /></Field>
        <Field label="To date"><input type="date" value={to} onChange={(e) => reset(() => setTo(e.target.value))} /></Field>
      </form>
      {actorId !== '' && !actor && <p role="alert" className="error">Actor must be a user id (a UUID).</p>}
      <a className="export" href={`/api/v1/audit-events/export.csv?${exportQuery}`} download>Export CSV</a>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.items.length === 0 ? <Empty>No audit events match.</Empty> : (
        <table aria-label="Audit events">
          <thead><tr><th>When</th><th>Actor</th><th>Action</th><th>Resource</th><th>Request</th></tr></thead>
          <tbody>{q.data.items.map((e) => (
            <tr key={e.id}><td>{when(e.createdAt)}</td><td>{e.actorId ?? e.actorType}</td><td>{e.action}</td>
              <td>{e.resourceType}{e.resourceId ? ` ${e.resourceId}` : ''}</td><td>{e.requestId ?? '—'}</td></tr>))}
          </tbody>
        </table>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}
