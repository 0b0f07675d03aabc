import { useState, type ReactNode } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Code, ConnectError } from '@connectrpc/connect';
import { Alert, Button, Group, List, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { ReportService, type Report } from '../gen/complyd/v1/report_pb';
import { useSession } from '../auth/session';
import { Link } from '../ui/router';
import { Empty, ErrorText, Loading, when } from '../ui/parts';
import { Facts } from '../ui/Facts';
import { StatusBadge } from '../ui/StatusBadge';
import { statusLabel } from './Reports';
import { who } from '../ui/people';
import { calendarDate } from '../ui/format';
import { ReportTransactions } from './ReportTransactions';

// reportTitle names a report as the list does: its type and customer, or its type and day
// when it has no customer.
export function reportTitle(r: Report): string {
  const party = r.customerName || r.customerAccount;
  return party ? `${r.type} on ${party}` : `${r.type}, ${calendarDate(r.reportDay)}`;
}

// ReportPage is one report as its workflow reads: the facts, the goAML check, the draft's edit
// form with the narrative suggestion (writers), the four-eyes review (officers) and filing,
// then the downloads. Each action's error is shown next to it.
export function ReportPage({ id }: { id: string }) {
  const { canAct, me } = useSession();
  const q = useQuery(ReportService.method.getReport, { id }, { retry: false });
  if (q.isPending) return <Loading />;
  if (q.isError) {
    const code = ConnectError.from(q.error).code;
    return code === Code.NotFound ? <section><Title order={1}>Report not found</Title><Link to="/reports">Back to the reports</Link></section> : <ErrorText error={q.error} />;
  }
  const r = q.data;
  const refetch = () => void q.refetch();
  const customer = [r.customerName, r.customerAccount && (r.customerName ? `(${r.customerAccount})` : r.customerAccount)].filter(Boolean).join(' ');
  const people: [string, ReactNode][] = [['Prepared by', <span data-testid="report-prepared-by">{who(r.preparedBy, r.preparedByName)}</span>]];
  if (r.submittedBy) people.push(['Submitted by', <span data-testid="report-submitted-by">{who(r.submittedBy, r.submittedByName)}</span>]);
  if (r.approvedBy) people.push(['Approved by', <span data-testid="report-approved-by">{who(r.approvedBy, r.approvedByName)}</span>]);
  if (r.filedBy) people.push(['Filed by', <span data-testid="report-filed-by">{who(r.filedBy, r.filedByName)}</span>]);
  if (r.rejectionReason) people.push(['Rejected because', r.rejectionReason]);
  if (r.filingReference) people.push(['Filing reference', `${r.filingReference} (${r.filingMethod === 'HTTP' ? 'sent to goAML over HTTP' : 'filed by hand on goAML'})`]);
  return (
    <section aria-labelledby="report-h">
      <Title order={1} id="report-h" mb={4}>{reportTitle(r)}</Title>
      <Text size="sm" c="gray.7" mb="sm" className="report-id">Reference <code>{r.id}</code></Text>
      <Facts label="Report" items={[
        ['Status', <span data-testid="report-status"><StatusBadge value={r.status} /></span>],
        ['Customer', customer || 'none'],
        ['Day', <span data-testid="report-day">{calendarDate(r.reportDay)}</span>],
        ['Deadline', when(r.deadlineAt)],
        ['Case', r.caseId ? <Link to={`/cases/${r.caseId}`}>Open the case</Link> : 'none'],
        ['Rules', <span data-testid="report-rules">{r.rules.join(', ') || (r.sanctionsHits.length > 0 ? 'no rule: raised by the sanctions match below' : 'none')}</span>],
        ['Indicators', <span data-testid="report-indicators">{r.reportIndicators.join(', ') || 'none'}</span>],
        ['Sanctions hits', <div data-testid="report-hits">{r.sanctionsHits.length === 0 ? 'none' : (
          <List size="sm" spacing={2}>{r.sanctionsHits.map((h) => <List.Item key={h.transactionId + h.entryId + h.party}>
            {h.party.toLowerCase()} matched list {h.list}, entry {h.entryId} ({h.name}) as “{h.matchedName}”, score {h.score.toFixed(2)}</List.Item>)}</List>)}</div>],
        ['Transactions', <ReportTransactions ids={r.transactionIds} />],
        ...people,
      ]} />
      <Validation key={`${r.status}-${r.updatedAt?.seconds}-${r.updatedAt?.nanos}`} id={r.id} />
      {canAct && r.status === 'DRAFT' && <EditDraft key={`${r.updatedAt?.seconds}-${r.updatedAt?.nanos}`} id={r.id} reason={r.reason} action={r.action} narrative={r.narrative} indicators={r.indicators.join(', ')} onDone={refetch} />}
      {(r.status !== 'DRAFT' || !canAct) && <ReportText narrative={r.narrative} action={r.action} reason={r.reason} />}
      {canAct && r.status === 'PENDING_APPROVAL' && <Review id={r.id} contributed={r.contributors.includes(me.id)} onDone={refetch} />}
      {canAct && r.status === 'APPROVED' && <File id={r.id} onDone={refetch} />}
      <Downloads id={r.id} exportable={r.status === 'APPROVED' || r.status === 'FILED'} />
      <Title order={2} size="h3" mt="lg" mb="xs">Timeline</Title>
      {r.timeline.length === 0 ? <Empty>No events yet.</Empty> : (
        <ol className="timeline">{r.timeline.map((e) => <li key={e.id}><time>{when(e.createdAt)}</time> <strong>{statusLabel(e.action)}</strong> by {who(e.actorId, e.actorName)} {e.note}</li>)}</ol>
      )}
    </section>
  );
}

// ReportText is what the report tells the FIU, as its goAML XML carries it: the narrative is
// the reason (the grounds), then the action taken; the drafting note is complyd's own.
function ReportText({ narrative, action, reason }: { narrative: string; action: string; reason: string }) {
  return (
    <section aria-label="Report text">
      <Title order={2} size="h3" mt="lg" mb={4}>Narrative (the grounds, goAML reason)</Title>
      <Text data-testid="report-narrative" style={{ whiteSpace: 'pre-wrap' }}>{narrative || reason || 'none written'}</Text>
      <Title order={2} size="h3" mt="md" mb={4}>Action taken (goAML action)</Title>
      <Text data-testid="report-action" style={{ whiteSpace: 'pre-wrap' }}>{action || 'none written'}</Text>
      {reason && narrative && <><Title order={2} size="h3" mt="md" mb={4}>Drafting note</Title><Text style={{ whiteSpace: 'pre-wrap' }}>{reason}</Text></>}
    </section>
  );
}

function Validation({ id }: { id: string }) {
  const { me } = useSession();
  const q = useQuery(ReportService.method.validateReport, { id });
  if (!q.data) return q.isError ? <ErrorText error={q.error} /> : null;
  return q.data.valid ? (
    <Alert role="status" color="green" variant="light" p="xs" mt="sm"><Text size="sm" c="#1e6b30" fw={600}>goAML checks: the XML would be accepted.</Text></Alert>
  ) : (
    <Alert role="alert" aria-label="goAML problems" color="red" variant="light" mt="sm" title="goAML would reject this report">
      <List size="sm" spacing={2} c="red.9">{q.data.problems.map((p) => <List.Item key={p.field + p.message}><code>{p.field}</code>: {p.message}</List.Item>)}</List>
      {me.role === 'BANK_ADMIN'
        ? <Text size="sm" mt="xs" c="red.9">The reporting entity's identity, address and reporting person come from the <Link to="/admin/settings">report settings</Link>.</Text>
        : <Text size="sm" mt="xs" c="red.9">The reporting entity's identity, address and reporting person come from the report settings (an administrator's).</Text>}
    </Alert>
  );
}

function EditDraft({ id, reason, action, narrative, indicators, onDone }: { id: string; reason: string; action: string; narrative: string; indicators: string; onDone: () => void }) {
  const [fields, setFields] = useState({ reason, action, narrative });
  const [extra, setExtra] = useState(indicators);
  const [hint, setHint] = useState('');
  const save = useMutation(ReportService.method.updateReport, { onSuccess: onDone });
  const suggest = useMutation(ReportService.method.suggestNarrative, {
    onSuccess: (s) => { setFields((f) => ({ ...f, narrative: s.narrative })); setHint(s.warning ?? (s.source === 'ASSISTANT' ? 'Suggested by the assistant: check every fact.' : 'Drafted from the facts.')); },
  });
  const submit = useMutation(ReportService.method.submitReport, { onSuccess: onDone });
  return (
    <form aria-label="Edit the draft" onSubmit={(e) => {
      e.preventDefault();
      save.mutate({ id, ...fields, indicators: extra.split(',').map((x) => x.trim()).filter(Boolean), setIndicators: true });
    }}>
      <Title order={2} size="h3" mt="lg" mb="xs">Draft</Title>
      <Stack gap="sm" maw={720}>
        <Textarea label="Narrative (the grounds, goAML reason)" autosize minRows={6} value={fields.narrative} onChange={(e) => setFields({ ...fields, narrative: e.currentTarget.value })} />
        <Group gap="sm">
          <Button type="button" variant="default" loading={suggest.isPending} onClick={() => suggest.mutate({ id })}>Suggest a narrative</Button>
          {hint && <Text role="status" size="sm" c="gray.8">{hint}</Text>}
        </Group>
        <ErrorText error={suggest.error} />
        <Textarea label="Action taken (goAML action)" autosize minRows={2} value={fields.action} onChange={(e) => setFields({ ...fields, action: e.currentTarget.value })} />
        <TextInput label="Indicators added by hand (comma-separated codes of the code list)" value={extra} onChange={(e) => setExtra(e.currentTarget.value)} />
        <Textarea label="Drafting note (sent only when the grounds are empty)" autosize minRows={2} value={fields.reason} onChange={(e) => setFields({ ...fields, reason: e.currentTarget.value })} />
        <Group gap="sm">
          <Button type="submit" loading={save.isPending}>Save draft</Button>
          <Button type="button" variant="light" loading={submit.isPending} onClick={() => submit.mutate({ id })}>Submit for approval</Button>
        </Group>
        <ErrorText error={save.error} />
        <ErrorText error={submit.error} />
      </Stack>
    </form>
  );
}

// Review is the four-eyes decision on a submitted report. A contributor (the report's
// contributors, from the API) is not offered it: another officer approves or rejects.
function Review({ id, contributed, onDone }: { id: string; contributed: boolean; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const approve = useMutation(ReportService.method.approveReport, { onSuccess: onDone });
  const reject = useMutation(ReportService.method.rejectReport, { onSuccess: onDone });
  if (contributed) return (
    <div role="group" aria-label="Review">
      <Title order={2} size="h3" mt="lg" mb="xs">Review (four eyes)</Title>
      <Text role="note" size="sm" c="gray.7">Four eyes: you contributed to this report, so another officer approves or rejects it.</Text>
    </div>
  );
  return (
    <div role="group" aria-label="Review">
      <Title order={2} size="h3" mt="lg" mb="xs">Review (four eyes)</Title>
      <Stack gap="sm" maw={720}>
        <Group><Button type="button" color="green.9" loading={approve.isPending} onClick={() => approve.mutate({ id })}>Approve report</Button></Group>
        <ErrorText error={approve.error} />
        <Textarea label="Rejection reason" autosize minRows={2} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        <Group><Button type="button" color="red.9" variant="outline" loading={reject.isPending} onClick={() => reject.mutate({ id, reason })}>Reject report</Button></Group>
        <ErrorText error={reject.error} />
      </Stack>
    </div>
  );
}

function File({ id, onDone }: { id: string; onDone: () => void }) {
  const [reference, setReference] = useState('');
  const file = useMutation(ReportService.method.fileReport, { onSuccess: onDone });
  return (
    <form aria-label="File" onSubmit={(e) => { e.preventDefault(); file.mutate({ id, reference: reference || undefined }); }}>
      <Title order={2} size="h3" mt="lg" mb="xs">File with the NFIU</Title>
      <Group gap="sm" align="end">
        <TextInput label="NFIU reference" value={reference} onChange={(e) => setReference(e.currentTarget.value)} />
        <Button type="submit" loading={file.isPending}>Mark as filed</Button>
      </Group>
      <ErrorText error={file.error} />
    </form>
  );
}

function Downloads({ id, exportable }: { id: string; exportable: boolean }) {
  const dl = useMutation(ReportService.method.downloadReport, {
    onSuccess: (f) => {
      const url = URL.createObjectURL(new Blob([f.content], { type: f.contentType }));
      const a = document.createElement('a');
      a.href = url; a.download = f.filename; a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },
  });
  return (
    <div>
      <Title order={2} size="h3" mt="lg" mb="xs">Downloads</Title>
      <Group gap="sm">
        {exportable && <Button type="button" variant="default" onClick={() => dl.mutate({ id, format: 'XML' })}>Download goAML XML</Button>}
        <Button type="button" variant="default" onClick={() => dl.mutate({ id, format: 'HTML' })}>Download HTML</Button>
      </Group>
      <ErrorText error={dl.error} />
    </div>
  );
}
