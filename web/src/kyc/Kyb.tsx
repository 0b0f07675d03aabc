import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { KybService, type KybApplication, type KybCheck } from '../gen/complyd/v1/kyb_pb';
import type { KycDocument } from '../gen/complyd/v1/kyc_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { Assignment, AssignedToFilter, useAssigneeName } from './Assignment';
import { ErrorText, Loading, Pager } from '../ui/parts';
import { dateTime, enumLabel as label, plural } from '../ui/format';
import { useZone } from '../ui/zone';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { ApplicationDecision } from '../ui/ApplicationDecision';
import { ApplicationEvidence } from '../ui/ApplicationEvidence';
import { CustomerLinks } from '../ui/CustomerLinks';
import { DocumentFigure } from '../ui/DocumentFigure';
import { Facts, Verified } from '../ui/Facts';
import { officerRoles } from './Kyc';

const kybStatuses = ['PENDING', 'DOCUMENT_UPLOADED', 'CAC_VERIFIED', 'DIRECTORS_VERIFIED', 'BENEFICIAL_OWNERS_VERIFIED', 'SCREENING_PASSED', 'APPROVED', 'REJECTED', 'EXPIRED'];

// KybList is the review queue of business (KYB) applications, filtered and paged by the server.
export function KybList() {
  const { search } = useRouter().loc; // a link (an Overview funnel bar) opens a filtered list
  const { navigate } = useRouter();
  const zone = useZone();
  const [status, setStatus] = useState(search.get('status') ?? '');
  const [assignedTo, setAssignedTo] = useState(search.get('assignedTo') ?? '');
  const [page, setPage] = useState(1);
  const who = useAssigneeName();
  const q = useQuery(KybService.method.listKybApplications, { page, limit: 20, status: status || undefined, assignedTo: assignedTo || undefined });
  const cols: Col<KybApplication>[] = [
    { id: 'company', header: 'Company', rowHeader: true, cell: (a) => <Link to={`/kyb/${a.id}`}>{a.companyName}</Link>, sort: (a) => a.companyName },
    { id: 'rc', header: 'RC number', cell: (a) => a.rcNumber || '—', sort: (a) => a.rcNumber ?? '' },
    { id: 'status', header: 'Status', cell: (a) => <StatusBadge value={a.status} />, sort: (a) => a.status },
    { id: 'assignee', header: 'Assigned to', cell: (a) => who(a.assignedTo), sort: (a) => who(a.assignedTo) },
    { id: 'created', header: 'Created', cell: (a) => <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>{dateTime(a.createdAt, zone)}</Text>, sort: (a) => Number(a.createdAt?.seconds ?? 0) },
  ];
  return (
    <section aria-labelledby="kyb-h">
      <Title order={1} id="kyb-h" mb="sm">KYB review</Title>
      <form onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap" mb="sm">
          <NativeSelect label="Business application status" value={status} onChange={(e) => { setStatus(e.currentTarget.value); setPage(1); }}
            data={[{ value: '', label: 'Any' }, ...kybStatuses.map((s) => ({ value: s, label: label(s) }))]} />
          <AssignedToFilter value={assignedTo} onChange={(v) => { setAssignedTo(v); setPage(1); }} />
        </Group>
      </form>
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="KYB applications" rows={q.data?.items} cols={cols} rowKey={(a) => a.id} loading={q.isPending}
          empty="No business applications." onOpen={(a) => navigate(`/kyb/${a.id}`)} />
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

// KybPage is one business application: CAC, directors and beneficial owners with their
// verification and screening results, every check run, documents, and the decision.
export function KybPage({ id }: { id: string }) {
  const { me } = useSession();
  const zone = useZone();
  // Approving and rejecting are officers' (the API refuses analysts and the auditor).
  const officer = officerRoles.includes(me.role);
  const q = useQuery(KybService.method.getKybApplication, { id }, { retry: false });
  const done = () => void q.refetch();
  const approve = useMutation(KybService.method.approveKybApplication, { onSuccess: done });
  const reject = useMutation(KybService.method.rejectKybApplication, { onSuccess: done });
  if (q.isPending) return <Loading />;
  if (q.isError) return <section><Title order={1}>Application not found</Title><ErrorText error={q.error} /></section>;
  const a = q.data;
  const terminal = ['APPROVED', 'REJECTED', 'EXPIRED'].includes(a.status);
  const checkCols: Col<KybCheck>[] = [
    { id: 'check', header: 'Check', rowHeader: true, cell: (c) => label(c.checkType), sort: (c) => c.checkType },
    { id: 'subject', header: 'Subject', cell: (c) => c.subject || '—', sort: (c) => c.subject },
    { id: 'result', header: 'Result', cell: (c) => <StatusBadge value={c.passed ? 'PASSED' : 'FAILED'} />, sort: (c) => Number(c.passed) },
    { id: 'confidence', header: 'Confidence', cell: (c) => String(c.confidence), sort: (c) => c.confidence },
    { id: 'provider', header: 'Provider', cell: (c) => label(c.provider), sort: (c) => c.provider },
    { id: 'when', header: 'When', cell: (c) => dateTime(c.checkedAt, zone), sort: (c) => Number(c.checkedAt?.seconds ?? 0) },
  ];
  return (
    <Stack component="section" aria-labelledby="kybd-h" gap="md">
      <Title order={1} id="kybd-h">KYB: {a.companyName}</Title>
      <Facts items={[
        ['Status', <span data-testid="kyb-status"><StatusBadge value={a.status} /></span>],
        ['RC number', <>{a.rcNumber || '—'} <Verified ok={a.cacVerified} yes="CAC verified" no="CAC not verified" /></>],
        ['Directors', <Verified ok={a.directorsVerified} yes="All verified" no="Not all verified" />],
        ['Beneficial owners', <Verified ok={a.beneficialOwnersClean} yes="Screened clean" no="Not screened clean" />],
        ['Risk level', a.riskLevel ? <StatusBadge value={a.riskLevel} /> : '—'],
      ]} />
      <Assignment kind="kyb" id={a.id} assignedTo={a.assignedTo} onDone={done} />
      {a.customerId && <CustomerLinks applicationId={a.id} />}
      <ApplicationEvidence checks={a.openChecks} cases={a.openCases} overrides={a.overrides} />
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
      {officer && !terminal && (
        <ApplicationDecision error={approve.error ?? reject.error} checks={a.openChecks} cases={a.openCases} evidenceRequired={a.evidenceRequired}
          onApprove={(riskLevel, reason) => approve.mutate({ id: a.id, riskLevel, notes: reason || undefined })}
          onReject={(riskLevel, reason) => reject.mutate({ id: a.id, reason, riskLevel })} />
      )}
    </Stack>
  );
}

function KybDocumentPreview({ appId, d }: { appId: string; d: KycDocument }) {
  const link = useQuery(KybService.method.getKybDocumentDownload, { id: appId, docId: d.id });
  return <DocumentFigure caption={<>{label(d.documentType)}: {d.fileName} ({d.mimeType})</>} fileName={d.fileName} mimeType={d.mimeType} link={link} />;
}
