import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { NetworkService } from '../gen/complyd/v1/network_pb';
import { Link, useRouter } from '../ui/router';
import { Button, Group, List, NativeSelect, Text, TextInput, Title } from '@mantine/core';
import { useSession } from '../auth/session';
import { Empty, ErrorText, Loading } from '../ui/parts';
import { plural, prose } from '../ui/format';
import { NetworkGraph } from './NetworkGraph';

// Network shows the counterparty graph of a customer (or, once an account is clicked, of that
// account) with its bounds, its findings and a button that opens a case for a finding. A link
// may open it centred on an account (?account=, from a click on the case page's small graph) and
// scrolled to (#net-h: a pushed URL's fragment does not scroll by itself).
export function Network({ customerId }: { customerId: string }) {
  const { loc } = useRouter();
  const [account, setAccount] = useState(loc.search.get('account') ?? '');
  const section = useRef<HTMLElement>(null);
  useEffect(() => { if (window.location.hash === '#net-h') section.current?.scrollIntoView(); }, []);
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
  // Opening a case is for every role but the read-only auditor (the API's Writers).
  const { canAct } = useSession();
  const open = useMutation(NetworkService.method.openNetworkCase);
  const kindName = (k: string) => k.replace('_', '-').toLowerCase();
  const flagged = new Set((q.data?.findings ?? []).flatMap((f) => [f.account, ...(f.kind === 'RING' ? f.accounts : [])]));
  return (
    <section aria-labelledby="net-h" ref={section}>
      <Title order={2} size="h3" id="net-h" mb="xs">Network {account ? `of account ${account}` : 'of the customer'}</Title>
      <form onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap" mb="sm">
          <NativeSelect label="Hops" value={String(hops)} onChange={(e) => setHops(Number(e.currentTarget.value))} data={['1', '2', '3', '4']} />
          <NativeSelect label="Period (days)" value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))} data={['30', '90', '180', '365']} />
          <TextInput label="Minimum transfer (NGN)" inputMode="decimal" w={180} value={minAmount} onChange={(e) => setMinAmount(e.currentTarget.value)} />
          {account && <Button variant="default" onClick={() => setAccount('')}>Back to the customer</Button>}
        </Group>
      </form>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : (
        <>
          <Text size="sm" c="gray.7" mb="xs">{plural(q.data.nodes.length, 'account')}, {plural(q.data.edges.length, 'link')}{q.data.truncated ? ' — truncated by the node or edge cap: narrow the period, hops or amount to see all of it' : ''}.</Text>
          {q.data.nodes.length === 0 ? <Empty>No account of this customer appears in screened transactions.</Empty>
            : <NetworkGraph graph={q.data} flagged={flagged} onSelect={setAccount} />}
          <Title order={3} size="h4" mt="sm" mb="xs">Findings</Title>
          {q.data.findings.length === 0 ? <Empty>No fan-in, fan-out or ring in this graph.</Empty> : (
            <List aria-label="Findings" spacing="xs">{q.data.findings.map((f) => (
              <List.Item key={f.kind + f.account}>
                <strong>{kindName(f.kind)}</strong> at {f.account}: {prose(f.description)}{' '}
                {canAct && <Button size="xs" variant="light" disabled={open.isPending} onClick={() => open.mutate({ account: account || undefined, customerId: account ? undefined : customerId,
                  query, kind: f.kind, findingAccount: f.account })}>Open a case for the {kindName(f.kind)} at {f.account}</Button>}
              </List.Item>))}
            </List>
          )}
          {open.data && <p role="status">Case <Link to={`/cases/${open.data.id}`}>{open.data.caseNumber}</Link> opened.</p>}
          <ErrorText error={open.error} />
        </>
      )}
    </section>
  );
}
