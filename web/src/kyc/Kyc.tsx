import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Button, Group, NativeSelect, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { KycService, type KycApplication, type KycDocument } from '../gen/complyd/v1/kyc_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { Assignment, AssignedToFilter, useAssigneeName } from './Assignment';
import { ErrorText, Loading, Pager } from '../ui/parts';
import { count, dateTime, enumLabel as label, plural } from '../ui/format';
import { useZone } from '../ui/zone';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { ApplicationDecision } from '../ui/ApplicationDecision';
import { ApplicationEvidence } from '../ui/ApplicationEvidence';
import { CustomerLinks } from '../ui/CustomerLinks';
import { DocumentFigure } from '../ui/DocumentFigure';
import { Facts, Verified } from '../ui/Facts';

const kycStatuses = ['PENDING', 'DOCUMENT_UPLOADED', 'NIN_VERIFIED', 'BVN_VERIFIED', 'LIVENESS_PASSED', 'APPROVED', 'REJECTED', 'EXPIRED'];
export const officerRoles = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'];

// KycList is the review queue of KYC applications, filtered and paged by the server.
export function KycList() {
  const { search } = useRouter().loc; // a link (an Overview funnel bar) opens a filtered list
  const { navigate } = useRouter();
  const zone = useZone();
  const [status, setStatus] = useState(search.get('status') ?? '');
  const [assignedTo, setAssignedTo] = useState(search.get('assignedTo') ?? '');
  const [page, setPage] = useState(1);
  const who = useAssigneeName();
  const q = useQuery(KycService.method.listApplications, { page, limit: 20, status: status || undefined, assignedTo: assignedTo || undefined });
  const cols: Col<KycApplication>[] = [
    { id: 'applicant', header: 'Applicant', rowHeader: true, cell: (a) => <Link to={`/kyc/${a.id}`}>{a.firstName} {a.lastName}</Link>, sort: (a) => `${a.lastName} ${a.firstName}` },
    { id: 'type', header: 'Type', cell: (a) => label(a.entityType), sort: (a) => a.entityType },
    { id: 'tier', header: 'Tier', cell: (a) => label(a.tier), sort: (a) => a.tier },
    { id: 'status', header: 'Status', cell: (a) => <StatusBadge value={a.status} />, sort: (a) => a.status },
    { id: 'assignee', header: 'Assigned to', cell: (a) => who(a.assignedTo), sort: (a) => who(a.assignedTo) },
    { id: 'created', header: 'Created', cell: (a) => <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>{dateTime(a.createdAt, zone)}</Text>, sort: (a) => Number(a.createdAt?.seconds ?? 0) },
  ];
  return (
    <section aria-labelledby="kyc-h">
      <Title order={1} id="kyc-h" mb="sm">KYC review</Title>
      <form onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap" mb="sm">
          <NativeSelect label="Application status" value={status} onChange={(e) => { setStatus(e.currentTarget.value); setPage(1); }}
            data={[{ value: '', label: 'Any' }, ...kycStatuses.map((s) => ({ value: s, label: label(s) }))]} />
          <AssignedToFilter value={assignedTo} onChange={(v) => { setAssignedTo(v); setPage(1); }} />
        </Group>
      </form>
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="KYC applications" rows={q.data?.items} cols={cols} rowKey={(a) => a.id} loading={q.isPending}
          empty="No applications." onOpen={(a) => navigate(`/kyc/${a.id}`)} />
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

// KycPage is one application: identity, verification results (BVN, NIN, liveness, face match),
// documents previewed through the API's signed download links, and the decision.
export function KycPage({ id }: { id: string }) {
  const { me } = useSession();
  const zone = useZone();
  // Only officers review documents and decide (the API refuses analysts and the auditor).
  const officer = officerRoles.includes(me.role);
  const q = useQuery(KycService.method.getApplication, { id }, { retry: false });
  const done = () => void q.refetch();
  const approve = useMutation(KycService.method.approveApplication, { onSuccess: done });
  const reject = useMutation(KycService.method.rejectApplication, { onSuccess: done });
  if (q.isPending) return <Loading />;
  if (q.isError) return <section><Title order={1}>Application not found</Title><ErrorText error={q.error} /></section>;
  const a = q.data;
  const terminal = ['APPROVED', 'REJECTED', 'EXPIRED'].includes(a.status);
  type Result = (typeof a.verificationResults)[number];
  const resultCols: Col<Result>[] = [
    { id: 'check', header: 'Check', rowHeader: true, cell: (r) => label(r.identityType), sort: (r) => r.identityType },
    { id: 'provider', header: 'Provider', cell: (r) => label(r.provider), sort: (r) => r.provider },
    { id: 'match', header: 'Match', cell: (r) => <StatusBadge value={r.isMatch ? 'PASSED' : 'FAILED'} label={r.isMatch ? 'Match' : 'No match'} />, sort: (r) => Number(r.isMatch) },
    { id: 'confidence', header: 'Confidence', cell: (r) => String(r.confidence), sort: (r) => Number(r.confidence) },
    { id: 'when', header: 'When', cell: (r) => dateTime(r.verifiedAt, zone), sort: (r) => Number(r.verifiedAt?.seconds ?? 0) },
    { id: 'error', header: 'Error', cell: (r) => r.errorMessage || '—' },
  ];
  return (
    <Stack component="section" aria-labelledby="kycd-h" gap="md">
      <Title order={1} id="kycd-h">KYC: {a.firstName} {a.lastName}</Title>
      <Facts items={[
        ['Status', <span data-testid="kyc-status"><StatusBadge value={a.status} /></span>],
        ['Tier', label(a.tier)],
        ['BVN', <>{a.bvn ?? '—'} <Verified ok={a.bvnVerified} /></>],
        ['NIN', <>{a.nin ?? '—'} <Verified ok={a.ninVerified} /></>],
        ['Liveness', a.livenessPassed ? 'Passed' : 'Not passed'],
        ['Risk level', a.riskLevel ? <StatusBadge value={a.riskLevel} /> : '—'],
        ['Notes', a.notes || '—'],
      ]} />
      <Assignment kind="kyc" id={a.id} assignedTo={a.assignedTo} onDone={done} />
      {a.customerId && <CustomerLinks applicationId={a.id} />}
      <ApplicationEvidence checks={a.openChecks} cases={a.openCases} overrides={a.overrides} />
      <Title order={2} size="h3">Verification results</Title>
      <DataTable label="Verification results" rows={a.verificationResults} cols={resultCols} rowKey={(r) => r.id} empty="No verification run yet." />
      <Title order={2} size="h3">Documents</Title>
      <Text size="sm">An ID or proof of address counts for a tier only once an officer has verified it.</Text>
      {a.documents.length === 0 ? <Text c="gray.7" size="sm">No documents uploaded.</Text> : a.documents.map((d) => (
        <Paper key={d.id} withBorder p="sm" className="doc-review">
          <DocumentPreview appId={a.id} d={d} />
          <DocumentReview appId={a.id} d={d} canReview={officer && !terminal} onDone={done} />
        </Paper>
      ))}
      {officer && !terminal && (
        <ApplicationDecision error={approve.error ?? reject.error} checks={a.openChecks} cases={a.openCases} evidenceRequired={a.evidenceRequired}
          onApprove={(riskLevel, reason) => approve.mutate({ id: a.id, riskLevel, notes: reason || undefined })}
          onReject={(riskLevel, reason) => reject.mutate({ id: a.id, reason, riskLevel })} />
      )}
    </Stack>
  );
}

// fileSize spells a byte count for people.
export function fileSize(n: number | bigint): string {
  const b = Number(n);
  if (b < 1024) return plural(b, 'byte');
  if (b < 1024 * 1024) return `${count(Math.round(b / 102.4) / 10)} kB`;
  return `${count(Math.round(b / (1024 * 102.4)) / 10)} MB`;
}

// DocumentPreview asks the API for a short-lived download link and shows images and PDFs inline.
function DocumentPreview({ appId, d }: { appId: string; d: KycDocument }) {
  const link = useQuery(KycService.method.getDocumentDownload, { id: appId, docId: d.id });
  return <DocumentFigure caption={<>{label(d.documentType)}: {d.fileName} ({d.mimeType}, {fileSize(d.fileSizeBytes)})</>} fileName={d.fileName} mimeType={d.mimeType} link={link} />;
}

// DocumentReview shows a document's verification status and, to officers, the decision: verify
// it, or reject it with a reason. Under the tenant's four-eyes setting the first "Verify" leaves it
// pending a second officer, and the API refuses the same officer (or the uploader) confirming it;
// that refusal is shown in words. The reason clears after a review; an error keeps it.
function DocumentReview({ appId, d, canReview, onDone }: { appId: string; d: KycDocument; canReview: boolean; onDone: () => void }) {
  const zone = useZone();
  const review = useMutation(KycService.method.reviewDocument, { onSuccess: () => { setReason(''); onDone(); } });
  const [reason, setReason] = useState('');
  const open = d.verificationStatus === 'PENDING_REVIEW' || d.verificationStatus === 'PENDING_SECOND_REVIEW';
  const name = `${label(d.documentType)} ${d.fileName}`;
  return (
    <Stack gap="xs" className="review" mt="xs">
      <Text size="sm">
        Verification: <strong data-testid={`doc-status-${d.id}`}>{label(d.verificationStatus)}</strong>
        {d.verificationStatus === 'PENDING_SECOND_REVIEW' && ' (a second officer must confirm it)'}
        {d.reviewedAt && ` on ${dateTime(d.reviewedAt, zone)}`}
        {d.rejectionReason && `: ${d.rejectionReason}`}
      </Text>
      {canReview && open && (
        <Stack gap="xs" role="group" aria-label={`Review ${name}`}>
          <Textarea label={`Rejection reason for ${name}`} autosize minRows={2} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          <Group gap="xs">
            <Button size="sm" loading={review.isPending} aria-label={`Verify document ${name}`}
              onClick={() => review.mutate({ id: appId, docId: d.id, decision: 'VERIFY' })}>Verify document</Button>
            <Button size="sm" color="red.9" variant="outline" disabled={review.isPending} aria-label={`Reject document ${name}`}
              onClick={() => review.mutate({ id: appId, docId: d.id, decision: 'REJECT', reason: reason || undefined })}>Reject document</Button>
          </Group>
          <ErrorText error={review.error} />
        </Stack>
      )}
    </Stack>
  );
}
