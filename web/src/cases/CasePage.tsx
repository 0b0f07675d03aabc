import { useEffect, useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Code, ConnectError } from '@connectrpc/connect';
import { CaseService } from '../gen/complyd/v1/case_pb';
import { UserService } from '../gen/complyd/v1/user_pb';
import { TransactionService } from '../gen/complyd/v1/screening_pb';
import { ReportService } from '../gen/complyd/v1/report_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { Empty, ErrorText, Field, Loading, when } from '../ui/parts';
import { label } from './states';
import { CustomerLinks } from '../ui/CustomerLinks';

// CasePage is one case: facts, related records, timeline, and (for officers, not viewers) the
// actions the state machine allows. Each action's error is shown next to it.
export function CasePage({ id }: { id: string }) {
  const { canAct } = useSession();
  const q = useQuery(CaseService.method.getCase, { id }, { retry: false });
  if (q.isPending) return <Loading />;
  if (q.isError) {
    const notFound = ConnectError.from(q.error).code === Code.NotFound || ConnectError.from(q.error).code === Code.InvalidArgument;
    return notFound ? <section><h1>Case not found</h1><p>No case {id} in your institution.</p><Link to="/">Back to my queue</Link></section> : <ErrorText error={q.error} />;
  }
  const c = q.data;
  const refetch = () => void q.refetch();
  return (
    <section aria-labelledby="case-h">
      <h1 id="case-h">{c.caseNumber}: {c.title}</h1>
      <dl className="facts">
        <dt>Status</dt><dd data-testid="case-status">{label(c.status)}</dd>
        <dt>Type</dt><dd>{label(c.type)}</dd>
        <dt>Priority</dt><dd>{label(c.priority)}</dd>
        <dt>Assignee</dt><dd>{c.assignee ? `${c.assignee.firstName} ${c.assignee.lastName}` : 'unassigned'}</dd>
        <dt>Opened</dt><dd>{when(c.createdAt)}</dd>
        {c.resolutionNote && <><dt>Resolution note</dt><dd>{c.resolutionNote}</dd></>}
        <dt>Transaction</dt><dd>{c.relatedTransactionId ? <Link to={`/transactions/${c.relatedTransactionId}`}>{c.relatedTransaction ? `${c.relatedTransaction.externalId} — ${c.relatedTransaction.amount} ${c.relatedTransaction.currency}${c.relatedTransaction.senderName ? ', ' + c.relatedTransaction.senderName : ''}` : c.relatedTransactionId}</Link> : 'none'}</dd>
        <dt>KYC application</dt><dd>{c.relatedKycApplicationId ? <Link to={`/kyc/${c.relatedKycApplicationId}`}>{c.relatedKycApplicationId}</Link> : 'none'}</dd>
      </dl>
      <CustomerLinks caseId={c.id} />
      <p>{c.description}</p>
      {canAct && <Actions caseId={c.id} status={c.status} allowed={c.allowedTransitions} onDone={refetch} />}
      {canAct && <DraftReport caseId={c.id} />}
      <Proposals caseId={c.id} canAct={canAct} resolved={c.status.startsWith('RESOLVED_') || c.status === 'CLOSED'} onDone={refetch} />
      <Interdictions caseId={c.id} canAct={canAct} transactionId={c.relatedTransactionId} />
      <h2>Timeline</h2>
      {c.timeline.length === 0 ? <Empty>No events yet.</Empty> : (
        <ol className="timeline">{c.timeline.map((e) => (
          <li key={e.id}><time>{when(e.createdAt)}</time> <strong>{label(e.eventType)}</strong> {e.actor ? `by ${e.actor.firstName} ${e.actor.lastName}` : 'by the system'}: {e.description}
            {e.previousValue || e.newValue ? ` (${e.previousValue ?? '—'} → ${e.newValue ?? '—'})` : ''}</li>))}
        </ol>
      )}
      {canAct && <AddNote caseId={c.id} onDone={refetch} />}
    </section>
  );
}

// DraftReport drafts an STR from the case: its transaction, its parties and its notes are the
// facts of the narrative the officer then edits on the report's page.
function DraftReport({ caseId }: { caseId: string }) {
  const { navigate } = useRouter();
  const create = useMutation(ReportService.method.createReport, { onSuccess: (r) => navigate(`/reports/${r.id}`) });
  return (
    <div className="actions">
      <h2>Regulatory report</h2>
      <button type="button" disabled={create.isPending} onClick={() => create.mutate({ type: 'STR', caseId })}>Draft STR from this case</button>
      <ErrorText error={create.error} />
    </div>
  );
}

// Actions offers exactly the moves the server allows this caller now (allowedTransitions): no
// direct resolution while a proposal is pending, none at all when the institution requires four
// eyes for every resolution (docs/guide/cases.md "Four eyes").
function Actions({ caseId, status, allowed, onDone }: { caseId: string; status: string; allowed: string[]; onDone: () => void }) {
  const { me } = useSession();
  const [note, setNote] = useState('');
  const move = useMutation(CaseService.method.updateCaseStatus, { onSuccess: onDone });
  const assign = useMutation(CaseService.method.assignCase, { onSuccess: onDone });
  const needsNote = (s: string) => s.startsWith('RESOLVED') || s === 'CLOSED';
  return (
    <div className="actions">
      <h2>Actions</h2>
      <button type="button" onClick={() => assign.mutate({ id: caseId, assigneeId: me.id })}>Assign to me</button>
      <Reassign onPick={(assigneeId) => assign.mutate({ id: caseId, assigneeId })} />
      <ErrorText error={assign.error} />
      <div role="group" aria-label="Change status">
        {allowed.map((to) => (
          <button key={to} type="button" onClick={() => move.mutate({ id: caseId, status: to, resolutionNote: needsNote(to) ? note || undefined : undefined })}>
            Move to {label(to)}
          </button>))}
      </div>
      {allowed.some(needsNote) && <Field label="Resolution note"><textarea value={note} onChange={(e) => setNote(e.target.value)} /></Field>}
      {!allowed.some((s) => s.startsWith('RESOLVED')) && !status.startsWith('RESOLVED') && status !== 'CLOSED' &&
        <p>Resolving this case goes through a proposal that a second officer confirms (see Resolution below).</p>}
      <ErrorText error={move.error} />
    </div>
  );
}

// Reassign offers the tenant's active users when the officer may list them (the user list is an
// administrator's call; others assign to themselves).
function Reassign({ onPick }: { onPick: (id: string) => void }) {
  const users = useQuery(UserService.method.listUsers, { page: 1, limit: 100 }, { retry: false });
  const [pick, setPick] = useState('');
  if (!users.data) return null;
  return (
    <span>
      <Field label="Reassign to"><select value={pick} onChange={(e) => setPick(e.target.value)}><option value="">choose…</option>
        {users.data.items.filter((u) => u.isActive).map((u) => <option key={u.id} value={u.id}>{u.firstName} {u.lastName} ({u.role.toLowerCase()})</option>)}</select></Field>
      <button type="button" disabled={!pick} onClick={() => onPick(pick)}>Reassign</button>
    </span>
  );
}

// Proposals lists the case's resolution proposals; a new one can be proposed only while the case
// is neither resolved nor closed (the API refuses it then: INVALID_STATUS_TRANSITION).
function Proposals({ caseId, canAct, resolved, onDone }: { caseId: string; canAct: boolean; resolved: boolean; onDone: () => void }) {
  const { me } = useSession();
  const q = useQuery(CaseService.method.listResolutionProposals, { id: caseId });
  const done = () => { void q.refetch(); onDone(); };
  const propose = useMutation(CaseService.method.proposeResolution, { onSuccess: done });
  const approve = useMutation(CaseService.method.approveResolution, { onSuccess: done });
  const reject = useMutation(CaseService.method.rejectResolution, { onSuccess: done });
  const [resolution, setResolution] = useState('TRUE_POSITIVE');
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const items = q.data?.items ?? [];
  return (
    <div>
      <h2>Resolution (four eyes)</h2>
      {items.length === 0 ? <Empty>No resolution proposed.</Empty> : (
        <ul>{items.map((p) => (
          <li key={p.id}>{label(p.resolution)} — {label(p.status)}: {p.note} (proposed {when(p.proposedAt)}{p.proposedBy === me.id ? ' by you' : ''})
            {canAct && p.status === 'PENDING' && (p.proposedBy === me.id
              ? <em> A second officer must confirm it.</em>
              : <>
                  <button type="button" onClick={() => approve.mutate({ id: caseId, proposalId: p.id })}>Confirm resolution</button>
                  <Field label="Rejection reason"><input value={reason} onChange={(e) => setReason(e.target.value)} /></Field>
                  <button type="button" onClick={() => reject.mutate({ id: caseId, proposalId: p.id, reason })}>Reject resolution</button>
                </>)}
          </li>))}
        </ul>
      )}
      <ErrorText error={approve.error ?? reject.error} />
      {canAct && !resolved && !items.some((p) => p.status === 'PENDING') && (
        <form onSubmit={(e) => { e.preventDefault(); propose.mutate({ id: caseId, resolution, note }); }}>
          <Field label="Proposed resolution"><select value={resolution} onChange={(e) => setResolution(e.target.value)}><option value="TRUE_POSITIVE">true positive</option><option value="FALSE_POSITIVE">false positive</option></select></Field>
          <Field label="Resolution rationale"><textarea value={note} onChange={(e) => setNote(e.target.value)} /></Field>
          <ErrorText error={propose.error} />
          <button type="submit">Propose resolution</button>
        </form>
      )}
    </div>
  );
}

function Interdictions({ caseId, canAct, transactionId }: { caseId: string; canAct: boolean; transactionId?: string }) {
  const { me } = useSession();
  const q = useQuery(CaseService.method.listInterdictions, { id: caseId });
  const create = useMutation(CaseService.method.createInterdiction, { onSuccess: () => void q.refetch() });
  // The request pre-fills the account from the case's transaction (its sender's account).
  const tx = useQuery(TransactionService.method.getTransaction, { id: transactionId ?? '' }, { enabled: !!transactionId, retry: false });
  const [action, setAction] = useState('FREEZE');
  const [account, setAccount] = useState<string | undefined>(undefined);
  const [reason, setReason] = useState('');
  const items = q.data?.items ?? [];
  const accountValue = account ?? tx.data?.senderAccountNumber ?? '';
  // Officers confirm (the API's action→roles table); never the requester (four eyes).
  const officer = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'].includes(me.role);
  return (
    <div>
      <h2>Interdictions</h2>
      {items.length === 0 ? <Empty>No interdiction requested.</Empty> : (
        <ul>{items.map((i) => (
          <li key={i.id}>{label(i.action)} on {i.accountNumber}: <strong data-testid={`interdiction-status-${i.id}`}>{label(i.status)}</strong>{i.reference ? ` (ref ${i.reference})` : ''} — {i.reason}
            {i.status === 'REQUESTED' && (officer && i.requestedBy !== me.id
              ? <ConfirmInterdiction id={i.id} name={`${label(i.action)} on ${i.accountNumber}`} onDone={() => void q.refetch()} />
              : <span className="muted"> awaiting the bank&apos;s confirmation{i.requestedBy === me.id ? ' (another officer or the core confirms it)' : ''}</span>)}
          </li>))}
        </ul>
      )}
      {canAct && (
        <form onSubmit={(e) => { e.preventDefault(); create.mutate({ id: caseId, action, accountNumber: accountValue, reason }); }}>
          <Field label="Interdiction action"><select value={action} onChange={(e) => setAction(e.target.value)}><option value="FREEZE">freeze</option><option value="BLOCK">block</option><option value="POST_NO_DEBIT">post no debit</option></select></Field>
          <Field label="Account number"><input value={accountValue} onChange={(e) => setAccount(e.target.value)} /></Field>
          <Field label="Interdiction reason"><input value={reason} onChange={(e) => setReason(e.target.value)} /></Field>
          <ErrorText error={create.error} />
          <button type="submit">Request interdiction</button>
        </form>
      )}
    </div>
  );
}

// ConfirmInterdiction records that the bank executed the order, with the core banking reference
// (required here; the API keeps it optional for cores that have none).
function ConfirmInterdiction({ id, name, onDone }: { id: string; name: string; onDone: () => void }) {
  const [reference, setReference] = useState('');
  const confirm = useMutation(CaseService.method.confirmInterdiction, { onSuccess: onDone });
  return (
    <form className="actions" aria-label={`Confirm ${name}`} onSubmit={(e) => { e.preventDefault(); confirm.mutate({ id, reference: reference.trim() }); }}>
      <Field label="Core banking reference"><input value={reference} onChange={(e) => setReference(e.target.value)} /></Field>
      <button type="submit" disabled={reference.trim() === '' || confirm.isPending}>Confirm interdiction</button>
      <ErrorText error={confirm.error} />
    </form>
  );
}

// AddNote keeps the note being typed in sessionStorage, so a session that expires mid-sentence
// loses nothing: after signing in again the draft is restored.
function AddNote({ caseId, onDone }: { caseId: string; onDone: () => void }) {
  const key = `draft-note:${caseId}`;
  const [text, setText] = useState(() => sessionStorage.getItem(key) ?? '');
  useEffect(() => { if (text) sessionStorage.setItem(key, text); else sessionStorage.removeItem(key); }, [key, text]);
  const add = useMutation(CaseService.method.addCaseNote, { onSuccess: () => { setText(''); onDone(); } });
  return (
    <form onSubmit={(e) => { e.preventDefault(); add.mutate({ id: caseId, content: text }); }}>
      <Field label="New note"><textarea value={text} onChange={(e) => setText(e.target.value)} /></Field>
      <ErrorText error={add.error} />
      <button type="submit">Add note</button>
    </form>
  );
}
