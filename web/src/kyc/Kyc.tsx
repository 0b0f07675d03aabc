import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { KycService, type KycDocument } from '../gen/complyd/v1/kyc_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { Assignment, AssignedToFilter, useAssigneeName } from './Assignment';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';
import { enumLabel as label } from '../ui/format';
import { ApplicationDecision } from '../ui/ApplicationDecision';
import { ApplicationEvidence } from '../ui/ApplicationEvidence';
import { CustomerLinks } from '../ui/CustomerLinks';
import { DocumentFigure } from '../ui/DocumentFigure';

const kycStatuses = ['PENDING', 'DOCUMENT_UPLOADED', 'NIN_VERIFIED', 'BVN_VERIFIED', 'LIVENESS_PASSED', 'APPROVED', 'REJECTED', 'EXPIRED'];

// KycList is the review queue of KYC applications, filtered and paged by the server.
export function KycList() {
  const { search } = useRouter().loc; // a link (an Overview funnel bar) opens a filtered list
  const [status, setStatus] = useState(search.get('status') ?? '');
  const [assignedTo, setAssignedTo] = useState(search.get('assignedTo') ?? '');
  const [page, setPage] = useState(1);
  const who = useAssigneeName();
  const q = useQuery(KycService.method.listApplications, { page, limit: 20, status: status || undefined, assignedTo: assignedTo || undefined });
  return (
    <section aria-labelledby="kyc-h">
      <h1 id="kyc-h">KYC review</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Application status"><select value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }}><option value="">any</option>{kycStatuses.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select></Field>
        <AssignedToFilter value={assignedTo} onChange={(v) => { setAssignedTo(v); setPage(1); }} />
      </form>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.items.length === 0 ? <Empty>No applications.</Empty> : (
        <table>
          <thead><tr><th>Applicant</th><th>Type</th><th>Tier</th><th>Status</th><th>Assigned to</th><th>Created</th></tr></thead>
          <tbody>{q.data.items.map((a) => (
            <tr key={a.id}><td><Link to={`/kyc/${a.id}`}>{a.firstName} {a.lastName}</Link></td><td>{label(a.entityType)}</td><td>{a.tier}</td><td>{label(a.status)}</td><td>{who(a.assignedTo)}</td><td>{when(a.createdAt)}</td></tr>))}
          </tbody>
        </table>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

// KycPage is one application: identity, verification results (BVN, NIN, liveness, face match),
// documents previewed through the API's signed download links, and the decision.
export function KycPage({ id }: { id: string }) {
  const { canAct, me } = useSession();
  // Only officers review documents (the API refuses analysts and the read-only auditor).
  const officer = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'].includes(me.role);
  const q = useQuery(KycService.method.getApplication, { id }, { retry: false });
  const done = () => void q.refetch();
  const approve = useMutation(KycService.method.approveApplication, { onSuccess: done });
  const reject = useMutation(KycService.method.rejectApplication, { onSuccess: done });
  if (q.isPending) return <Loading />;
  if (q.isError) return <section><h1>Application not found</h1><ErrorText error={q.error} /></section>;
  const a = q.data;
  const terminal = ['APPROVED', 'REJECTED', 'EXPIRED'].includes(a.status);
  return (
    <section aria-labelledby="kycd-h">
      <h1 id="kycd-h">KYC: {a.firstName} {a.lastName}</h1>
      <dl className="facts">
        <dt>Status</dt><dd data-testid="kyc-status">{label(a.status)}</dd>
        <dt>Tier</dt><dd>{a.tier}</dd>
        <dt>BVN</dt><dd>{a.bvn ?? '—'} {a.bvnVerified ? '(verified)' : '(not verified)'}</dd>
        <dt>NIN</dt><dd>{a.nin ?? '—'} {a.ninVerified ? '(verified)' : '(not verified)'}</dd>
        <dt>Liveness</dt><dd>{a.livenessPassed ? 'passed' : 'not passed'}</dd>
        <dt>Risk level</dt><dd>{a.riskLevel ?? '—'}</dd>
        <dt>Notes</dt><dd>{a.notes ?? '—'}</dd>
      </dl>
      <Assignment kind="kyc" id={a.id} assignedTo={a.assignedTo} onDone={done} />
      {a.customerId && <CustomerLinks applicationId={a.id} />}
      <ApplicationEvidence checks={a.openChecks} cases={a.openCases} overrides={a.overrides} />
      <h2>Verification results</h2>
      {a.verificationResults.length === 0 ? <Empty>No verification run yet.</Empty> : (
        <table aria-label="Verification results">
          <thead><tr><th>Check</th><th>Provider</th><th>Match</th><th>Confidence</th><th>When</th><th>Error</th></tr></thead>
          <tbody>{a.verificationResults.map((r) => (
            <tr key={r.id}><td>{r.identityType}</td><td>{r.provider}</td><td>{r.isMatch ? 'match' : 'no match'}</td><td>{r.confidence}</td><td>{when(r.verifiedAt)}</td><td>{r.errorMessage ?? ''}</td></tr>))}
          </tbody>
        </table>
      )}
      <h2>Documents</h2>
      <p>An ID or proof of address counts for a tier only once an officer has verified it.</p>
      {a.documents.length === 0 ? <Empty>No documents uploaded.</Empty> : a.documents.map((d) => (
        <div key={d.id} className="doc-review">
          <DocumentPreview appId={a.id} d={d} />
          <DocumentReview appId={a.id} d={d} canReview={officer && !terminal} onDone={done} />
        </div>
      ))}
      {canAct && !terminal && (
        <ApplicationDecision error={approve.error ?? reject.error} checks={a.openChecks} cases={a.openCases} evidenceRequired={a.evidenceRequired}
          onApprove={(riskLevel, reason) => approve.mutate({ id: a.id, riskLevel, notes: reason || undefined })}
          onReject={(riskLevel, reason) => reject.mutate({ id: a.id, reason, riskLevel })} />
      )}
    </section>
  );
}

// DocumentPreview asks the API for a short-lived download link and shows images and PDFs inline.
function DocumentPreview({ appId, d }: { appId: string; d: KycDocument }) {
  const link = useQuery(KycService.method.getDocumentDownload, { id: appId, docId: d.id });
  return <DocumentFigure caption={<>{label(d.documentType)}: {d.fileName} ({d.mimeType}, {d.fileSizeBytes} bytes)</>} fileName={d.fileName} mimeType={d.mimeType} link={link} />;
}

// DocumentReview shows a document's verification status and, to officers, the decision: verify
// it, or reject it with a reason. Under the tenant's four-eyes setting the first "Verify" leaves it
// pending a second officer, and the API refuses the same officer (or the uploader) confirming it;
// that refusal is shown in words.
function DocumentReview({ appId, d, canReview, onDone }: { appId: string; d: KycDocument; canReview: boolean; onDone: () => void }) {
  const review = useMutation(KycService.method.reviewDocument, { onSuccess: () => { setReason(''); onDone(); } });
  const [reason, setReason] = useState('');
  const open = d.verificationStatus === 'PENDING_REVIEW' || d.verificationStatus === 'PENDING_SECOND_REVIEW';
  const name = `${label(d.documentType)} ${d.fileName}`;
  return (
    <div className="review">
      <p>
        Verification: <strong data-testid={`doc-status-${d.id}`}>{label(d.verificationStatus)}</strong>
        {d.verificationStatus === 'PENDING_SECOND_REVIEW' && ' (a second officer must confirm it)'}
        {d.reviewedAt && ` on ${when(d.reviewedAt)}`}
        {d.rejectionReason && `: ${d.rejectionReason}`}
      </p>
      {canReview && open && (
        <div className="actions" role="group" aria-label={`Review ${name}`}>
          <Field label={`Rejection reason for ${name}`}><textarea value={reason} onChange={(e) => setReason(e.target.value)} /></Field>
          <button type="button" disabled={review.isPending} aria-label={`Verify document ${name}`}
            onClick={() => review.mutate({ id: appId, docId: d.id, decision: 'VERIFY' })}>Verify document</button>
          <button type="button" disabled={review.isPending} aria-label={`Reject document ${name}`}
            onClick={() => review.mutate({ id: appId, docId: d.id, decision: 'REJECT', reason: reason || undefined })}>Reject document</button>
          <ErrorText error={review.error} />
        </div>
      )}
    </div>
  );
}
