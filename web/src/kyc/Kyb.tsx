import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Paper, Text, Title } from '@mantine/core';
import { KybService, type KybApplication, type KybCheck } from '../gen/complyd/v1/kyb_pb';
import type { KycDocument } from '../gen/complyd/v1/kyc_pb';
import { Link } from '../ui/router';
import { ApplicationFile, ApplicationQueue, useQueue } from './Application';
import { dateTime, enumLabel as label, plural } from '../ui/format';
import { useZone } from '../ui/zone';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { DocumentFigure } from '../ui/DocumentFigure';
import { Verified } from '../ui/Facts';

const kybStatuses = ['PENDING', 'DOCUMENT_UPLOADED', 'CAC_VERIFIED', 'DIRECTORS_VERIFIED', 'BENEFICIAL_OWNERS_VERIFIED', 'SCREENING_PASSED', 'APPROVED', 'REJECTED', 'EXPIRED'];

// KybList is the review queue of business (KYB) applications, filtered and paged by the server.
export function KybList() {
  const queue = useQueue();
  const q = useQuery(KybService.method.listKybApplications, queue.request);
  const cols: Col<KybApplication>[] = [
    { id: 'company', header: 'Company', rowHeader: true, cell: (a) => <Link to={`/kyb/${a.id}`}>{a.companyName}</Link>, sort: (a) => a.companyName },
    { id: 'rc', header: 'RC number', cell: (a) => a.rcNumber || '—', sort: (a) => a.rcNumber ?? '' },
  ];
  return <ApplicationQueue kind="kyb" title="KYB review" statusLabel="Business application status" statuses={kybStatuses} tableLabel="KYB applications"
    empty="No business applications." queue={queue} q={q} cols={cols} />;
}

// KybPage is one business application: CAC, directors and beneficial owners with their
// verification and screening results, every check run, documents, and the decision.
export function KybPage({ id }: { id: string }) {
  const zone = useZone();
  const q = useQuery(KybService.method.getKybApplication, { id }, { retry: false });
  const done = () => void q.refetch();
  const approve = useMutation(KybService.method.approveKybApplication, { onSuccess: done });
  const reject = useMutation(KybService.method.rejectKybApplication, { onSuccess: done });
  const checkCols: Col<KybCheck>[] = [
    { id: 'check', header: 'Check', rowHeader: true, cell: (c) => label(c.checkType), sort: (c) => c.checkType },
    { id: 'subject', header: 'Subject', cell: (c) => c.subject || '—', sort: (c) => c.subject },
    { id: 'result', header: 'Result', cell: (c) => <StatusBadge value={c.passed ? 'PASSED' : 'FAILED'} />, sort: (c) => Number(c.passed) },
    { id: 'confidence', header: 'Confidence', cell: (c) => String(c.confidence), sort: (c) => c.confidence },
    { id: 'provider', header: 'Provider', cell: (c) => label(c.provider), sort: (c) => c.provider },
    { id: 'when', header: 'When', cell: (c) => dateTime(c.checkedAt, zone), sort: (c) => Number(c.checkedAt?.seconds ?? 0) },
  ];
  return (
    <ApplicationFile kind="kyb" q={q} refetch={done} approve={approve} reject={reject}
      title={(a) => <>KYB: {a.companyName}</>}
      facts={(a) => [
        ['Status', <span data-testid="kyb-status"><StatusBadge value={a.status} /></span>],
        ['RC number', <>{a.rcNumber || '—'} <Verified ok={a.cacVerified} yes="CAC verified" no="CAC not verified" /></>],
        ['Directors', <Verified ok={a.directorsVerified} yes="All verified" no="Not all verified" />],
        ['Beneficial owners', <Verified ok={a.beneficialOwnersClean} yes="Screened clean" no="Not screened clean" />],
        ['Risk level', a.riskLevel ? <StatusBadge value={a.riskLevel} /> : '—'],
      ]}>
      {(a) => <>
        <Title order={2} size="h3">Directors</Title>
        {a.directors.length === 0 ? <Text c="gray.7" size="sm">No directors.</Text> : (
          <ul aria-label="Directors">{a.directors.map((d, i) => <li key={i}>{d.name}{d.bvn ? `, BVN ${d.bvn}` : ''} <Verified ok={d.verified} /></li>)}</ul>
        )}
        <Title order={2} size="h3">Beneficial owners</Title>
        {a.beneficialOwners.length === 0 ? <Text c="gray.7" size="sm">No beneficial owners.</Text> : (
          <ul aria-label="Beneficial owners">{a.beneficialOwners.map((o, i) => (
            <li key={i}>{o.name} ({o.percentage}%) {o.clean === undefined ? <StatusBadge value="PENDING" label="Not screened" />
              : o.clean ? <StatusBadge value="PASSED" label="Clean" /> : <StatusBadge value="FAILED" label={plural(o.hits.length, 'hit')} />}</li>))}
          </ul>
        )}
        <Title order={2} size="h3">Checks</Title>
        <DataTable label="Checks" rows={a.checks} cols={checkCols} rowKey={(c) => c.id} empty="No checks run yet." />
        <Title order={2} size="h3">Documents</Title>
        {a.documents.length === 0 ? <Text c="gray.7" size="sm">No documents uploaded.</Text> : a.documents.map((d) => (
          <Paper key={d.id} withBorder p="sm"><KybDocumentPreview appId={a.id} d={d} /></Paper>
        ))}
      </>}
    </ApplicationFile>
  );
}

function KybDocumentPreview({ appId, d }: { appId: string; d: KycDocument }) {
  const link = useQuery(KybService.method.getKybDocumentDownload, { id: appId, docId: d.id });
  return <DocumentFigure caption={<>{label(d.documentType)}: {d.fileName} ({d.mimeType})</>} fileName={d.fileName} mimeType={d.mimeType} link={link} />;
}
