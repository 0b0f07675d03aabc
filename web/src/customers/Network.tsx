import { useMemo, useState } from 'react';
import { useMutation, useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { NetworkService } from '../gen/complyd/v1/network_pb';
import { Link } from '../ui/router';
import { Empty, ErrorText, Field, Loading } from '../ui/parts';
import { NetworkGraph } from './NetworkGraph';

// Network shows the counterparty graph of a customer (or, once an account is clicked, of that
// account) with its bounds, its findings and a button that opens a case for a finding.
export function Network({ customerId }: { customerId: string }) {
  const [account, setAccount] = useState('');
  const [hops, setHops] = useState(2);
  const [days, setDays] = useState(90);
  const [minAmount, setMinAmount] = useState('');
  // The period ends at the page's opening (a query key that changed with every render would
  // refetch forever).
  const [opened] = useState(() => Date.now());
  const from = useMemo(() => timestampFromDate(new Date(opened - days * 86400000)), [opened, days]);
  const query = {
    hops, from,
    minAmount: /^[0-9]{1,15}(\.[0-9]{1,2})?$/.test(minAmount.trim()) ? minAmount.trim() : undefined,
  };
  const byCustomer = useQuery(NetworkService.method.getCustomerNetwork, { id: customerId, query }, { enabled: !account });
  const byAccount = useQuery(NetworkService.method.getAccountNetwork, { account, query }, { enabled: !!account });
  const q = account ? byAccount : byCustomer;
  const open = useMutation(NetworkService.method.openNetworkCase);
  const flagged = new Set((q.data?.findings ?? []).flatMap((f) => [f.account, ...(f.kind === 'RING' ? f.accounts : [])]));
  return (
    <section aria-labelledby="net-h">
      <h2 id="net-h">Network {account ? `of account ${account}` : 'of the customer'}</h2>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Hops"><select value={hops} onChange={(e) => setHops(Number(e.target.value))}>{[1, 2, 3, 4].map((h) => <option key={h}>{h}</option>)}</select></Field>
        <Field label="Period (days)"><select value={days} onChange={(e) => setDays(Number(e.target.value))}>{[30, 90, 180, 365].map((d) => <option key={d}>{d}</option>)}</select></Field>
        <Field label="Minimum transfer (NGN)"><input inputMode="decimal" value={minAmount} onChange={(e) => setMinAmount(e.target.value)} /></Field>
        {account && <button type="button" onClick={() => setAccount('')}>Back to the customer</button>}
      </form>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : (
        <>
          <p className="muted">{q.data.nodes.length} accounts, {q.data.edges.length} links{q.data.truncated ? ' — truncated by the node or edge cap: narrow the period, hops or amount to see all of it' : ''}.</p>
          {q.data.nodes.length === 0 ? <Empty>No account of this customer appears in screened transactions.</Empty>
            : <NetworkGraph graph={q.data} flagged={flagged} onSelect={setAccount} />}
          <h3>Findings</h3>
          {q.data.findings.length === 0 ? <Empty>No fan-in, fan-out or ring in this graph.</Empty> : (
            <ul aria-label="Findings">{q.data.findings.map((f) => (
              <li key={f.kind + f.account}>
                <strong>{f.kind.replace('_', '-').toLowerCase()}</strong> at {f.account}: {f.description}{' '}
                <button type="button" disabled={open.isPending} onClick={() => open.mutate({ account: account || undefined, customerId: account ? undefined : customerId,
                  query, kind: f.kind, findingAccount: f.account })}>Open a case for the {f.kind.replace('_', '-').toLowerCase()} at {f.account}</button>
              </li>))}
            </ul>
          )}
          {open.data && <p role="status">Case <Link to={`/cases/${open.data.id}`}>{open.data.caseNumber}</Link> opened.</p>}
          <ErrorText error={open.error} />
        </>
      )}
    </section>
  );
}
