import { useState } from 'react';
import { useMutation, useQuery } from '@connectrpc/connect-query';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { CustomerService, type CustomerAccount, type CustomerApplication, type CustomerCase, type CustomerReport, type RiskFactor, type SanctionsReview } from '../gen/complyd/v1/customer_pb';
import { useSession } from '../auth/session';
import { Link } from '../ui/router';
import { ErrorText, Loading } from '../ui/parts';
import { count, dateTime, enumLabel as label, prose } from '../ui/format';
import { useZone } from '../ui/zone';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { Facts } from '../ui/Facts';
import { Network } from './Network';

const officers = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'];
const secs = (t?: { seconds: bigint }) => Number(t?.seconds ?? 0);

// CustomerPage is the customer profile: identity, risk rating with its factors and history,
// the periodic review, what is linked to the customer, and its network.
export function CustomerPage({ id }: { id: string }) {
  const { me } = useSession();
  const zone = useZone();
  const q = useQuery(CustomerService.method.getCustomerOverview, { id }, { retry: false });
  const hist = useQuery(CustomerService.method.listCustomerRiskHistory, { id }, { retry: false });
  const refresh = () => { void q.refetch(); void hist.refetch(); };
  const recompute = useMutation(CustomerService.method.recomputeCustomerRisk, { onSuccess: refresh });
  const [note, setNote] = useState('');
  // The note clears once the review is recorded; a refused one keeps it.
  const review = useMutation(CustomerService.method.completeCustomerReview, { onSuccess: () => { setNote(''); refresh(); } });
  if (q.isPending) return <Loading />;
  if (q.isError) return <section><Title order={1}>Customer not found</Title><ErrorText error={q.error} /></section>;
  const { customer: c, risk } = q.data;
  // Recomputing and reviewing are officers' (the API refuses analysts and the auditor).
  const canAct = officers.includes(me.role);
  type Hist = NonNullable<typeof hist.data>['items'][number];
  const factorCols: Col<RiskFactor>[] = [
    { id: 'factor', header: 'Factor', rowHeader: true, cell: (f) => label(f.name), sort: (f) => f.name },
    { id: 'points', header: 'Points', cell: (f) => count(f.points), sort: (f) => f.points },
    { id: 'detail', header: 'Detail', cell: (f) => prose(f.detail) },
  ];
  const histCols: Col<Hist>[] = [
    { id: 'when', header: 'When', rowHeader: true, cell: (h) => dateTime(h.createdAt, zone), sort: (h) => secs(h.createdAt) },
    { id: 'rating', header: 'Rating', cell: (h) => <StatusBadge value={h.rating} />, sort: (h) => h.rating },
    { id: 'previous', header: 'Previous', cell: (h) => (h.previousRating ? <StatusBadge value={h.previousRating} /> : '—') },
    { id: 'score', header: 'Score', cell: (h) => count(h.score), sort: (h) => h.score },
    { id: 'reason', header: 'Reason', cell: (h) => label(h.reason), sort: (h) => h.reason },
  ];
  const appCols: Col<CustomerApplication>[] = [
    { id: 'app', header: 'Application', rowHeader: true, cell: (a) => <Link to={`/${a.kind.toLowerCase()}/${a.id}`}>{a.kind} application, {label(a.tier)}</Link>, sort: (a) => a.kind },
    { id: 'status', header: 'Status', cell: (a) => <StatusBadge value={a.status} />, sort: (a) => a.status },
    { id: 'risk', header: 'Risk level', cell: (a) => (a.riskLevel ? <StatusBadge value={a.riskLevel} /> : '—'), sort: (a) => a.riskLevel },
    { id: 'created', header: 'Created', cell: (a) => dateTime(a.createdAt, zone), sort: (a) => secs(a.createdAt) },
  ];
  const accountCols: Col<CustomerAccount>[] = [
    { id: 'account', header: 'Account', rowHeader: true, cell: (a) => a.account, sort: (a) => a.account },
    { id: 'tx', header: 'Transactions', cell: (a) => count(a.transactions), sort: (a) => a.transactions },
    { id: 'alerts', header: 'Alerts', cell: (a) => count(a.alerts), sort: (a) => a.alerts },
    { id: 'first', header: 'First', cell: (a) => dateTime(a.firstAt, zone), sort: (a) => secs(a.firstAt) },
    { id: 'last', header: 'Last', cell: (a) => dateTime(a.lastAt, zone), sort: (a) => secs(a.lastAt) },
  ];
  const caseCols: Col<CustomerCase>[] = [
    { id: 'case', header: 'Case', rowHeader: true, cell: (k) => <Link to={`/cases/${k.id}`}>{k.caseNumber}</Link>, sort: (k) => k.caseNumber },
    { id: 'title', header: 'Title', cell: (k) => k.title },
    { id: 'priority', header: 'Priority', cell: (k) => <StatusBadge value={k.priority} />, sort: (k) => k.priority },
    { id: 'status', header: 'Status', cell: (k) => <StatusBadge value={k.status} />, sort: (k) => k.status },
    { id: 'created', header: 'Opened', cell: (k) => dateTime(k.createdAt, zone), sort: (k) => secs(k.createdAt) },
  ];
  const reportCols: Col<CustomerReport>[] = [
    { id: 'report', header: 'Report', rowHeader: true, cell: (r) => <Link to={`/reports/${r.id}`}>{r.type} of {r.day}</Link>, sort: (r) => r.day },
    { id: 'status', header: 'Status', cell: (r) => <StatusBadge value={r.status} />, sort: (r) => r.status },
    { id: 'account', header: 'Account', cell: (r) => r.account || '—' },
  ];
  const reviewCols: Col<SanctionsReview>[] = [
    { id: 'entry', header: 'List entry', rowHeader: true, cell: (r) => r.entryId, sort: (r) => r.entryId },
    { id: 'subject', header: 'For', cell: (r) => r.subjectKey },
    { id: 'reason', header: 'Reason', cell: (r) => r.reason },
    { id: 'state', header: 'State', cell: (r) => <StatusBadge value={r.active ? 'ACTIVE' : 'REVOKED'} />, sort: (r) => Number(r.active) },
    { id: 'when', header: 'Recorded', cell: (r) => dateTime(r.createdAt, zone), sort: (r) => secs(r.createdAt) },
  ];
  return (
    <Stack component="section" aria-labelledby="cp-h" gap="md">
      <Title order={1} id="cp-h">{c?.name}</Title>
      <Facts items={[
        ['Type', label(c?.type)],
        ['BVN', c?.bvn || '—'],
        ['NIN', c?.nin || '—'],
        ['RC number', c?.rcNumber || '—'],
        ['Risk rating', <span data-testid="risk-rating">{risk ? <StatusBadge value={risk.rating} /> : 'Not rated yet'}</span>],
        ['Risk score', <span data-testid="risk-score">{risk ? `${risk.score} / 100` : '—'}</span>],
        ['Next review', dateTime(risk?.nextReviewAt, zone)],
        ['Last review', dateTime(risk?.lastReviewedAt, zone)],
      ]} />
      {canAct && (
        <form aria-label="Review" onSubmit={(e) => { e.preventDefault(); review.mutate({ id, note }); }}>
          <Group gap="sm" align="end" wrap="wrap">
            <Button variant="light" loading={recompute.isPending} onClick={() => recompute.mutate({ id })}>Recompute rating</Button>
            <TextInput label="Review note" value={note} onChange={(e) => setNote(e.currentTarget.value)} w={320} maw="100%" />
            <Button type="submit" disabled={review.isPending || !note.trim()}>Record review</Button>
          </Group>
        </form>
      )}
      <ErrorText error={recompute.error ?? review.error} />
      <Title order={2} size="h3">Risk factors</Title>
      <DataTable label="Risk factors" rows={risk?.factors ?? []} cols={factorCols} rowKey={(f) => f.name} empty="No factor adds risk." />
      <Title order={2} size="h3">Risk history</Title>
      {hist.isError ? <ErrorText error={hist.error} /> : (
        <DataTable label="Risk history" rows={hist.data?.items} loading={hist.isPending} cols={histCols} rowKey={(h) => h.id} empty="Not rated yet." />
      )}
      <Title order={2} size="h3">Applications</Title>
      <DataTable label="Applications" rows={q.data.applications} cols={appCols} rowKey={(a) => a.id} empty="No KYC or KYB application." />
      <Title order={2} size="h3">Accounts seen in screening</Title>
      <DataTable label="Accounts" rows={q.data.accounts} cols={accountCols} rowKey={(a) => a.account} empty="No screened transaction carries this customer's BVN." />
      {q.data.accountsTruncated && <Text size="sm">Only the most active accounts are listed.</Text>}
      <Title order={2} size="h3">Cases</Title>
      <DataTable label="Cases" rows={q.data.cases} cols={caseCols} rowKey={(k) => k.id} empty="No case." />
      {q.data.casesTruncated && <Text size="sm">Only the newest cases are listed.</Text>}
      <Title order={2} size="h3">Reports</Title>
      <DataTable label="Reports" rows={q.data.reports} cols={reportCols} rowKey={(r) => r.id} empty="No regulatory report." />
      {q.data.reportsTruncated && <Text size="sm">More than 100 reports: the newest are listed.</Text>}
      <Title order={2} size="h3">Sanctions reviews</Title>
      <DataTable label="Sanctions reviews" rows={q.data.sanctionsReviews} cols={reviewCols} rowKey={(r) => r.id} empty="No reviewed sanctions match." />
      <Network customerId={id} />
    </Stack>
  );
}
