import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { KybService } from '../gen/complyd/v1/kyb_pb';
import type { KycDocument } from '../gen/complyd/v1/kyc_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { Assignment, AssignedToFilter, useAssigneeName } from './Assignment';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';
import { enumLabel as label } from '../ui/format';
import { ApplicationDecision } from '../ui/ApplicationDecision';
import { ApplicationEvidence } from '../ui/ApplicationEvidence';
import { CustomerLinks } from '../ui/CustomerLinks';
import { DocumentFigure } from '../ui/DocumentFigure';

const kybStatuses = ['PENDING', 'DOCUMENT_UPLOADED', 'CAC_VERIFIED', 'DIRECTORS_VERIFIED', 'BENEFICIAL_OWNERS_VERIFIED', 'SCREENING_PASSED', 'APPROVED', 'REJECTED', 'EXPIRED'];

// KybList is the review queue of business (KYB) applications, filtered and paged by the server.
export function KybList() {
  const { search } = useRouter().loc; // a link (an Overview funnel bar) opens a filtered list
  const [status, setStatus] = useState(search.get('status') ?? '');
  const [assignedTo, setAssignedTo] = useState(search.get('assignedTo') ?? '');
  const [page, setPage] = useState(1);
  const who = useAssigneeName();
  const q = useQuery(KybService.method.listKybApplications, { page, limit: 20, status: status || undefined, assignedTo: assignedTo || undefined });
  return (
    <section aria-labelledby="kyb-h">
      <h1 id="kyb-h">KYB review</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Business application status"><select value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }}><option value="">any</option>{kybStatuses.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select></Field>
        <AssignedToFilter value={assignedTo} onChange={(v) => { setAssignedTo(v); setPage(1); }} />
      </form>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.items.length === 0 ? <Empty>No business applications.</Empty> : (
        <table>
          <thead><tr><th>Company</th><th>RC number</th><th>Status</th><th>Assigned to</th><th>Created</th></tr></thead>
          <tbody>{q.data.items.map((a) => (
            <tr key={a.id}><td><Link to={`/kyb/${a.id}`}>{a.companyName}</Link></td><td>{a.rcNumber ?? '—'}</td><td>{label(a.status)}</td><td>{who(a.assignedTo)}</td><td>{when(a.createdAt)}</td></tr>))}
          </tbody>
        </table>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

// KybPage is one business application: CAC, directors and beneficial owners with their
// verification and screening results, every check run, documents, and the decision.
export function KybPage({ id }: { id: string }) {
  const { canAct } = useSession();
  const q = useQuery(KybService.method.getKybApplication, { id }, { retry: false });
  const done = () => void q.refetch();
  const approve = useMutation(KybService.method.approveKybApplication, { onSuccess: done });
  const reject = useMutation(KybService.method.rejectKybApplication, { onSuccess: done });
  if (q.isPending) return <Loading />;
  if (q.isError) return <section><h1>Application not found</h1><ErrorText error={q.error} /></section>;
  const a = q.data;
  const terminal = ['APPROVED', 'REJECTED', 'EXPIRED'].includes(a.status);
  return (
    <section aria-labelledby="kybd-h">
      <h1 id="kybd-h">KYB: {a.companyName}</h1>
      <dl className="facts">
        <dt>Status</dt><dd data-testid="kyb-status">{label(a.status)}</dd>
        <dt>RC number</dt><dd>{a.rcNumber ?? '—'} {a.cacVerified ? '(CAC verified)' : '(CAC not verified)'}</dd>
        <dt>Directors</dt><dd>{a.directorsVerified ? 'all verified' : 'not all verified'}</dd>
        <dt>Beneficial owners</dt><dd>{a.beneficialOwnersClean ? 'clean' : 'not screened clean'}</dd>
        <dt>Risk level</dt><dd>{a.riskLevel ?? '—'}</dd>
      </dl>
      <Assignment kind="kyb" id={a.id} assignedTo={a.assignedTo} onDone={done} />
      {a.customerId && <CustomerLinks applicationId={a.id} />}
      <ApplicationEvidence checks={a.openChecks} cases={a.openCases} overrides={a.overrides} />
      <h2>Directors</h2>
      {a.directors.length === 0 ? <Empty>No directors.</Empty> : <ul>{a.directors.map((d, i) => <li key={i}>{d.name} {d.bvn ? `BVN ${d.bvn}` : ''} — {d.verified ? 'verified' : 'not verified'}</li>)}</ul>}
      <h2>Beneficial owners</h2>
      {a.beneficialOwners.length === 0 ? <Empty>No beneficial owners.</Empty> : <ul>{a.beneficialOwners.map((o, i) => <li key={i}>{o.name} ({o.percentage}%) — {o.clean === undefined ? 'not screened' : o.clean ? 'clean' : `${o.hits.length} hit(s)`}</li>)}</ul>}
      <h2>Checks</h2>
      {a.checks.length === 0 ? <Empty>No checks run yet.</Empty> : (
        <table aria-label="Checks"><thead><tr><th>Check</th><th>Subject</th><th>Result</th><th>Confidence</th><th>Provider</th><th>When</th></tr></thead>
          <tbody>{a.checks.map((c) => <tr key={c.id}><td>{label(c.checkType)}</td><td>{c.subject}</td><td>{c.passed ? 'passed' : 'failed'}</td><td>{c.confidence}</td><td>{c.provider}</td><td>{when(c.checkedAt)}</td></tr>)}</tbody>
        </table>
      )}
      <h2>Documents</h2>
      {a.documents.length === 0 ? <Empty>No documents uploaded.</Empty> : a.documents.map((d) => <KybDocumentPreview key={d.id} appId={a.id} d={d} />)}
      {canAct && !terminal && (
        <ApplicationDecision error={approve.error ?? reject.error} checks={a.openChecks} cases={a.openCases} evidenceRequired={a.evidenceRequired}
          onApprove={(riskLevel, reason) => approve.mutate({ id: a.id, riskLevel, notes: reason || undefined })}
          onReject={(riskLevel, reason) => reject.mutate({ id: a.id, reason, riskLevel })} />
      )}
    </section>
  );
}

function KybDocumentPreview({ appId, d }: { appId: string; d: KycDocument }) {
  const link = useQuery(KybService.method.getKybDocumentDownload, { id: appId, docId: d.id });
  return <DocumentFigure caption={<>{label(d.documentType)}: {d.fileName} ({d.mimeType})</>} fileName={d.fileName} mimeType={d.mimeType} link={link} />;
}
