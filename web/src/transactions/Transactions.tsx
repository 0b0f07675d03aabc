import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ReactNode } from 'react';
import { Anchor, Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { TransactionService, type TransactionListItem } from '../gen/complyd/v1/screening_pb';
import { Link, useRouter } from '../ui/router';
import { ErrorText, Loading, Pager } from '../ui/parts';
import { count, dateTime, enumLabel, money, prose, ruleLabel } from '../ui/format';
import { Facts } from '../ui/Facts';
import { useZone } from '../ui/zone';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { PaymentMessage } from './PaymentMessage';
import { CustomerLinks } from '../ui/CustomerLinks';

const outcomes = ['APPROVE', 'REVIEW', 'ESCALATE', 'BLOCK'];
const risks = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
const txTypes = ['CASH_DEPOSIT', 'CASH_WITHDRAWAL', 'TRANSFER', 'INTERNATIONAL_TRANSFER', 'POS', 'ATM', 'MOBILE', 'USSD', 'INTERNET_BANKING'];
const options = (vs: string[]) => [{ value: '', label: 'Any' }, ...vs.map((v) => ({ value: v, label: enumLabel(v) }))];

// Transactions searches screened transactions with the server's filters and paging (outcome,
// risk level, rule, type, date range, account, amount range).
export function Transactions() {
  // The filters start from the query string, so a link (an Overview chart) opens a filtered list.
  const { search } = useRouter().loc;
  const { navigate } = useRouter();
  const zone = useZone();
  const [outcome, setOutcome] = useState(search.get('outcome') ?? '');
  const [riskLevel, setRiskLevel] = useState(search.get('riskLevel') ?? '');
  const [ruleId, setRuleId] = useState(search.get('ruleId') ?? '');
  const [type, setType] = useState(search.get('type') ?? '');
  const [from, setFrom] = useState(search.get('from') ?? '');
  const [to, setTo] = useState(search.get('to') ?? '');
  const [account, setAccount] = useState('');
  const [minAmount, setMinAmount] = useState('');
  const [maxAmount, setMaxAmount] = useState('');
  const [page, setPage] = useState(1);
  const amount = (v: string) => (/^[0-9]{1,15}(\.[0-9]{1,4})?$/.test(v) ? v : undefined);
  const day = (s: string, end: boolean) => (s ? timestampFromDate(new Date(s + (end ? 'T23:59:59.999Z' : 'T00:00:00Z'))) : undefined);
  const q = useQuery(TransactionService.method.listTransactions, {
    page, limit: 20, outcome: outcome || undefined, type: type || undefined, from: day(from, false), to: day(to, true),
    account: account.trim() || undefined, minAmount: amount(minAmount.trim()), maxAmount: amount(maxAmount.trim()),
    riskLevel: riskLevel || undefined, ruleId: ruleId.trim() || undefined,
  });
  const reset = (f: () => void) => { f(); setPage(1); };
  const exportQuery = new URLSearchParams(Object.entries({ outcome, riskLevel, ruleId: ruleId.trim(), type, from: day(from, false) && from + 'T00:00:00Z', to: day(to, true) && to + 'T23:59:59.999Z',
    account: account.trim(), minAmount: amount(minAmount.trim()) ?? '', maxAmount: amount(maxAmount.trim()) ?? '' }).filter(([, v]) => v) as [string, string][]);
  const cols: Col<TransactionListItem>[] = [
    { id: 'ref', header: 'Reference', rowHeader: true, cell: (t) => <Link to={`/transactions/${t.id}`}>{t.externalId}</Link>, sort: (t) => t.externalId },
    { id: 'type', header: 'Type', cell: (t) => enumLabel(t.type), sort: (t) => t.type },
    { id: 'amount', header: 'Amount', cell: (t) => <span style={{ whiteSpace: 'nowrap' }}>{money(t.amount, t.currency)}</span>, sort: (t) => Number(t.amount) },
    { id: 'sender', header: 'Sender', cell: (t) => t.senderName ?? t.senderAccountNumber ?? '—', sort: (t) => t.senderName ?? '' },
    { id: 'receiver', header: 'Receiver', cell: (t) => t.receiverName ?? '—', sort: (t) => t.receiverName ?? '' },
    { id: 'outcome', header: 'Outcome', cell: (t) => (t.verdict ? <StatusBadge value={t.verdict.outcome} /> : '—'), sort: (t) => t.verdict?.outcome ?? '' },
    { id: 'score', header: 'Score', cell: (t) => t.verdict?.aggregateScore ?? '—', sort: (t) => Number(t.verdict?.aggregateScore ?? 0) },
    { id: 'channel', header: 'Channel', cell: (t) => enumLabel(t.channel), hidden: true, sort: (t) => t.channel },
    { id: 'when', header: 'When', cell: (t) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(t.transactionTimestamp ?? t.createdAt, zone)}</span>, sort: (t) => Number(t.transactionTimestamp?.seconds ?? 0) },
  ];
  return (
    <section aria-labelledby="tx-h">
      <Title order={1} id="tx-h" mb="sm">Transactions</Title>
      <form onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap" mb="sm">
          <NativeSelect label="Outcome" data={options(outcomes)} value={outcome} onChange={(e) => reset(() => setOutcome(e.currentTarget.value))} />
          <NativeSelect label="Risk level" data={options(risks)} value={riskLevel} onChange={(e) => reset(() => setRiskLevel(e.currentTarget.value))} />
          <TextInput label="Rule" placeholder="AML-001" w={120} value={ruleId} onChange={(e) => reset(() => setRuleId(e.currentTarget.value))} />
          <NativeSelect label="Transaction type" data={options(txTypes)} value={type} onChange={(e) => reset(() => setType(e.currentTarget.value))} />
          <TextInput label="From date" type="date" value={from} onChange={(e) => reset(() => setFrom(e.currentTarget.value))} />
          <TextInput label="To date" type="date" value={to} onChange={(e) => reset(() => setTo(e.currentTarget.value))} />
          <TextInput label="Account number" w={150} value={account} onChange={(e) => reset(() => setAccount(e.currentTarget.value))} />
          <TextInput label="Minimum amount" w={140} inputMode="decimal" value={minAmount} onChange={(e) => reset(() => setMinAmount(e.currentTarget.value))} />
          <TextInput label="Maximum amount" w={140} inputMode="decimal" value={maxAmount} onChange={(e) => reset(() => setMaxAmount(e.currentTarget.value))} />
        </Group>
      </form>
      <Anchor href={`/api/v1/transactions/export.csv?${exportQuery}`} download size="sm"><Group gap={4} component="span"><IconDownload size={16} aria-hidden />Export CSV</Group></Anchor>
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="Transactions" rows={q.data?.items} cols={cols} rowKey={(t) => t.id} loading={q.isPending}
          empty="No transactions match." onOpen={(t) => navigate(`/transactions/${t.id}`)} />
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

// ruleName names a triggered rule: a numbered or built-in rule with ruleLabel, a tenant's rule
// (whose id is an opaque id) by its name alone.
const ruleName = (id: string, name: string) => (/^[A-Z]{2,}-\d+$/.test(id) || /^[A-Z][A-Z_]*$/.test(id) ? ruleLabel(id, name) : name || id);

// TransactionPage is what a regulator asks for: final score and outcome, every engine's verdict
// with its rules, the triggered rules' details, FX, and the case screening opened.
export function TransactionPage({ id }: { id: string }) {
  const zone = useZone();
  const q = useQuery(TransactionService.method.getTransaction, { id }, { retry: false });
  if (q.isPending) return <Loading />;
  if (q.isError) return <section><Title order={1}>Transaction not found</Title><ErrorText error={q.error} /></section>;
  const t = q.data;
  const v = t.verdict;
  const fx = v?.engineVerdicts.find((e) => e.fx)?.fx;
  type EV = NonNullable<typeof v>['engineVerdicts'][number];
  type TR = NonNullable<typeof v>['triggeredRules'][number];
  const engineCols: Col<EV>[] = [
    { id: 'engine', header: 'Engine', rowHeader: true, cell: (e) => enumLabel(e.engineName), sort: (e) => e.engineName },
    { id: 'score', header: 'Score', cell: (e) => (e.skipped ? 'Skipped' : String(e.score)), sort: (e) => e.score },
    { id: 'outcome', header: 'Outcome', cell: (e) => (e.skipped ? prose(e.skipReason) || 'Skipped' : <StatusBadge value={e.outcome} />), sort: (e) => e.outcome },
    { id: 'rules', header: 'Rules triggered', cell: (e) => prose(e.rulesTriggered.join(', ')) || 'None' },
    { id: 'latency', header: 'Latency', cell: (e) => (e.latencyMs > 0 ? `${count(e.latencyMs)} ms` : 'under 1 ms'), sort: (e) => e.latencyMs },
  ];
  const ruleCols: Col<TR>[] = [
    { id: 'rule', header: 'Rule', rowHeader: true, cell: (r) => `${ruleName(r.ruleId, r.name)}${r.ruleVersion > 0 ? `, rule version ${r.ruleVersion}` : ''}`, sort: (r) => r.ruleId || r.name },
    { id: 'category', header: 'Category', cell: (r) => enumLabel(r.category), sort: (r) => r.category },
    { id: 'score', header: 'Score', cell: (r) => String(r.riskScore), sort: (r) => r.riskScore },
    { id: 'outcome', header: 'Outcome', cell: (r) => <StatusBadge value={r.outcome} />, sort: (r) => r.outcome },
    { id: 'details', header: 'Details', cell: (r) => prose(r.details) },
  ];
  const party = (name?: string, acct?: string, bank?: string) => [name, acct, bank ? `bank ${bank}` : ''].filter(Boolean).join(', ') || '—';
  return (
    <Stack component="section" aria-labelledby="txd-h" gap="md">
      <Title order={1} id="txd-h" style={{ overflowWrap: 'anywhere' }}>Transaction {t.externalId}</Title>
      <Facts items={[
        ['Outcome', <span data-testid="tx-outcome">{v ? <StatusBadge value={v.outcome} /> : 'Not screened'}</span>],
        ['Final score', <span data-testid="tx-score">{v ? String(v.aggregateScore) : '—'}</span>],
        ['Risk level', v ? <StatusBadge value={v.riskLevel} /> : '—'],
        ['Amount', money(t.amount, t.currency)],
        ...(fx ? [['FX conversion', <>{money(fx.amount, fx.currency)} × {fx.rateToNgn} = {money(fx.amountNgn, 'NGN')} (rate of {dateTime(fx.rateUpdatedAt, zone)})</>] as [string, ReactNode]] : []),
        ['When', dateTime(t.transactionTimestamp ?? t.createdAt, zone)],
        ['Type', enumLabel(t.type)],
        ['Channel', enumLabel(t.channel)],
        ['Sender', party(t.senderName, t.senderAccountNumber, t.senderBankCode)],
        ['Receiver', <>{party(t.receiverName, t.receiverAccountNumber, t.receiverBankCode)}{t.receiverCountry ? ` (${t.receiverCountry})` : ''}</>],
        ['Narration', t.narration || '—'],
        ['Actions', v?.actions.map((a) => enumLabel(a)).join(', ') || '—'],
        ['Case', v?.caseId ? <Link to={`/cases/${v.caseId}`}>Open the case</Link> : 'None opened'],
      ]} />
      {t.paymentMessage && <PaymentMessage m={t.paymentMessage} />}
      <CustomerLinks transactionId={t.id} />
      <Title order={2} size="h3">Engine verdicts</Title>
      <DataTable label="Engine verdicts" rows={v?.engineVerdicts ?? []} cols={engineCols} rowKey={(e) => e.engineName} empty="No engine verdicts." />
      <Title order={2} size="h3">Triggered rules</Title>
      <DataTable label="Triggered rules" rows={v?.triggeredRules ?? []} cols={ruleCols} rowKey={(r) => `${r.ruleId}-${r.name}`} empty="No rule triggered." />
    </Stack>
  );
}
