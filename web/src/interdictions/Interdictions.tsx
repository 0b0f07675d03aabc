import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { InterdictionService } from '../gen/complyd/v1/interdiction_pb';
import { Link } from '../ui/router';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';
import { LiftActions } from './LiftActions';

const statuses = ['REQUESTED', 'CONFIRMED', 'LIFT_REQUESTED', 'LIFTED'];
const actions = ['FREEZE', 'BLOCK', 'POST_NO_DEBIT'];

// Interdictions is the queue of account interdictions (docs/guide/interdictions.md) with the API's
// filters, each with its case, and the lift under four eyes: one officer asks with a reason, a
// second approves or rejects.
export function Interdictions() {
  const [status, setStatus] = useState('');
  const [action, setAction] = useState('');
  const [account, setAccount] = useState('');
  const [inForce, setInForce] = useState('');
  const [page, setPage] = useState(1);
  const q = useQuery(InterdictionService.method.listInterdictionQueue, {
    page, limit: 20,
    status: status || undefined, action: action || undefined,
    // The API wants a whole NUBAN; a partial number typed so far filters nothing yet.
    accountNumber: /^[0-9]{10}$/.test(account) ? account : undefined,
    inForce: inForce === '' ? undefined : inForce === 'yes',
  });
  const reset = (f: () => void) => { f(); setPage(1); };
  const items = q.data?.items ?? [];
  return (
    <section aria-labelledby="intd-h">
      <h1 id="intd-h">Interdictions</h1>
      <form className="filters" aria-label="Interdiction filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Status"><select value={status} onChange={(e) => reset(() => setStatus(e.target.value))}><option value="">any</option>{statuses.map((s) => <option key={s}>{s}</option>)}</select></Field>
        <Field label="Action"><select value={action} onChange={(e) => reset(() => setAction(e.target.value))}><option value="">any</option>{actions.map((s) => <option key={s}>{s}</option>)}</select></Field>
        <Field label="Account number"><input inputMode="numeric" maxLength={10} value={account} onChange={(e) => reset(() => setAccount(e.target.value))} /></Field>
        <Field label="In force"><select value={inForce} onChange={(e) => reset(() => setInForce(e.target.value))}><option value="">any</option><option value="yes">in force</option><option value="no">not in force</option></select></Field>
      </form>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : items.length === 0 ? <Empty>No interdictions match these filters.</Empty> : (
        <table aria-label="Interdictions">
          <thead><tr><th>Interdiction</th><th>Case</th><th>Action</th><th>Account</th><th>Status</th><th>Reason</th><th>Requested</th><th>Lift</th></tr></thead>
          <tbody>{items.map((i) => (
            <tr key={i.id} aria-label={i.id}>
              <td><code>{i.id}</code>{i.reference && <div className="muted">bank ref {i.reference}</div>}</td>
              <td><Link to={`/cases/${i.caseId}`}>{i.caseNumber}</Link></td>
              <td>{i.action}</td><td>{i.accountNumber}</td><td>{i.status}</td><td>{i.reason}</td><td>{when(i.requestedAt)}</td>
              <td><LiftActions i={i} onChange={() => void q.refetch()} /></td>
            </tr>))}
          </tbody>
        </table>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}
