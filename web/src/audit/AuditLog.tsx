import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Anchor, Group, NativeSelect, TextInput, Title } from '@mantine/core';
import { AuditService, type AuditEvent } from '../gen/complyd/v1/audit_pb';
import { ErrorText, Pager } from '../ui/parts';
import { DataTable, type Col } from '../ui/DataTable';
import { auditAction, dateTime, enumLabel } from '../ui/format';
import { useZone } from '../ui/zone';

// AuditLog is the tenant's audit trail (BANK_ADMIN and AUDITOR): who changed what and when, the
// action in words (its code on hover, the code is what the Action filter takes),
// filtered by actor, action, resource type and period, paged on the server, and exported whole
// as CSV with the same filters (docs/guide/dashboard.md "Audit log").
export function AuditLog() {
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [resourceType, setResourceType] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const zone = useZone();
  // Dates are whole UTC days: from its midnight to the next day's (to is exclusive).
  const start = (d: string) => (d ? new Date(d + 'T00:00:00Z') : undefined);
  const end = (d: string) => (d ? new Date(new Date(d + 'T00:00:00Z').getTime() + 86400_000) : undefined);
  const q = useQuery(AuditService.method.listAuditEvents, {
    page, limit: 20, actorId: actor || undefined, action: action.trim() || undefined, resourceType: resourceType.trim() || undefined,
    from: from ? timestampFromDate(start(from)!) : undefined, to: to ? timestampFromDate(end(to)!) : undefined,
  });
  const reset = (f: () => void) => { f(); setPage(1); };
  const exportQuery = new URLSearchParams(Object.entries({ actorId: actor, action: action.trim(), resourceType: resourceType.trim(),
    from: from ? start(from)!.toISOString() : '', to: to ? end(to)!.toISOString() : '' }).filter(([, v]) => v));
  // The actors to choose from are the tenant's users by name, as the answer lists them; the
  // chosen one stays offered while a page loads.
  const actors = q.data?.actors ?? [];
  const cols: Col<AuditEvent>[] = [
    { id: 'when', header: 'When', cell: (e) => dateTime(e.createdAt, zone) },
    { id: 'actor', header: 'Actor', cell: (e) => e.actorName || (e.actorId && e.actorType === 'USER' ? 'Unknown user' : enumLabel(e.actorType)), sort: (e) => e.actorName || e.actorType },
    { id: 'action', header: 'Action', cell: (e) => <span title={e.action}>{auditAction(e.action)}</span>, sort: (e) => e.action },
    { id: 'resource', header: 'Resource', cell: (e) => <>{enumLabel(e.resourceType)}{e.resourceId ? <> <code className="rid">{e.resourceId}</code></> : null}</>, sort: (e) => e.resourceType },
    { id: 'request', header: 'Request', cell: (e) => e.requestId ?? '—', hidden: true },
  ];
  return (
    <section aria-labelledby="audit-h">
      <Title order={1} id="audit-h" mb="sm">Audit log</Title>
      <form onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap" mb="sm">
          <NativeSelect label="Actor" value={actor} onChange={(e) => reset(() => setActor(e.currentTarget.value))}
            data={[{ value: '', label: 'Anyone' }, ...actors.map((a) => ({ value: a.id, label: a.name }))]} />
          <TextInput label="Action" value={action} placeholder="e.g. user.created" onChange={(e) => reset(() => setAction(e.currentTarget.value))} />
          <TextInput label="Resource type" value={resourceType} placeholder="e.g. case" onChange={(e) => reset(() => setResourceType(e.currentTarget.value))} />
          <TextInput label="From date" type="date" value={from} onChange={(e) => reset(() => setFrom(e.currentTarget.value))} />
          <TextInput label="To date" type="date" value={to} onChange={(e) => reset(() => setTo(e.currentTarget.value))} />
        </Group>
      </form>
      <Anchor className="export" href={`/api/v1/audit-events/export.csv?${exportQuery}`} download size="sm">Export CSV</Anchor>
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="Audit events" rows={q.data?.items} cols={cols} rowKey={(e) => e.id} loading={q.isPending} empty="No audit events match." />
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}
