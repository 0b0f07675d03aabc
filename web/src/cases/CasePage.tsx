import { lazy, Suspense, useEffect, useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Code, ConnectError } from '@connectrpc/connect';
import { Badge, Button, Card, Grid, Group, NativeSelect, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { CaseService } from '../gen/complyd/v1/case_pb';
import type { Case, Interdiction, ResolutionProposal } from '../gen/complyd/v1/case_pb';
import { CaseWorkspaceService, type CaseActions, type CaseWorkspace } from '../gen/complyd/v1/case_workspace_pb';
import { ReportService } from '../gen/complyd/v1/report_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { who } from '../ui/people';
import { ErrorText, Loading } from '../ui/parts';
import { dateTime, enumLabel, enumWords, money, prose, sentence } from '../ui/format';
import { enumLabel as label } from '../ui/format';
import { StatusBadge } from '../ui/StatusBadge';
import { Evidence, TransactionFacts } from './Evidence';
import { CustomerPanel, Linked } from './CustomerPanel';
import { CaseNetwork } from './CaseNetwork';
import { dueText } from './due';
import './cases.css';

// The activity chart draws with recharts (@mantine/charts): its own chunk, loaded when a case with
// a transaction is opened, so that the queue and the sign-in page do not carry it.
const Activity = lazy(() => import('./Activity').then((m) => ({ default: m.Activity })));

// CasePage is a case built around the decision (issue 50 point 2): the evidence (the
// transaction, the sanctions hits beside the list entries, the customer, 30 days of activity,
// the network, linked cases and reports) and the timeline with names, from one call
// (CaseWorkspaceService.GetCaseWorkspace); and exactly the actions the server says the caller
// may take (actions, allowedTransitions).
export function CasePage({ id }: { id: string }) {
  const q = useQuery(CaseWorkspaceService.method.getCaseWorkspace, { id }, { retry: false });
  if (q.isPending) return <Loading />;
  if (q.isError) {
    const code = ConnectError.from(q.error).code;
    return code === Code.NotFound || code === Code.InvalidArgument
      ? <section><Title order={1}>Case not found</Title><p>No case {id} in your institution.</p><Link to="/">Back to my queue</Link></section>
      : <ErrorText error={q.error} />;
  }
  const w = q.data;
  const c = w.case!;
  const refetch = () => void q.refetch();
  return (
    <Stack component="section" aria-labelledby="case-h" gap="md" className="case-page">
      <CaseHeader c={c} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <Text>{c.description}</Text>
            {w.transaction && <TransactionFacts tx={w.transaction} />}
            <Evidence hits={w.hits} />
            {w.transaction && <Suspense fallback={<Loading />}><Activity days={w.activity} rules={w.transaction.rules} at={w.transaction.transactionTimestamp} /></Suspense>}
            {w.transaction?.sender?.accountNumber && <CaseNetwork account={w.transaction.sender.accountNumber} customerId={w.customer?.id} />}
            <Timeline c={c} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            <Actions w={w} onDone={refetch} />
            <CustomerPanel customer={w.customer} />
            <Linked cases={w.linkedCases} reports={w.reports} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function CaseHeader({ c }: { c: Case }) {
  return (
    <Stack gap={4}>
      <Title order={1} id="case-h" size="h2">{c.caseNumber}: {c.title}</Title>
      <Group gap="xs" wrap="wrap">
        <Badge data-testid="case-status" color="blue.9" tt="none">{label(c.status)}</Badge>
        <StatusBadge value={c.priority} label={`${enumLabel(c.priority)} priority`} />
        <Badge variant="outline" color="dark">{enumLabel(c.type)}</Badge>
        {c.inboxName && <Badge variant="outline" color="dark">Inbox {c.inboxName}</Badge>}
      </Group>
      <Text size="sm">
        Assignee: {c.assignee ? `${c.assignee.firstName} ${c.assignee.lastName}` : 'Unassigned'} · Opened {dateTime(c.createdAt)}
        {c.dueAt && <> · <span>{dueText(c.dueAt)}</span></>}
        {c.amount && <> · {money(c.amount, c.currency)}</>}
      </Text>
      {c.resolutionNote && <Text size="sm">Resolution note: {c.resolutionNote}</Text>}
    </Stack>
  );
}

function Timeline({ c }: { c: Case }) {
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="tl-h">
      <Title order={2} id="tl-h" size="h3">Timeline</Title>
      {c.timeline.length === 0 ? <Text>No events yet.</Text> : (
        <ol className="timeline">{c.timeline.map((e) => (
          <li key={e.id}><time>{dateTime(e.createdAt)}</time> <strong>{label(e.eventType)}</strong> by {e.actor ? `${e.actor.firstName} ${e.actor.lastName}`.trim() || e.actor.email : who(e.actorId, '')}: {sentence(prose(e.description))}
            {e.eventType === 'ASSIGNED' ? ` (${e.previousValue ? who(e.previousValue, e.previousValueName) : 'Unassigned'} → ${e.newValue ? who(e.newValue, e.newValueName) : '—'})`
              : e.previousValue || e.newValue ? ` (${e.previousValue ? label(e.previousValue) : '—'} → ${e.newValue ? label(e.newValue) : '—'})` : ''}</li>))}
        </ol>
      )}
    </Card>
  );
}

// Actions offers exactly the moves the server allows this caller now: actions (assign, note,
// propose, decide, interdict, report) and allowedTransitions (status moves).
function Actions({ w, onDone }: { w: CaseWorkspace; onDone: () => void }) {
  const c = w.case!;
  const a = w.actions!;
  const { me } = useSession();
  const [note, setNote] = useState('');
  const move = useMutation(CaseService.method.updateCaseStatus, { onSuccess: () => { setNote(''); onDone(); } });
  const assign = useMutation(CaseService.method.assignCase, { onSuccess: onDone });
  const needsNote = (s: string) => s.startsWith('RESOLVED') || s === 'CLOSED';
  const allowed = c.allowedTransitions;
  const anything = a.assignToMe || a.reassign || allowed.length > 0 || a.propose || a.decideProposalId || a.addNote;
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="act-h2">
      <Title order={2} id="act-h2" size="h3">Actions</Title>
      {!anything && <Text size="sm">Your role reads this case; it takes no action on it.</Text>}
      <Stack gap="xs">
        {a.assignToMe && <Button onClick={() => assign.mutate({ id: c.id, assigneeId: me.id })} loading={assign.isPending}>Assign to me</Button>}
        {a.reassign && <Reassign w={w} onPick={(assigneeId) => assign.mutate({ id: c.id, assigneeId })} />}
        <ErrorText error={assign.error} />
        {allowed.length > 0 && (
          <Group role="group" aria-label="Change status" gap="xs">
            {allowed.map((to) => (
              <Button key={to} variant="default" onClick={() => move.mutate({ id: c.id, status: to, resolutionNote: needsNote(to) ? note || undefined : undefined })}>
                Move to {enumWords(to)}
              </Button>))}
          </Group>
        )}
        {allowed.some(needsNote) && <Textarea label="Resolution note" value={note} onChange={(e) => setNote(e.currentTarget.value)} />}
        {/* No direct resolution offered while the case is open (a pending proposal, or the
            tenant's mandatory four eyes): say which way resolving goes. */}
        {a.addNote && !allowed.some((s) => s.startsWith('RESOLVED')) && !c.status.startsWith('RESOLVED') && c.status !== 'CLOSED' &&
          <Text size="sm">Resolving this case goes through a proposal that a second officer confirms (see Resolution below).</Text>}
        <ErrorText error={move.error} />
      </Stack>
      <Proposals w={w} onDone={onDone} />
      {a.draftReport && <DraftReport caseId={c.id} />}
      <Interdictions caseId={c.id} items={w.interdictions} actions={a} account={w.transaction?.sender?.accountNumber ?? ''} onDone={onDone} />
      {a.addNote && <AddNote caseId={c.id} onDone={onDone} />}
    </Card>
  );
}

// Reassign offers the people the server says the case may be assigned to (officers may call it;
// the user list is an administrator's).
function Reassign({ w, onPick }: { w: CaseWorkspace; onPick: (id: string) => void }) {
  const [pick, setPick] = useState('');
  const others = w.assignable.filter((p) => p.id !== w.case?.assignedTo);
  if (others.length === 0) return null;
  return (
    <Group align="end" gap="xs" wrap="wrap">
      <NativeSelect label="Reassign to" value={pick} onChange={(e) => setPick(e.currentTarget.value)}
        data={[{ value: '', label: 'Choose…' }, ...others.map((u) => ({ value: u.id, label: `${u.firstName} ${u.lastName}` }))]} />
      <Button variant="default" disabled={!pick} onClick={() => onPick(pick)}>Reassign</Button>
    </Group>
  );
}

// Proposals: the case's resolution proposals with names; proposing while none is pending, and
// confirming or rejecting only someone else's (four eyes; the server names the one: actions).
function Proposals({ w, onDone }: { w: CaseWorkspace; onDone: () => void }) {
  const { me } = useSession();
  const c = w.case!;
  const a = w.actions!;
  const [resolution, setResolution] = useState('TRUE_POSITIVE');
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const propose = useMutation(CaseService.method.proposeResolution, { onSuccess: () => { setNote(''); onDone(); } });
  const approve = useMutation(CaseService.method.approveResolution, { onSuccess: onDone });
  const reject = useMutation(CaseService.method.rejectResolution, { onSuccess: () => { setReason(''); onDone(); } });
  return (
    <Stack gap="xs" mt="md">
      <Title order={3} size="h4">Resolution (four eyes)</Title>
      {w.proposals.length === 0 ? <Text size="sm">No resolution proposed.</Text> : (
        <ul className="plain">{w.proposals.map((p: ResolutionProposal) => (
          <li key={p.id}>{label(p.resolution)} — {enumWords(p.status)}: {p.note} (proposed {dateTime(p.proposedAt)} by {who(p.proposedBy, p.proposedByName, me.id)}{p.decidedBy && `; decided by ${who(p.decidedBy, p.decidedByName, me.id)}`})
            {p.status === 'PENDING' && p.proposedBy === me.id && <em> A second officer must confirm it.</em>}
            {p.id === a.decideProposalId && (
              <Stack gap="xs" mt="xs">
                <Button color="#1e6b30" onClick={() => approve.mutate({ id: c.id, proposalId: p.id })}>Confirm resolution</Button>
                <TextInput label="Rejection reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
                <Button variant="default" onClick={() => reject.mutate({ id: c.id, proposalId: p.id, reason })}>Reject resolution</Button>
              </Stack>)}
          </li>))}
        </ul>
      )}
      <ErrorText error={approve.error ?? reject.error} />
      {a.propose && (
        <form onSubmit={(e) => { e.preventDefault(); propose.mutate({ id: c.id, resolution, note }); }}>
          <Stack gap="xs">
            <NativeSelect label="Proposed resolution" value={resolution} onChange={(e) => setResolution(e.currentTarget.value)}
              data={[{ value: 'TRUE_POSITIVE', label: 'True positive' }, { value: 'FALSE_POSITIVE', label: 'False positive' }]} />
            <Textarea label="Resolution rationale" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
            <ErrorText error={propose.error} />
            <Button type="submit" loading={propose.isPending}>Propose resolution</Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

// DraftReport drafts an STR from the case; the report page then edits its narrative.
function DraftReport({ caseId }: { caseId: string }) {
  const { navigate } = useRouter();
  const create = useMutation(ReportService.method.createReport, { onSuccess: (r) => navigate(`/reports/${r.id}`) });
  return (
    <Stack gap="xs" mt="md">
      <Title order={3} size="h4">Regulatory report</Title>
      <Button variant="default" disabled={create.isPending} onClick={() => create.mutate({ type: 'STR', caseId })}>Draft STR from this case</Button>
      <ErrorText error={create.error} />
    </Stack>
  );
}

function Interdictions({ caseId, items, actions, account, onDone }: { caseId: string; items: Interdiction[]; actions: CaseActions; account: string; onDone: () => void }) {
  const { me } = useSession();
  const create = useMutation(CaseService.method.createInterdiction, { onSuccess: () => { setReason(''); onDone(); } });
  const [action, setAction] = useState('FREEZE');
  const [acct, setAcct] = useState<string | undefined>(undefined);
  const [reason, setReason] = useState('');
  const officer = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'].includes(me.role);
  const accountValue = acct ?? account;
  return (
    <Stack gap="xs" mt="md">
      <Title order={3} size="h4">Interdictions</Title>
      {items.length === 0 ? <Text size="sm">No interdiction requested.</Text> : (
        <ul className="plain">{items.map((i) => (
          <li key={i.id}>{enumLabel(i.action)} on {i.accountNumber}: <strong data-testid={`interdiction-status-${i.id}`}>{label(i.status)}</strong>{i.reference ? ` (ref ${i.reference})` : ''} — {i.reason}
            <Text size="xs" c="gray.7" data-testid={`interdiction-officers-${i.id}`}>requested by {who(i.requestedBy, i.requestedByName, me.id)}
              {i.confirmedBy && `; confirmed by ${who(i.confirmedBy, i.confirmedByName, me.id)}`}
              {i.liftRequestedBy && `; lift requested by ${who(i.liftRequestedBy, i.liftRequestedByName, me.id)}`}
              {i.liftedBy && `; lift approved by ${who(i.liftedBy, i.liftedByName, me.id)}`}</Text>
            {i.status === 'REQUESTED' && (officer && i.requestedBy !== me.id
              ? <ConfirmInterdiction id={i.id} name={`${label(i.action)} on ${i.accountNumber}`} onDone={onDone} />
              : <Text span size="sm"> awaiting the bank&apos;s confirmation{i.requestedBy === me.id ? ' (another officer or the core confirms it)' : ''}</Text>)}
          </li>))}
        </ul>
      )}
      {actions.requestInterdiction && (
        <form onSubmit={(e) => { e.preventDefault(); create.mutate({ id: caseId, action, accountNumber: accountValue, reason }); }}>
          <Stack gap="xs">
            <NativeSelect label="Interdiction action" value={action} onChange={(e) => setAction(e.currentTarget.value)}
              data={['FREEZE', 'BLOCK', 'POST_NO_DEBIT'].map((v) => ({ value: v, label: enumLabel(v) }))} />
            <TextInput label="Account number" value={accountValue} onChange={(e) => setAcct(e.currentTarget.value)} />
            <TextInput label="Interdiction reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
            <ErrorText error={create.error} />
            <Button type="submit" variant="default">Request interdiction</Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function ConfirmInterdiction({ id, name, onDone }: { id: string; name: string; onDone: () => void }) {
  const [reference, setReference] = useState('');
  const confirm = useMutation(CaseService.method.confirmInterdiction, { onSuccess: onDone });
  return (
    <form aria-label={`Confirm ${name}`} onSubmit={(e) => { e.preventDefault(); confirm.mutate({ id, reference: reference.trim() }); }}>
      <Stack gap="xs">
        <TextInput label="Core banking reference" value={reference} onChange={(e) => setReference(e.currentTarget.value)} />
        <Button type="submit" disabled={reference.trim() === '' || confirm.isPending}>Confirm interdiction</Button>
        <ErrorText error={confirm.error} />
      </Stack>
    </form>
  );
}

// AddNote keeps the note being typed in sessionStorage, so a session that expires mid-sentence
// loses nothing; the field empties once the note is saved.
function AddNote({ caseId, onDone }: { caseId: string; onDone: () => void }) {
  const key = `draft-note:${caseId}`;
  const [text, setText] = useState(() => sessionStorage.getItem(key) ?? '');
  useEffect(() => { if (text) sessionStorage.setItem(key, text); else sessionStorage.removeItem(key); }, [key, text]);
  const add = useMutation(CaseService.method.addCaseNote, { onSuccess: () => { setText(''); onDone(); } });
  return (
    <form onSubmit={(e) => { e.preventDefault(); add.mutate({ id: caseId, content: text }); }}>
      <Stack gap="xs" mt="md">
        <Textarea label="New note" value={text} onChange={(e) => setText(e.currentTarget.value)} />
        <ErrorText error={add.error} />
        <Button type="submit" variant="default">Add note</Button>
      </Stack>
    </form>
  );
}
