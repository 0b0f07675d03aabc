import { useState } from 'react';
import { useMutation, useQuery } from '@connectrpc/connect-query';
import { CustomerService } from '../gen/complyd/v1/customer_pb';
import { useSession } from '../auth/session';
import { Link } from '../ui/router';
import { Empty, ErrorText, Field, Loading, when } from '../ui/parts';
import { enumLabel as label } from '../ui/format';
import { Network } from './Network';

const officers = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'];

// CustomerPage is the customer profile: identity, risk rating with its factors and history,
// the periodic review, what is linked to the customer, and its network.
export function CustomerPage({ id }: { id: string }) {
  const { me } = useSession();
  const q = useQuery(CustomerService.method.getCustomerOverview, { id }, { retry: false });
  const hist = useQuery(CustomerService.method.listCustomerRiskHistory, { id }, { retry: false });
  const refresh = () => { void q.refetch(); void hist.refetch(); };
  const recompute = useMutation(CustomerService.method.recomputeCustomerRisk, { onSuccess: refresh });
  const [note, setNote] = useState('');
  const review = useMutation(CustomerService.method.completeCustomerReview, { onSuccess: () => { setNote(''); refresh(); } });
  if (q.isPending) return <Loading />;
  if (q.isError) return <section><h1>Customer not found</h1><ErrorText error={q.error} /></section>;
  const { customer: c, risk } = q.data;
  const canAct = officers.includes(me.role);
  return (
    <section aria-labelledby="cp-h">
      <h1 id="cp-h">{c?.name}</h1>
      <dl className="facts">
        <dt>Type</dt><dd>{c?.type.toLowerCase()}</dd>
        <dt>BVN</dt><dd>{c?.bvn ?? '—'}</dd>
        <dt>NIN</dt><dd>{c?.nin ?? '—'}</dd>
        <dt>RC number</dt><dd>{c?.rcNumber ?? '—'}</dd>
        <dt>Risk rating</dt><dd data-testid="risk-rating" className={risk ? `risk-${risk.rating}` : ''}>{risk ? risk.rating : 'not rated yet'}</dd>
        <dt>Risk score</dt><dd data-testid="risk-score">{risk ? `${risk.score} / 100` : '—'}</dd>
        <dt>Next review</dt><dd>{when(risk?.nextReviewAt)}</dd>
        <dt>Last review</dt><dd>{when(risk?.lastReviewedAt)}</dd>
      </dl>
      {canAct && (
        <form className="filters" onSubmit={(e) => { e.preventDefault(); review.mutate({ id, note }); }}>
          <button type="button" disabled={recompute.isPending} onClick={() => recompute.mutate({ id })}>Recompute rating</button>
          <Field label="Review note"><input value={note} onChange={(e) => setNote(e.target.value)} /></Field>
          <button type="submit" disabled={review.isPending || !note.trim()}>Record review</button>
        </form>
      )}
      <ErrorText error={recompute.error ?? review.error} />
      <h2>Risk factors</h2>
      {!risk || risk.factors.length === 0 ? <Empty>No factor adds risk.</Empty> : (
        <table aria-label="Risk factors"><thead><tr><th>Factor</th><th>Points</th><th>Detail</th></tr></thead>
          <tbody>{risk.factors.map((f) => <tr key={f.name}><td>{label(f.name)}</td><td>{f.points}</td><td>{f.detail}</td></tr>)}</tbody></table>
      )}
      <h2>Risk history</h2>
      {hist.isPending ? <Loading /> : hist.isError ? <ErrorText error={hist.error} /> : hist.data.items.length === 0 ? <Empty>Not rated yet.</Empty> : (
        <table aria-label="Risk history"><thead><tr><th>When</th><th>Rating</th><th>Previous</th><th>Score</th><th>Reason</th></tr></thead>
          <tbody>{hist.data.items.map((h) => <tr key={h.id}><td>{when(h.createdAt)}</td><td>{h.rating}</td><td>{h.previousRating || '—'}</td><td>{h.score}</td><td>{label(h.reason)}</td></tr>)}</tbody></table>
      )}
      <h2>Applications</h2>
      {q.data.applications.length === 0 ? <Empty>No KYC or KYB application.</Empty> : (
        <ul>{q.data.applications.map((a) => <li key={a.id}><Link to={`/${a.kind.toLowerCase()}/${a.id}`}>{a.kind} {a.id}</Link>: {label(a.status).toLowerCase()} {a.tier} ({when(a.createdAt)})</li>)}</ul>
      )}
      <h2>Accounts seen in screening</h2>
      {q.data.accounts.length === 0 ? <Empty>No screened transaction carries this customer's BVN.</Empty> : (
        <table aria-label="Accounts"><thead><tr><th>Account</th><th>Transactions</th><th>Alerts</th><th>First</th><th>Last</th></tr></thead>
          <tbody>{q.data.accounts.map((a) => <tr key={a.account}><td>{a.account}</td><td>{a.transactions}</td><td>{a.alerts}</td><td>{when(a.firstAt)}</td><td>{when(a.lastAt)}</td></tr>)}</tbody></table>
      )}
      <h2>Cases</h2>
      {q.data.cases.length === 0 ? <Empty>No case.</Empty> : (
        <ul>{q.data.cases.map((k) => <li key={k.id}><Link to={`/cases/${k.id}`}>{k.caseNumber}</Link> {k.title} — {label(k.status).toLowerCase()}</li>)}</ul>
      )}
      <h2>Reports</h2>
      {q.data.reports.length === 0 ? <Empty>No regulatory report.</Empty> : (
        <ul aria-label="Reports">{q.data.reports.map((r) => <li key={r.id}><Link to={`/reports/${r.id}`}>{r.type} {r.day}</Link>: {label(r.status)}{r.account ? ` — account ${r.account}` : ''}</li>)}</ul>
      )}
      {q.data.reportsTruncated && <p>More than 100 reports: the newest are listed.</p>}
      <h2>Sanctions reviews</h2>
      {q.data.sanctionsReviews.length === 0 ? <Empty>No reviewed sanctions match.</Empty> : (
        <ul>{q.data.sanctionsReviews.map((r) => <li key={r.id}>{r.entryId} for {r.subjectKey}: {r.reason} {r.active ? '' : '(revoked)'}</li>)}</ul>
      )}
      <Network customerId={id} />
    </section>
  );
}
