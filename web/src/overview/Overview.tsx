import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { DashboardService } from '../gen/complyd/v1/dashboard_pb';
import { Link } from '../ui/router';
import { ErrorText, Field, Loading, when } from '../ui/parts';
import { label } from '../cases/states';
import { Bars, Card, StackedColumns, type Column } from './charts';
import { Freshness } from './Freshness';

// Overview is the officer's first look at the period: screenings by outcome and risk over time,
// the rules that fired most, automatic cases opened and closed, the open cases by priority and
// age, the KYC and KYB funnels, sanctions hits and their reviews, webhook delivery and the
// wallet. Every figure links to the list behind it (docs/dashboard.md "Overview").
const periods = [
  { key: '24h', label: 'Last 24 hours (by hour)', hours: 24, granularity: 'HOUR' },
  { key: '7d', label: 'Last 7 days', hours: 7 * 24, granularity: 'DAY' },
  { key: '30d', label: 'Last 30 days', hours: 30 * 24, granularity: 'DAY' },
  { key: '90d', label: 'Last 90 days', hours: 90 * 24, granularity: 'DAY' },
];

const day = (t?: Timestamp) => (t ? timestampDate(t).toISOString().slice(0, 10) : '');
// The transactions list filters whole UTC days (From date, To date): a bucket links to its day.
const txList = (from: string, to: string, outcome?: string) =>
  `/transactions?${new URLSearchParams({ ...(outcome ? { outcome } : {}), from, to })}`;

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
  const fromDay = day(screenings.data?.from), toDay = day(screenings.data ? timestampFromDate(new Date(timestampDate(screenings.data.to!).getTime() - 1)) : undefined);

  return (
    <section aria-labelledby="ov-h" className="overview">
      <h1 id="ov-h">Overview</h1>
      <Freshness />
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Period"><select value={periodKey} onChange={(e) => setPeriodKey(e.target.value)}>
          {periods.map((p) => <option key={p.key} value={p.key}>{p.label}</option>)}</select></Field>
      </form>

      <Card title="Screenings">
        {screenings.isPending ? <Loading /> : screenings.isError ? <ErrorText error={screenings.error} /> : (
          <>
            <p className="figure"><Link to={txList(fromDay, toDay)} aria-label={`${screenings.data.total} screenings in the period`}>
              <strong data-testid="screenings-total">{screenings.data.total.toString()}</strong> screenings</Link></p>
            <StackedColumns title="Screenings over time by outcome" columns={screenings.data.buckets.map((b): Column => {
              const d = day(b.start);
              return { label: when(b.start), segments: b.byOutcome.map((c) => ({ key: c.key, value: Number(c.count), to: txList(d, d, c.key),
                name: `${label(c.key)}: ${c.count} screenings in the ${period.granularity === 'HOUR' ? 'hour' : 'day'} of ${when(b.start)}` })) };
            })} />
            <div className="row">
              <Bars title="By outcome" bars={screenings.data.byOutcome.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count),
                to: txList(fromDay, toDay, c.key), name: `${label(c.key)}: ${c.count} screenings` }))} />
              <Bars title="By risk level" bars={screenings.data.byRiskLevel.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count),
                to: txList(fromDay, toDay), name: `${label(c.key)} risk: ${c.count} screenings` }))} />
            </div>
          </>
        )}
      </Card>

      <Card title="Top triggered rules">
        {rules.isPending ? <Loading /> : rules.isError ? <ErrorText error={rules.error} /> : rules.data.items.length === 0 ? <p className="empty">No rule triggered in the period.</p> : (
          <Bars title="Rules by screenings that triggered them" bars={rules.data.items.map((r) => ({ key: r.ruleId, label: `${r.ruleId} ${r.ruleName}`, value: Number(r.hits),
            to: txList(fromDay, toDay), name: `${r.ruleId} ${r.ruleName}: ${r.hits} hits` }))} />
        )}
      </Card>

      <Card title="Cases">
        {cases.isPending ? <Loading /> : cases.isError ? <ErrorText error={cases.error} /> : (
          <>
            <p className="figure"><span data-testid="cases-opened">{cases.data.opened}</span> automatic cases opened, <span data-testid="cases-closed">{cases.data.closed}</span> closed in the period; <Link to="/?scope=all&status=OPEN" aria-label={`${cases.data.openTotal} open cases`}><strong>{cases.data.openTotal}</strong> open now</Link></p>
            <StackedColumns title="Automatic cases opened and closed over time" columns={cases.data.buckets.map((b) => ({ label: when(b.start), segments: [
              { key: 'opened', value: Number(b.opened), to: '/?scope=all&sort=NEWEST&status=', name: `${b.opened} opened on ${when(b.start)}` },
              { key: 'closed', value: Number(b.closed), to: '/?scope=all&sort=NEWEST&status=CLOSED', name: `${b.closed} closed on ${when(b.start)}` }] }))} />
            <table aria-label="Open cases by priority and age">
              <thead><tr><th>Priority</th>{cases.data.openByPriority[0]?.byAge.map((a) => <th key={a.key}>{a.key}</th>)}<th>Total</th></tr></thead>
              <tbody>{cases.data.openByPriority.map((o) => (
                <tr key={o.priority}><th scope="row"><Link to={`/?scope=all&status=OPEN&priority=${o.priority}`}>{label(o.priority)}</Link></th>
                  {o.byAge.map((a) => <td key={a.key}>{a.count}</td>)}<td>{o.total}</td></tr>))}</tbody>
            </table>
            <h3>Oldest open cases</h3>
            {cases.data.oldest.length === 0 ? <p className="empty">No open case.</p> : (
              <ol>{cases.data.oldest.map((c) => <li key={c.id}><Link to={`/cases/${c.id}`}>{c.caseNumber}</Link> {label(c.priority)}, {label(c.type)}, opened {when(c.createdAt)}</li>)}</ol>
            )}
          </>
        )}
      </Card>

      <Card title="KYC and KYB applications">
        {funnel.isPending ? <Loading /> : funnel.isError ? <ErrorText error={funnel.error} /> : (
          <div className="row">
            <Bars title={`KYC funnel (${funnel.data.kycTotal})`} bars={funnel.data.kyc.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count),
              to: `/kyc?status=${c.key}`, name: `KYC ${label(c.key)}: ${c.count}` }))} />
            <Bars title={`KYB funnel (${funnel.data.kybTotal})`} bars={funnel.data.kyb.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count),
              to: `/kyb?status=${c.key}`, name: `KYB ${label(c.key)}: ${c.count}` }))} />
          </div>
        )}
      </Card>

      <Card title="Sanctions hits">
        {sanctions.isPending ? <Loading /> : sanctions.isError ? <ErrorText error={sanctions.error} /> : (
          <Bars title={`Sanctions hits and their review (${sanctions.data.hits})`} bars={sanctions.data.byReview.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count),
            to: `/?scope=all&type=SANCTIONS_HIT&status=${{ PENDING: 'OPEN', TRUE_POSITIVE: 'RESOLVED_TRUE_POSITIVE', FALSE_POSITIVE: 'RESOLVED_FALSE_POSITIVE', CLOSED: 'CLOSED' }[c.key] ?? ''}`,
            name: `Sanctions hits ${label(c.key)}: ${c.count}` }))} />
        )}
      </Card>

      <div className="row">
        <Card title="Webhook delivery">
          {hooks.isPending ? <Loading /> : hooks.isError ? <ErrorText error={hooks.error} /> : (
            <>
              <p className="figure"><strong data-testid="webhook-rate">{hooks.data.total === 0n ? '—' : `${(hooks.data.successRate * 100).toFixed(1)}%`}</strong> delivered of {hooks.data.total} deliveries</p>
              <Bars title="Deliveries by status" bars={hooks.data.byStatus.map((c) => ({ key: c.key, label: label(c.key), value: Number(c.count), name: `${label(c.key)}: ${c.count} deliveries` }))} />
            </>
          )}
        </Card>
        <Card title="Wallet">
          {wallet.isPending ? <Loading /> : wallet.isError ? <ErrorText error={wallet.error} /> : (
            <>
              <p className="figure">Balance <strong data-testid="wallet-balance">{wallet.data.balance} {wallet.data.currency}</strong>; spent {wallet.data.spend} on {wallet.data.charges} paid calls in the period</p>
              <StackedColumns title="Wallet spend over time" columns={wallet.data.buckets.map((b) => ({ label: when(b.start), segments: [
                { key: 'spend', value: Number(b.spend), to: '/overview', name: `${b.spend} NGN spent on ${when(b.start)} (${b.charges} calls)` }] }))} />
            </>
          )}
        </Card>
      </div>
    </section>
  );
}
