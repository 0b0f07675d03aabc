import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { DashboardService } from '../gen/complyd/v1/dashboard_pb';
import { Link } from '../ui/router';
import { Group, Select, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { ErrorText, Loading } from '../ui/parts';
import { count, dateTime, day as dayIn, enumLabel as label, money, plural, ruleLabel } from '../ui/format';
import { useZone } from '../ui/zone';
import { StatusBadge } from '../ui/StatusBadge';
import { Bars, Card, StackedColumns, type Column } from './charts';
import { Freshness } from './Freshness';

// Overview is the officer's first look at the period: screenings by outcome and risk over time,
// the rules that fired most, automatic cases opened and closed, the open cases by priority and
// age, the KYC and KYB funnels, sanctions hits and their reviews, webhook delivery and the
// wallet. Every figure links to the list behind it (docs/guide/dashboard.md "Overview").
const periods = [
  { key: '24h', label: 'Last 24 hours (by hour)', hours: 24, granularity: 'HOUR' },
  { key: '7d', label: 'Last 7 days', hours: 7 * 24, granularity: 'DAY' },
  { key: '30d', label: 'Last 30 days', hours: 30 * 24, granularity: 'DAY' },
  { key: '90d', label: 'Last 90 days', hours: 90 * 24, granularity: 'DAY' },
];

const day = (t?: Timestamp) => (t ? timestampDate(t).toISOString().slice(0, 10) : '');
// The transactions list filters whole UTC days (From date, To date): a bucket links to its day.
const txList = (from: string, to: string, outcome?: string, extra: Record<string, string> = {}) =>
  `/transactions?${new URLSearchParams({ ...(outcome ? { outcome } : {}), from, to, ...extra })}`;

// ageLabel spells the API's age buckets of open cases for people.
const ageLabel: Record<string, string> = { '0-1d': 'Under 1 day', '1-7d': '1 to 7 days', '7-30d': '7 to 30 days', '30d+': 'Over 30 days' };

export function Overview() {
  const [periodKey, setPeriodKey] = useState('7d');
  const period = periods.find((p) => p.key === periodKey)!;
  const [now] = useState(() => new Date());
  const req = { from: timestampFromDate(new Date(now.getTime() - period.hours * 3600_000)), to: timestampFromDate(now) };
  const series = { ...req, granularity: period.granularity };
  const screenings = useQuery(DashboardService.method.getScreeningStats, series);
  const rules = useQuery(DashboardService.method.getTopRules, { ...req, limit: 10 });
  const cases = useQuery(DashboardService.method.getCaseStats, series);
  const funnel = useQuery(DashboardService.method.getApplicationFunnel, req);
  const sanctions = useQuery(DashboardService.method.getSanctionsStats, series);
  const hooks = useQuery(DashboardService.method.getWebhookStats, req);
  const wallet = useQuery(DashboardService.method.getWalletStats, series);
  const zone = useZone();
  // A bucket's label: its hour or its day in the tenant's zone.
  const when = (t?: Timestamp) => (period.granularity === 'HOUR' ? dateTime(t, zone) : dayIn(t, zone));
  const fromDay = day(screenings.data?.from), toDay = day(screenings.data ? timestampFromDate(new Date(timestampDate(screenings.data.to!).getTime() - 1)) : undefined);

  const unit = period.granularity === 'HOUR' ? 'hour' : 'day';
  return (
    <section aria-labelledby="ov-h">
      <Group justify="space-between" align="end" wrap="wrap" mb="sm">
        <Title order={1} id="ov-h">Overview</Title>
        <Select label="Period" w={260} maw="100%" data={periods.map((p) => ({ value: p.key, label: p.label }))} value={periodKey}
          onChange={(v) => v && setPeriodKey(v)} allowDeselect={false} />
      </Group>
      <Freshness />

      <Card title="Screenings">
        {screenings.isPending ? <Loading /> : screenings.isError ? <ErrorText error={screenings.error} /> : (
          <>
            <Text size="lg"><Link to={txList(fromDay, toDay)} aria-label={`${plural(screenings.data.total, 'screening')} in the period`}>
              <strong data-testid="screenings-total">{count(screenings.data.total)}</strong> {Number(screenings.data.total) === 1 ? 'screening' : 'screenings'}</Link></Text>
            <StackedColumns title="Screenings over time by outcome" columns={screenings.data.buckets.map((b): Column => {
              const d = day(b.start);
              return { label: when(b.start), segments: b.byOutcome.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count), to: txList(d, d, c.key),
                name: `${label(c.key)}: ${plural(c.count, 'screening')} in the ${unit} of ${when(b.start)}` })) };
            })} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Bars title="By outcome" bars={screenings.data.byOutcome.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count),
                to: txList(fromDay, toDay, c.key), name: `${label(c.key)}: ${plural(c.count, 'screening')}` }))} />
              <Bars title="By risk level" bars={screenings.data.byRiskLevel.map((c) => ({ key: c.key, label: `${label(c.key)} risk`, value: Number(c.count),
                to: txList(fromDay, toDay, undefined, { riskLevel: c.key }), name: `${label(c.key)} risk: ${plural(c.count, 'screening')}` }))} />
            </SimpleGrid>
          </>
        )}
      </Card>

      <Card title="Top triggered rules">
        {rules.isPending ? <Loading /> : rules.isError ? <ErrorText error={rules.error} /> : (
          <Bars title="Rules by screenings that triggered them" bars={rules.data.items.map((r) => ({ key: r.ruleId,
            label: ruleLabel(r.ruleId, r.ruleName), value: Number(r.hits),
            to: txList(fromDay, toDay, undefined, { ruleId: r.ruleId }), name: `${ruleLabel(r.ruleId, r.ruleName)}: ${plural(r.hits, 'hit')}` }))} />
        )}
      </Card>

      <Card title="Cases">
        {cases.isPending ? <Loading /> : cases.isError ? <ErrorText error={cases.error} /> : (
          <>
            <Text><span data-testid="cases-opened">{cases.data.opened}</span> automatic {Number(cases.data.opened) === 1 ? 'case' : 'cases'} opened, <span data-testid="cases-closed">{cases.data.closed}</span> closed in the period; <Link to="/?scope=all&status=OPEN"><strong>{count(cases.data.openTotal)}</strong> open now</Link></Text>
            <StackedColumns title="Automatic cases opened and closed over time" columns={cases.data.buckets.map((b) => ({ label: when(b.start), segments: [
              { key: 'opened', label: 'Opened', value: Number(b.opened), to: '/?scope=all&sort=NEWEST&status=', name: `${count(b.opened)} opened on ${when(b.start)}` },
              { key: 'closed', label: 'Closed', value: Number(b.closed), to: '/?scope=all&sort=NEWEST&status=CLOSED', name: `${count(b.closed)} closed on ${when(b.start)}` }] }))} />
            <div style={{ overflowX: 'auto' }}>
              <Table aria-label="Open cases by priority and age" withTableBorder fz="sm">
                <Table.Thead><Table.Tr><Table.Th scope="col">Priority</Table.Th>{cases.data.openByPriority[0]?.byAge.map((a) => <Table.Th scope="col" key={a.key}>{ageLabel[a.key] ?? a.key}</Table.Th>)}<Table.Th scope="col">Total</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>{cases.data.openByPriority.map((o) => (
                  <Table.Tr key={o.priority}><Table.Th scope="row"><Link to={`/?scope=all&status=OPEN&priority=${o.priority}`}>{label(o.priority)}</Link></Table.Th>
                    {o.byAge.map((a) => <Table.Td key={a.key}>{count(a.count)}</Table.Td>)}<Table.Td>{count(o.total)}</Table.Td></Table.Tr>))}</Table.Tbody>
              </Table>
            </div>
            <Title order={3} size="h5" mt="sm">Oldest open cases</Title>
            {cases.data.oldest.length === 0 ? <Text size="sm" c="gray.7" className="empty">No open case.</Text> : (
              <ol>{cases.data.oldest.map((c) => <li key={c.id}><Link to={`/cases/${c.id}`}>{c.caseNumber}</Link> <StatusBadge value={c.priority} /> {label(c.type)}, opened {dateTime(c.createdAt, zone)}</li>)}</ol>
            )}
          </>
        )}
      </Card>

      <Card title="KYC and KYB applications">
        {funnel.isPending ? <Loading /> : funnel.isError ? <ErrorText error={funnel.error} /> : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Bars title={`KYC funnel (${count(funnel.data.kycTotal)})`} bars={funnel.data.kyc.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count),
              to: `/kyc?status=${c.key}`, name: `KYC ${label(c.key)}: ${count(c.count)}` }))} />
            <Bars title={`KYB funnel (${count(funnel.data.kybTotal)})`} bars={funnel.data.kyb.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count),
              to: `/kyb?status=${c.key}`, name: `KYB ${label(c.key)}: ${count(c.count)}` }))} />
          </SimpleGrid>
        )}
      </Card>

      <Card title="Sanctions hits">
        {sanctions.isPending ? <Loading /> : sanctions.isError ? <ErrorText error={sanctions.error} /> : (
          <Bars title={`Sanctions hits and their review (${count(sanctions.data.hits)})`} bars={sanctions.data.byReview.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count),
            to: `/?scope=all&type=SANCTIONS_HIT&status=${{ PENDING: 'OPEN', TRUE_POSITIVE: 'RESOLVED_TRUE_POSITIVE', FALSE_POSITIVE: 'RESOLVED_FALSE_POSITIVE', CLOSED: 'CLOSED' }[c.key] ?? ''}`,
            name: `Sanctions hits ${label(c.key)}: ${count(c.count)}` }))} />
        )}
      </Card>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card title="Webhook delivery">
          {hooks.isPending ? <Loading /> : hooks.isError ? <ErrorText error={hooks.error} /> : (
            <>
              <Text><strong data-testid="webhook-rate">{hooks.data.total === 0n ? '—' : `${(hooks.data.successRate * 100).toFixed(1)}%`}</strong> delivered of {plural(hooks.data.total, 'delivery', 'deliveries')}</Text>
              <Bars title="Deliveries by status" bars={hooks.data.byStatus.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count), name: `${label(c.key)}: ${plural(c.count, 'delivery', 'deliveries')}` }))} />
            </>
          )}
        </Card>
        <Card title="Wallet">
          {wallet.isPending ? <Loading /> : wallet.isError ? <ErrorText error={wallet.error} /> : (
            <>
              <Text>Balance <strong data-testid="wallet-balance">{money(wallet.data.balance, wallet.data.currency)}</strong>; spent {money(wallet.data.spend, wallet.data.currency)} on {plural(wallet.data.charges, 'paid call')} in the period</Text>
              <StackedColumns title="Wallet spend over time" unit=" NGN" columns={wallet.data.buckets.map((b) => ({ label: when(b.start), segments: [
                { key: 'spend', label: 'Spend', value: Number(b.spend), to: '/overview', name: `${money(b.spend)} spent on ${when(b.start)} (${plural(b.charges, 'call')})` }] }))} />
            </>
          )}
        </Card>
      </SimpleGrid>
    </section>
  );
}
