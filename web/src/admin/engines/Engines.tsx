import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { EngineService, type Engine } from '../../gen/complyd/v1/engine_pb';
import { useSession } from '../../auth/session';
import { ErrorText, Field, Loading, when } from '../../ui/parts';

// Engines is the tenant's engine configuration (docs/design/engines.md): each engine's weight within
// its bounds, deadline and state, and the version in force. Every change stores a new version
// with a reason; the API refuses a weight out of bounds (400) and disabling a mandatory engine
// (409), and the screen shows its answer rather than second-guessing it.
export function Engines() {
  const { me } = useSession();
  const q = useQuery(EngineService.method.listEngines, {});
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const c = q.data;
  return (
    <section aria-labelledby="eng-h">
      <h1 id="eng-h">Engines</h1>
      <p aria-label="Configuration version">Configuration <code>{c.configId}</code>, version <strong>{c.version}</strong>
        {c.updatedAt && <> — {when(c.updatedAt)}{c.updatedBy && <> by {c.updatedBy === me.id ? 'you' : c.updatedBy}</>}{c.reason && <>: {c.reason}</>}</>}</p>
      <table aria-label="Engines">
        <thead><tr><th>Engine</th><th>Category</th><th>Weight</th><th>Default</th><th>Bounds</th><th>Deadline</th><th>On timeout</th><th>Mandatory</th><th>Enabled</th><th /></tr></thead>
        <tbody>{c.engines.map((e) => <EngineRow key={e.key} e={e} onChange={() => void q.refetch()} />)}</tbody>
      </table>
    </section>
  );
}

function EngineRow({ e, onChange }: { e: Engine; onChange: () => void }) {
  const [weight, setWeight] = useState(String(e.weight));
  const [reason, setReason] = useState('');
  const upd = useMutation(EngineService.method.updateEngine, { onSuccess: () => { setReason(''); onChange(); } });
  const send = (change: { weight?: number; enabled?: boolean }) => upd.mutate({ key: e.key, reason, ...change });
  return (
    <tr aria-label={e.key}>
      <td>{e.key}</td>
      <td>{e.category}</td>
      <td>{e.weight}</td>
      <td>{e.defaultWeight}</td>
      <td>{e.minWeight}–{e.maxWeight}</td>
      <td>{e.deadlineMs} ms</td>
      <td>{e.failsOpen ? 'fails open' : 'fails closed'}</td>
      <td>{e.mandatory ? 'yes' : 'no'}</td>
      <td>{e.enabled ? 'yes' : 'no'}</td>
      <td>
        <form aria-label={`Change ${e.key}`} className="filters" onSubmit={(ev) => { ev.preventDefault(); send({ weight: Number(weight) }); }}>
          <Field label="New weight"><input inputMode="decimal" required size={5} value={weight} onChange={(ev) => setWeight(ev.target.value)} /></Field>
          <Field label="Reason"><input required maxLength={500} value={reason} onChange={(ev) => setReason(ev.target.value)} /></Field>
          <button type="submit" disabled={upd.isPending}>Save weight</button>
          {!e.mandatory && <button type="button" disabled={upd.isPending || reason === ''} onClick={() => send({ enabled: !e.enabled })}>{e.enabled ? 'Disable' : 'Enable'}</button>}
          <ErrorText error={upd.error} />
        </form>
      </td>
    </tr>
  );
}
