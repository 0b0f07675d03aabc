import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Code, ConnectError } from '@connectrpc/connect';
import { ReportService } from '../gen/complyd/v1/report_pb';
import { useSession } from '../auth/session';
import { Link } from '../ui/router';
import { Empty, ErrorText, Field, Loading, when } from '../ui/parts';
import { statusLabel } from './Reports';
import { who } from '../ui/people';
import { calendarDate } from '../ui/format';

// ReportPage is one report as its workflow reads: the facts, the goAML check, the draft's edit
// form with the narrative suggestion (writers), the four-eyes review (officers) and filing,
// then the downloads. Each action's error is shown next to it.
export function ReportPage({ id }: { id: string }) {
  const { canAct, me } = useSession();
  const q = useQuery(ReportService.method.getReport, { id }, { retry: false });
  if (q.isPending) return <Loading />;
  if (q.isError) {
    const code = ConnectError.from(q.error).code;
    return code === Code.NotFound ? <section><h1>Report not found</h1><Link to="/reports">Back to the reports</Link></section> : <ErrorText error={q.error} />;
  }
  const r = q.data;
  const refetch = () => void q.refetch();
  return (
    <section aria-labelledby="report-h">
      <h1 id="report-h">{r.type} on {r.customerName || r.customerAccount}</h1>
      <p className="report-id">Report <code>{r.id}</code></p>
      <dl className="facts">
        <dt>Status</dt><dd data-testid="report-status">{statusLabel(r.status)}</dd>
        <dt>Customer</dt><dd>{r.customerName} ({r.customerAccount})</dd>
        <dt>Day</dt><dd data-testid="report-day">{calendarDate(r.reportDay)}</dd>
        <dt>Deadline</dt><dd>{when(r.deadlineAt)}</dd>
        <dt>Case</dt><dd>{r.caseId ? <Link to={`/cases/${r.caseId}`}>Open the case</Link> : 'none'}</dd>
        <dt>Rules</dt><dd data-testid="report-rules">{r.rules.join(', ') || (r.sanctionsHits.length > 0 ? 'no rule: raised by the sanctions match below' : 'none')}</dd>
        <dt>Indicators</dt><dd data-testid="report-indicators">{r.reportIndicators.join(', ') || 'none'}</dd>
        <dt>Sanctions hits</dt><dd data-testid="report-hits">{r.sanctionsHits.length === 0 ? 'none' : (
          <ul>{r.sanctionsHits.map((h) => <li key={h.transactionId + h.entryId + h.party}>
            {h.party.toLowerCase()} matched list {h.list}, entry {h.entryId} ({h.name}) as “{h.matchedName}”, score {h.score.toFixed(2)}</li>)}</ul>)}</dd>
        <dt>Transactions</dt><dd>{r.transactionIds.map((t) => <Link key={t} to={`/transactions/${t}`}>{t} </Link>)}</dd>
        <dt>Prepared by</dt><dd data-testid="report-prepared-by">{who(r.preparedBy, r.preparedByName)}</dd>
        {r.submittedBy && <><dt>Submitted by</dt><dd data-testid="report-submitted-by">{who(r.submittedBy, r.submittedByName)}</dd></>}
        {r.approvedBy && <><dt>Approved by</dt><dd data-testid="report-approved-by">{who(r.approvedBy, r.approvedByName)}</dd></>}
        {r.filedBy && <><dt>Filed by</dt><dd data-testid="report-filed-by">{who(r.filedBy, r.filedByName)}</dd></>}
        {r.rejectionReason && <><dt>Rejected because</dt><dd>{r.rejectionReason}</dd></>}
        {r.filingReference && <><dt>Filing reference</dt><dd>{r.filingReference} ({r.filingMethod})</dd></>}
      </dl>
      <Validation key={`${r.status}-${r.updatedAt?.seconds}-${r.updatedAt?.nanos}`} id={r.id} />
      {canAct && r.status === 'DRAFT' && <EditDraft key={`${r.updatedAt?.seconds}-${r.updatedAt?.nanos}`} id={r.id} reason={r.reason} action={r.action} narrative={r.narrative} indicators={r.indicators.join(', ')} onDone={refetch} />}
      {(r.status !== 'DRAFT' || !canAct) && <ReportText narrative={r.narrative} action={r.action} reason={r.reason} />}
      {canAct && r.status === 'PENDING_APPROVAL' && <Review id={r.id} contributed={r.contributors.includes(me.id)} onDone={refetch} />}
      {canAct && r.status === 'APPROVED' && <File id={r.id} onDone={refetch} />}
      <Downloads id={r.id} exportable={r.status === 'APPROVED' || r.status === 'FILED'} />
      <h2>Timeline</h2>
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
      <h2>Narrative (the grounds, goAML reason)</h2><p data-testid="report-narrative">{narrative || reason || 'none written'}</p>
      <h2>Action taken (goAML action)</h2><p data-testid="report-action">{action || 'none written'}</p>
      {reason && narrative && <><h2>Drafting note</h2><p>{reason}</p></>}
    </section>
  );
}

function Validation({ id }: { id: string }) {
  const { me } = useSession();
  const q = useQuery(ReportService.method.validateReport, { id });
  if (!q.data) return q.isError ? <ErrorText error={q.error} /> : null;
  return q.data.valid ? <p role="status">goAML checks: the XML would be accepted.</p> : (
    <div role="alert" aria-label="goAML problems"><h2>goAML would reject this report</h2>
      <ul>{q.data.problems.map((p) => <li key={p.field + p.message}><code>{p.field}</code>: {p.message}</li>)}</ul>
      {me.role === 'BANK_ADMIN'
        ? <p>The reporting entity's identity, address and reporting person come from the <Link to="/admin/settings">report settings</Link>.</p>
        : <p>The reporting entity's identity, address and reporting person come from the report settings (an administrator's).</p>}
    </div>
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
      <h2>Draft</h2>
      <Field label="Narrative (the grounds, goAML reason)"><textarea rows={6} value={fields.narrative} onChange={(e) => setFields({ ...fields, narrative: e.target.value })} /></Field>
      <Field label="Action taken (goAML action)"><textarea value={fields.action} onChange={(e) => setFields({ ...fields, action: e.target.value })} /></Field>
      <Field label="Indicators added by hand (comma-separated codes of the code list)"><input value={extra} onChange={(e) => setExtra(e.target.value)} /></Field>
      <Field label="Drafting note (sent only when the grounds are empty)"><textarea value={fields.reason} onChange={(e) => setFields({ ...fields, reason: e.target.value })} /></Field>
      <button type="button" onClick={() => suggest.mutate({ id })}>Suggest a narrative</button>
      {hint && <p role="status">{hint}</p>}
      <ErrorText error={suggest.error} />
      <button type="submit">Save draft</button>
      <ErrorText error={save.error} />
      <button type="button" onClick={() => submit.mutate({ id })}>Submit for approval</button>
      <ErrorText error={submit.error} />
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
    <div className="actions" role="group" aria-label="Review">
      <h2>Review (four eyes)</h2>
      <p role="note" className="muted">Four eyes: you contributed to this report, so another officer approves or rejects it.</p>
    </div>
  );
  return (
    <div className="actions" role="group" aria-label="Review">
      <h2>Review (four eyes)</h2>
      <button type="button" onClick={() => approve.mutate({ id })}>Approve report</button>
      <ErrorText error={approve.error} />
      <Field label="Rejection reason"><textarea value={reason} onChange={(e) => setReason(e.target.value)} /></Field>
      <button type="button" onClick={() => reject.mutate({ id, reason })}>Reject report</button>
      <ErrorText error={reject.error} />
    </div>
  );
}

function File({ id, onDone }: { id: string; onDone: () => void }) {
  const [reference, setReference] = useState('');
  const file = useMutation(ReportService.method.fileReport, { onSuccess: onDone });
  return (
    <form aria-label="File" onSubmit={(e) => { e.preventDefault(); file.mutate({ id, reference: reference || undefined }); }}>
      <h2>File with the NFIU</h2>
      <Field label="NFIU reference"><input value={reference} onChange={(e) => setReference(e.target.value)} /></Field>
      <button type="submit">Mark as filed</button>
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
    <div className="actions">
      <h2>Downloads</h2>
      {exportable && <button type="button" onClick={() => dl.mutate({ id, format: 'XML' })}>Download goAML XML</button>}
      <button type="button" onClick={() => dl.mutate({ id, format: 'HTML' })}>Download HTML</button>
      <ErrorText error={dl.error} />
    </div>
  );
}
