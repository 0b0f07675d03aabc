import { useState, type ReactNode } from 'react';
import { Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { EvidenceCase, EvidenceCheck, EvidenceOverride } from '../gen/complyd/v1/evidence_pb';
import { useSession } from '../auth/session';
import { useRouter } from '../ui/router';
import { Assignment, AssignedToFilter, useAssigneeName } from './Assignment';
import { ErrorText, Loading, Pager } from '../ui/parts';
import { dateTime, enumLabel as label } from '../ui/format';
import { useZone } from '../ui/zone';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { ApplicationDecision } from '../ui/ApplicationDecision';
import { ApplicationEvidence } from '../ui/ApplicationEvidence';
import { CustomerLinks } from '../ui/CustomerLinks';
import { Facts } from '../ui/Facts';

// What the KYC and the KYB screens share (internal/application is the core behind both): the
// review queue and the frame of one application (assignment, customer, evidence, decision). Each
// screen keeps its own columns, facts and sections; the rows and answers are the generated
// messages of its own service (KycApplication, KybApplication), which have these fields alike.

// Kind is the kind of application a screen shows: its routes (/kyc, /kyb) and assignment calls.
export type Kind = 'kyc' | 'kyb';

// officerRoles review documents and decide (the API refuses analysts and the auditor).
export const officerRoles = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'];

// QueueRow is what a row of either list has.
type QueueRow = { id: string; status: string; assignedTo?: string; createdAt?: Timestamp };

// Page is a list answer (ListApplicationsResponse, ListKybApplicationsResponse).
type Page<T> = { items: T[]; page: number; totalPages: number; total: number };

// Answer is a query's state as a screen reads it (connect-query's useQuery result).
type Answer<T> = { isPending: boolean; isError: boolean; error: unknown; data?: T };

// useQueue is a review queue's filter and page: the status and assignee start from the link's
// query (an Overview funnel bar opens a filtered list), a new filter goes back to page 1, and
// request is the list call's body.
export function useQueue() {
  const { search } = useRouter().loc;
  const [status, setStatus] = useState(search.get('status') ?? '');
  const [assignedTo, setAssignedTo] = useState(search.get('assignedTo') ?? '');
  const [page, setPage] = useState(1);
  return {
    status, assignedTo, setPage,
    setStatus: (v: string) => { setStatus(v); setPage(1); },
    setAssignedTo: (v: string) => { setAssignedTo(v); setPage(1); },
    request: { page, limit: 20, status: status || undefined, assignedTo: assignedTo || undefined },
  };
}

// ApplicationQueue is the review queue of one kind, filtered and paged by the server: the
// kind's own columns (cols, the first names the row and links to it), then status, assignee and
// creation time.
export function ApplicationQueue<T extends QueueRow>({ kind, title, statusLabel, statuses, tableLabel, empty, queue, q, cols }: {
  kind: Kind;
  title: string;
  statusLabel: string;
  statuses: string[];
  tableLabel: string;
  empty: string;
  queue: ReturnType<typeof useQueue>;
  q: Answer<Page<T>>;
  cols: Col<T>[];
}) {
  const { navigate } = useRouter();
  const zone = useZone();
  const who = useAssigneeName();
  const all: Col<T>[] = [...cols,
    { id: 'status', header: 'Status', cell: (a) => <StatusBadge value={a.status} />, sort: (a) => a.status },
    { id: 'assignee', header: 'Assigned to', cell: (a) => who(a.assignedTo), sort: (a) => who(a.assignedTo) },
    { id: 'created', header: 'Created', cell: (a) => <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>{dateTime(a.createdAt, zone)}</Text>, sort: (a) => Number(a.createdAt?.seconds ?? 0) },
  ];
  return (
    <section aria-labelledby={`${kind}-h`}>
      <Title order={1} id={`${kind}-h`} mb="sm">{title}</Title>
      <form onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap" mb="sm">
          <NativeSelect label={statusLabel} value={queue.status} onChange={(e) => queue.setStatus(e.currentTarget.value)}
            data={[{ value: '', label: 'Any' }, ...statuses.map((s) => ({ value: s, label: label(s) }))]} />
          <AssignedToFilter value={queue.assignedTo} onChange={queue.setAssignedTo} />
        </Group>
      </form>
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label={tableLabel} rows={q.data?.items} cols={all} rowKey={(a) => a.id} loading={q.isPending}
          empty={empty} onOpen={(a) => navigate(`/${kind}/${a.id}`)} />
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={queue.setPage} />}
    </section>
  );
}

// Reviewed is what an application detail of either kind has for its review.
type Reviewed = {
  id: string; status: string; assignedTo?: string; customerId?: string;
  openChecks: EvidenceCheck[]; openCases: EvidenceCase[]; overrides: EvidenceOverride[]; evidenceRequired: boolean;
};

// Call is a decision's call as the frame makes it (connect-query's useMutation result).
type Call<V> = { mutate: (v: V) => void; error: unknown };

// Review is what the kind's own sections know of the frame: whether the caller is an officer,
// whether the application is decided, and how to read it again after a change.
export type Review = { officer: boolean; terminal: boolean; done: () => void };

// ApplicationFile is one application of either kind: its title and facts, who reviews it, the
// customer its approval made, the evidence an approval rests on, the kind's own sections
// (children), and, to an officer while it is open, the decision.
export function ApplicationFile<A extends Reviewed>({ kind, q, refetch, approve, reject, title, facts, children }: {
  kind: Kind;
  q: Answer<A>;
  refetch: () => void;
  approve: Call<{ id: string; riskLevel?: string; notes?: string }>;
  reject: Call<{ id: string; reason: string; riskLevel?: string }>;
  title: (a: A) => ReactNode;
  facts: (a: A) => [string, ReactNode][];
  children: (a: A, r: Review) => ReactNode;
}) {
  const { me } = useSession();
  if (q.isPending) return <Loading />;
  if (q.isError || !q.data) return <section><Title order={1}>Application not found</Title><ErrorText error={q.error} /></section>;
  const a = q.data;
  const r: Review = { officer: officerRoles.includes(me.role), terminal: ['APPROVED', 'REJECTED', 'EXPIRED'].includes(a.status), done: refetch };
  return (
    <Stack component="section" aria-labelledby={`${kind}d-h`} gap="md">
      <Title order={1} id={`${kind}d-h`}>{title(a)}</Title>
      <Facts items={facts(a)} />
      <Assignment kind={kind} id={a.id} assignedTo={a.assignedTo} onDone={r.done} />
      {a.customerId && <CustomerLinks applicationId={a.id} />}
      <ApplicationEvidence checks={a.openChecks} cases={a.openCases} overrides={a.overrides} />
      {children(a, r)}
      {r.officer && !r.terminal && (
        <ApplicationDecision error={approve.error ?? reject.error} checks={a.openChecks} cases={a.openCases} evidenceRequired={a.evidenceRequired}
          onApprove={(riskLevel, reason) => approve.mutate({ id: a.id, riskLevel, notes: reason || undefined })}
          onReject={(riskLevel, reason) => reject.mutate({ id: a.id, reason, riskLevel })} />
      )}
    </Stack>
  );
}
