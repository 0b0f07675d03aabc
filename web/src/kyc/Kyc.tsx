import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { KycService, type KycApplication, type KycDocument, type KycVerificationResult } from '../gen/complyd/v1/kyc_pb';
import { Link } from '../ui/router';
import { ApplicationFile, ApplicationQueue, useQueue } from './Application';
import { ErrorText } from '../ui/parts';
import { count, dateTime, enumLabel as label, plural } from '../ui/format';
import { useZone } from '../ui/zone';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { DocumentFigure } from '../ui/DocumentFigure';
import { Verified } from '../ui/Facts';

const kycStatuses = ['PENDING', 'DOCUMENT_UPLOADED', 'NIN_VERIFIED', 'BVN_VERIFIED', 'LIVENESS_PASSED', 'APPROVED', 'REJECTED', 'EXPIRED'];

// KycList is the review queue of KYC applications, filtered and paged by the server.
export function KycList() {
  const queue = useQueue();
  const q = useQuery(KycService.method.listApplications, queue.request);
  const cols: Col<KycApplication>[] = [
    { id: 'applicant', header: 'Applicant', rowHeader: true, cell: (a) => <Link to={`/kyc/${a.id}`}>{a.firstName} {a.lastName}</Link>, sort: (a) => `${a.lastName} ${a.firstName}` },
    { id: 'type', header: 'Type', cell: (a) => label(a.entityType), sort: (a) => a.entityType },
    { id: 'tier', header: 'Tier', cell: (a) => label(a.tier), sort: (a) => a.tier },
  ];
  return <ApplicationQueue kind="kyc" title="KYC review" statusLabel="Application status" statuses={kycStatuses} tableLabel="KYC applications"
    empty="No applications." queue={queue} q={q} cols={cols} />;
}

// KycPage is one application: identity, verification results (BVN, NIN, liveness, face match),
// documents previewed through the API's signed download links, and the decision.
export function KycPage({ id }: { id: string }) {
  const zone = useZone();
  const q = useQuery(KycService.method.getApplication, { id }, { retry: false });
  const done = () => void q.refetch();
  const approve = useMutation(KycService.method.approveApplication, { onSuccess: done });
  const reject = useMutation(KycService.method.rejectApplication, { onSuccess: done });
  const resultCols: Col<KycVerificationResult>[] = [
    { id: 'check', header: 'Check', rowHeader: true, cell: (r) => label(r.identityType), sort: (r) => r.identityType },
    { id: 'provider', header: 'Provider', cell: (r) => label(r.provider), sort: (r) => r.provider },
    { id: 'match', header: 'Match', cell: (r) => <StatusBadge value={r.isMatch ? 'PASSED' : 'FAILED'} label={r.isMatch ? 'Match' : 'No match'} />, sort: (r) => Number(r.isMatch) },
    { id: 'confidence', header: 'Confidence', cell: (r) => String(r.confidence), sort: (r) => Number(r.confidence) },
    { id: 'when', header: 'When', cell: (r) => dateTime(r.verifiedAt, zone), sort: (r) => Number(r.verifiedAt?.seconds ?? 0) },
    { id: 'error', header: 'Error', cell: (r) => r.errorMessage || '—' },
  ];
  return (
    <ApplicationFile kind="kyc" q={q} refetch={done} approve={approve} reject={reject}
      title={(a) => <>KYC: {a.firstName} {a.lastName}</>}
      facts={(a) => [
        ['Status', <span data-testid="kyc-status"><StatusBadge value={a.status} /></span>],
        ['Tier', label(a.tier)],
        ['BVN', <>{a.bvn ?? '—'} <Verified ok={a.bvnVerified} /></>],
        ['NIN', <>{a.nin ?? '—'} <Verified ok={a.ninVerified} /></>],
        ['Liveness', a.livenessPassed ? 'Passed' : 'Not passed'],
        ['Risk level', a.riskLevel ? <StatusBadge value={a.riskLevel} /> : '—'],
        ['Notes', a.notes || '—'],
      ]}>
      {(a, r) => <>
        <Title order={2} size="h3">Verification results</Title>
        <DataTable label="Verification results" rows={a.verificationResults} cols={resultCols} rowKey={(x) => x.id} empty="No verification run yet." />
        <Title order={2} size="h3">Documents</Title>
        <Text size="sm">An ID or proof of address counts for a tier only once an officer has verified it.</Text>
        {a.documents.length === 0 ? <Text c="gray.7" size="sm">No documents uploaded.</Text> : a.documents.map((d) => (
          <Paper key={d.id} withBorder p="sm" className="doc-review">
            <DocumentPreview appId={a.id} d={d} />
            <DocumentReview appId={a.id} d={d} canReview={r.officer && !r.terminal} onDone={r.done} />
          </Paper>
        ))}
      </>}
    </ApplicationFile>
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
