import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { RuleService, type Rule } from '../../gen/complyd/v1/rule_pb';
import { ErrorText, Loading } from '../../ui/parts';
import { RuleEditor } from './RuleEditor';
import { Drafts } from './Drafts';
import { useSession } from '../../auth/session';

// Rules lists the mandatory AML rules (read-only) and the tenant's CEL rules, which a bank
// administrator creates, edits and switches on or off directly (docs/design/design-choices.md §10), and which
// officers change through drafts published by a second officer (Drafts, docs/guide/rules.md).
export function Rules() {
  const { me } = useSession();
  const admin = me.role === 'BANK_ADMIN';
  const q = useQuery(RuleService.method.listRules, { page: 1, limit: 100 });
  const controls = useQuery(RuleService.method.getRuleControls, {});
  const direct = admin && controls.data?.draftsRequired === false;
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const [drafting, setDrafting] = useState<Rule | 'new' | null>(null);
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const mandatory = q.data.items.filter((r) => r.mandatory);
  const custom = q.data.items.filter((r) => !r.mandatory);
  const done = () => { setEditing(null); void q.refetch(); };
  return (
    <section aria-labelledby="rules-h">
      <h1 id="rules-h">Rules</h1>
      {q.data.total > q.data.items.length && <p className="warn">Showing the first {q.data.items.length} of {q.data.total} rules.</p>}
      <h2>Custom rules (CEL)</h2>
      {editing ? <RuleEditor key={editing === 'new' ? 'new' : editing.id} rule={editing === 'new' ? undefined : editing} onDone={done} onCancel={() => setEditing(null)} />
        : <>{direct && <button type="button" onClick={() => setEditing('new')}>New rule</button>}{' '}
          <button type="button" onClick={() => setDrafting('new')}>Draft a rule</button></>}
      {custom.length === 0 ? <p className="empty">No custom rules yet.</p> : (
        <table aria-label="Custom rules">
          <thead><tr><th>Name</th><th>Expression</th><th>Score</th><th>Outcome</th><th>Version</th><th>Enabled</th><th>Actions</th></tr></thead>
          <tbody>{custom.map((r) => <CustomRow key={r.id} r={r} direct={direct} onEdit={() => setEditing(r)} onDraft={() => setDrafting(r)} onDone={() => void q.refetch()} />)}</tbody>
        </table>
      )}
      <Drafts newDraftOf={drafting} onDrafted={() => { setDrafting(null); void q.refetch(); }} />
      <h2>Mandatory AML rules</h2>
      <p className="muted">Always active; they cannot be changed or disabled.</p>
      <table aria-label="Mandatory rules">
        <thead><tr><th>Id</th><th>Name</th><th>Expression</th><th>Score</th><th>Outcome</th><th>Actions taken</th></tr></thead>
        <tbody>{mandatory.map((r) => (
          <tr key={r.id}><td>{r.id}</td><td>{r.name}</td><td><code>{r.expression}</code></td><td>{r.score}</td><td>{r.outcome}</td><td>{r.actions.join(', ')}</td></tr>))}
        </tbody>
      </table>
    </section>
  );
}

function CustomRow({ r, direct, onEdit, onDraft, onDone }: { r: Rule; direct: boolean; onEdit: () => void; onDraft: () => void; onDone: () => void }) {
  const update = useMutation(RuleService.method.updateRule, { onSuccess: onDone });
  return (
    <tr>
      <td>{r.name}</td><td><code>{r.expression}</code></td><td>{r.score}</td><td>{r.outcome}</td>
      <td>v{r.version}</td>
      <td>{direct ? <label><input type="checkbox" checked={r.enabled} disabled={update.isPending} onChange={(e) => update.mutate({ id: r.id, enabled: e.target.checked })} /> Enabled: {r.name}</label> : r.enabled ? 'yes' : 'no'}</td>
      <td>{direct && <button type="button" onClick={onEdit}>Edit {r.name}</button>} <button type="button" onClick={onDraft}>Draft a new version of {r.name}</button><ErrorText error={update.error} /></td>
    </tr>
  );
}
