import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TransactionService } from '../gen/complyd/v1/screening_pb';
import { Link, useRouter } from '../ui/router';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';
import { label } from '../cases/states';
import { PaymentMessage } from './PaymentMessage';
import { CustomerLinks } from '../ui/CustomerLinks';

const outcomes = ['APPROVE', 'REVIEW', 'ESCALATE', 'BLOCK'];
const txTypes = ['CASH_DEPOSIT', 'CASH_WITHDRAWAL', 'TRANSFER', 'INTERNATIONAL_TRANSFER', 'POS', 'ATM', 'MOBILE', 'USSD', 'INTERNET_BANKING'];

// Transactions searches screened transactions with the server's filters and paging (outcome,
// type, date range, account, amount range).
export function Transactions() {
  // The filters start from the query string, so a link (an Overview chart) opens a filtered list.
  const { search } = useRouter().loc;
  const [outcome, setOutcome] = useState(search.get('outcome') ?? '');
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
  });
  const reset = (f: () => void) => { f(); setPage(1); };
  const exportQuery = new URLSearchParams(Object.entries({ outcome, type, from: day(from, false) && from + 'T00:00:00Z', to: day(to, true) && to + 'T23:59:59.999Z',
    account: account.trim(), minAmount: amount(minAmount.trim()) ?? '', maxAmount: amount(maxAmount.trim()) ?? '' }).filter(([, v]) => v) as [string, string][]);
  return (
    <section aria-labelledby="tx-h">
      <h1 id="tx-h">Transactions</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Outcome"><select value={outcome} onChange={(e) => reset(() => setOutcome(e.target.value))}><option value="">any</option>{outcomes.map((o) => <option key={o} value={o}>{label(o)}</option>)}</select></Field>
        <Field label="Transaction type"><select value={type} onChange={(e) => reset(() => setType(e.target.value))}><option value="">any</option>{txTypes.map((o) => <option key={o} value={o}>{label(o)}</option>)}</select></Field>
        <Field label="From date"><input type="date" value={from} onChange={(e) => reset(() => setFrom(e.target.value))} /></Field>
        <Field label="To date"><input type="date" value={to} onChange={(e) => reset(() => setTo(e.target.value))} /></Field>
        <Field label="Account number"><input value={account} onChange={(e) => reset(() => setAccount(e.target.value))} /></Field>
        <Field label="Minimum amount"><input inputMode="decimal" value={minAmount} onChange={(e) => reset(() => setMinAmount(e.target.value))} /></Field>
        <Field label="Maximum amount"><input inputMode="decimal" value={maxAmount} onChange={(e) => reset(() => setMaxAmount(e.target.value))} /></Field>
      </form>
      <a className="export" href={`/api/v1/transactions/export.csv?${exportQuery}`} download>Export CSV</a>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.items.length === 0 ? <Empty>No transactions match.</Empty> : (
        <table>
          <thead><tr><th>Reference</th><th>Type</th><th>Amount</th><th>Sender</th><th>Receiver</th><th>Outcome</th><th>Score</th><th>When</th></tr></thead>
          <tbody>{q.data.items.map((t) => (
            <tr key={t.id}>
              <td><Link to={`/transactions/${t.id}`}>{t.externalId}</Link></td><td>{label(t.type)}</td><td>{t.amount} {t.currency}</td>
              <td>{t.senderName ?? t.senderAccountNumber ?? '—'}</td><td>{t.receiverName ?? '—'}</td>
              <td>{t.verdict ? label(t.verdict.outcome) : '—'}</td><td>{t.verdict?.aggregateScore ?? '—'}</td><td>{when(t.transactionTimestamp ?? t.createdAt)}</td>
            </tr>))}
          </tbody>
        </table>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

// TransactionPage is what a regulator asks for: final score and outcome, every engine's verdict
// with its rules, the triggered rules' details, FX, and the case screening opened.
export function TransactionPage({ id }: { id: string }) {
  const q = useQuery(TransactionService.method.getTransaction, { id }, { retry: false });
  if (q.isPending) return <Loading />;
  if (q.isError) return <section><h1>Transaction not found</h1><ErrorText error={q.error} /></section>;
  const t = q.data;
  const v = t.verdict;
  const fx = v?.engineVerdicts.find((e) => e.fx)?.fx;
  return (
    <section aria-labelledby="txd-h">
      <h1 id="txd-h">Transaction {t.externalId}</h1>
      <dl className="facts">
        <dt>Outcome</dt><dd data-testid="tx-outcome">{v ? label(v.outcome) : 'not screened'}</dd>
        <dt>Final score</dt><dd data-testid="tx-score">{v?.aggregateScore ?? '—'}</dd>
        <dt>Risk level</dt><dd>{v ? label(v.riskLevel) : '—'}</dd>
        <dt>Amount</dt><dd>{t.amount} {t.currency}</dd>
        {fx && <><dt>FX conversion</dt><dd>{fx.amount} {fx.currency} × {fx.rateToNgn} = {fx.amountNgn} NGN (rate of {when(fx.rateUpdatedAt)})</dd></>}
        <dt>Sender</dt><dd>{t.senderName ?? '—'} {t.senderAccountNumber ?? ''} {t.senderBankCode ? `(bank ${t.senderBankCode})` : ''}</dd>
        <dt>Receiver</dt><dd>{t.receiverName ?? '—'} {t.receiverAccountNumber ?? ''} {t.receiverCountry ?? ''}</dd>
        <dt>Narration</dt><dd>{t.narration ?? '—'}</dd>
        <dt>Actions</dt><dd>{v?.actions.join(', ') || '—'}</dd>
        <dt>Case</dt><dd>{v?.caseId ? <Link to={`/cases/${v.caseId}`}>Open the case</Link> : 'none opened'}</dd>
      </dl>
      {t.paymentMessage && <PaymentMessage m={t.paymentMessage} />}
      <CustomerLinks transactionId={t.id} />
      <h2>Engine verdicts</h2>
      {!v || v.engineVerdicts.length === 0 ? <Empty>No engine verdicts.</Empty> : (
        <table aria-label="Engine verdicts">
          <thead><tr><th>Engine</th><th>Score</th><th>Outcome</th><th>Rules triggered</th><th>Latency</th></tr></thead>
          <tbody>{v.engineVerdicts.map((e) => (
            <tr key={e.engineName}><td>{e.engineName}</td><td>{e.skipped ? 'skipped' : e.score}</td><td>{e.skipped ? e.skipReason : label(e.outcome)}</td>
              <td>{e.rulesTriggered.join(', ') || 'none'}</td><td>{e.latencyMs} ms</td></tr>))}
          </tbody>
        </table>
      )}
      <h2>Triggered rules</h2>
      {!v || v.triggeredRules.length === 0 ? <Empty>No rule triggered.</Empty> : (
        <ul>{v.triggeredRules.map((r, i) => <li key={i}><strong>{r.name}</strong> ({r.category}, score {r.riskScore}, {label(r.outcome)}{r.ruleVersion > 0 && <>, rule version {r.ruleVersion}</>}): {r.details}</li>)}</ul>
      )}
    </section>
  );
}
