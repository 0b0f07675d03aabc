import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { WebhookService, type WebhookDelivery } from '../../gen/complyd/v1/webhook_pb';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../../ui/parts';

const statuses = ['PENDING', 'DELIVERED', 'FAILED', 'DEAD'];

// Deliveries is the delivery log: status, attempts and the last response code of each event,
// each delivery's attempts on demand, and replay (a finished delivery) or retry (a dead one).
export function Deliveries() {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const q = useQuery(WebhookService.method.listWebhookDeliveries, { page, limit: 20, status: status || undefined });
  return (
    <section aria-labelledby="whd-h">
      <h2 id="whd-h">Delivery log</h2>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Delivery status"><select value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }}>
          <option value="">any</option>{statuses.map((s) => <option key={s}>{s}</option>)}</select></Field>
        <button type="button" onClick={() => void q.refetch()}>Refresh log</button>
      </form>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.items.length === 0 ? <Empty>No deliveries.</Empty> : (
        <table aria-label="Deliveries">
          <thead><tr><th>Event</th><th>Delivery</th><th>Status</th><th>Attempts</th><th>Last response</th><th>Created</th><th>Actions</th></tr></thead>
          <tbody>{q.data.items.map((d) => <DeliveryRow key={d.id} d={d} onDone={() => void q.refetch()} />)}</tbody>
        </table>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

function DeliveryRow({ d, onDone }: { d: WebhookDelivery; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const replay = useMutation(WebhookService.method.replayWebhookDelivery, { onSuccess: onDone });
  const retry = useMutation(WebhookService.method.retryWebhookDelivery, { onSuccess: onDone });
  return (
    <>
      <tr>
        <td>{d.event}</td><td><code>{d.id}</code></td><td data-testid="delivery-status">{d.status}</td><td>{d.attempts}</td>
        <td>{d.lastStatusCode ?? '—'}{d.lastError ? ` ${d.lastError}` : ''}</td><td>{when(d.createdAt)}</td>
        <td>
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>Attempts of {d.id}</button>
          {d.status === 'DELIVERED' && <button type="button" onClick={() => replay.mutate({ id: d.id })}>Replay {d.id}</button>}
          {d.status === 'DEAD' && <button type="button" onClick={() => retry.mutate({ id: d.id })}>Retry {d.id}</button>}
          <ErrorText error={replay.error ?? retry.error} />
        </td>
      </tr>
      {open && <tr><td colSpan={7}><Attempts id={d.id} /></td></tr>}
    </>
  );
}

function Attempts({ id }: { id: string }) {
  const q = useQuery(WebhookService.method.listWebhookAttempts, { id });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  if (q.data.items.length === 0) return <Empty>No attempt yet.</Empty>;
  return (
    <table aria-label={`Attempts of ${id}`}>
      <thead><tr><th>Attempt</th><th>Response code</th><th>Error</th><th>Duration</th><th>At</th></tr></thead>
      <tbody>{q.data.items.map((a, i) => (
        <tr key={i}><td>{a.attempt}</td><td>{a.statusCode ?? '—'}</td><td>{a.error || '—'}</td><td>{a.durationMs} ms</td><td>{when(a.attemptedAt)}</td></tr>))}
      </tbody>
    </table>
  );
}
