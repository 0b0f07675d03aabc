import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Button, Code, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { WebhookService, type WebhookAttempt as Attempt, type WebhookDelivery } from '../../gen/complyd/v1/webhook_pb';
import { ErrorText, Loading, Pager } from '../../ui/parts';
import { count, dateTime, enumLabel } from '../../ui/format';
import { useZone } from '../../ui/zone';
import { DataTable, type Col } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';

const statuses = ['PENDING', 'DELIVERED', 'FAILED', 'DEAD'];

// Deliveries is the delivery log: status, attempts and the last response code of each event,
// each delivery's attempts on demand (below the log), and replay (a finished delivery) or retry
// (a dead one).
export function Deliveries() {
  const zone = useZone();
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const q = useQuery(WebhookService.method.listWebhookDeliveries, { page, limit: 20, status: status || undefined });
  const done = () => void q.refetch();
  const cols: Col<WebhookDelivery>[] = [
    { id: 'event', header: 'Event', rowHeader: true, cell: (d) => d.event, sort: (d) => d.event },
    { id: 'id', header: 'Delivery', cell: (d) => <Code>{d.id}</Code> },
    { id: 'status', header: 'Status', cell: (d) => <span data-testid="delivery-status"><StatusBadge value={d.status} /></span>, sort: (d) => d.status },
    { id: 'attempts', header: 'Attempts', cell: (d) => count(d.attempts), sort: (d) => d.attempts },
    { id: 'last', header: 'Last response', cell: (d) => `${d.lastStatusCode ?? '—'}${d.lastError ? ` ${d.lastError}` : ''}` },
    { id: 'created', header: 'Created', cell: (d) => dateTime(d.createdAt, zone), sort: (d) => Number(d.createdAt?.seconds ?? 0) },
    { id: 'actions', header: 'Actions', cell: (d) => <DeliveryActions d={d} open={open === d.id} onToggle={() => setOpen(open === d.id ? null : d.id)} onDone={done} /> },
  ];
  return (
    <Stack component="section" aria-labelledby="whd-h" gap="sm">
      <Title order={2} size="h3" id="whd-h">Delivery log</Title>
      <form onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap">
          <NativeSelect label="Delivery status" value={status} onChange={(e) => { setStatus(e.currentTarget.value); setPage(1); }}
            data={[{ value: '', label: 'Any' }, ...statuses.map((s) => ({ value: s, label: enumLabel(s) }))]} />
          <Button variant="default" onClick={() => void q.refetch()}>Refresh log</Button>
        </Group>
      </form>
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="Deliveries" rows={q.data?.items} loading={q.isPending} cols={cols} rowKey={(d) => d.id} rowLabel={(d) => `${d.event} ${d.id}`} empty="No deliveries." />
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
      {open && <Attempts id={open} />}
    </Stack>
  );
}

function DeliveryActions({ d, open, onToggle, onDone }: { d: WebhookDelivery; open: boolean; onToggle: () => void; onDone: () => void }) {
  const replay = useMutation(WebhookService.method.replayWebhookDelivery, { onSuccess: onDone });
  const retry = useMutation(WebhookService.method.retryWebhookDelivery, { onSuccess: onDone });
  return (
    <Stack gap={4} align="flex-start">
      <Button size="xs" variant="default" aria-expanded={open} onClick={onToggle}>Attempts of {d.id}</Button>
      {d.status === 'DELIVERED' && <Button size="xs" variant="light" onClick={() => replay.mutate({ id: d.id })}>Replay {d.id}</Button>}
      {d.status === 'DEAD' && <Button size="xs" variant="light" onClick={() => retry.mutate({ id: d.id })}>Retry {d.id}</Button>}
      <ErrorText error={replay.error ?? retry.error} />
    </Stack>
  );
}

function Attempts({ id }: { id: string }) {
  const zone = useZone();
  const q = useQuery(WebhookService.method.listWebhookAttempts, { id });
  const cols: Col<Attempt>[] = [
    { id: 'attempt', header: 'Attempt', rowHeader: true, cell: (a) => String(a.attempt), sort: (a) => a.attempt },
    { id: 'code', header: 'Response code', cell: (a) => (a.statusCode ? String(a.statusCode) : '—') },
    { id: 'error', header: 'Error', cell: (a) => a.error || '—' },
    { id: 'duration', header: 'Duration', cell: (a) => `${count(a.durationMs)} ms`, sort: (a) => a.durationMs },
    { id: 'at', header: 'At', cell: (a) => dateTime(a.attemptedAt, zone) },
  ];
  return (
    <Paper withBorder p="sm">
      <Title order={3} size="h4" mb="xs">Attempts of <Code>{id}</Code></Title>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label={`Attempts of ${id}`} rows={q.data.items} cols={cols} rowKey={(a) => String(a.attempt)} empty={<Text size="sm">No attempt yet.</Text>} />
      )}
    </Paper>
  );
}
