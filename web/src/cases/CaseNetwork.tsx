import { useState } from 'react';
import { Button, Card, Text, Title } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { NetworkService } from '../gen/complyd/v1/network_pb';
import { NetworkGraph } from '../customers/NetworkGraph';
import { Link, useRouter } from '../ui/router';
import { plural } from '../ui/format';

// CaseNetwork is the party's network one hop out (a small graph, capped at 25 accounts),
// linking to the full view on the customer page. Clicking an account opens that full view
// centred on it; a party without a customer record has no full view, so the small graph
// re-centres in place instead, with a way back to the case's account.
export function CaseNetwork({ account, customerId }: { account: string; customerId?: string }) {
  const { navigate } = useRouter();
  const [centre, setCentre] = useState(account);
  const full = (a: string) => `/customers/${encodeURIComponent(customerId ?? '')}${a === account ? '' : `?account=${encodeURIComponent(a)}`}#net-h`;
  const select = (a: string) => (customerId ? navigate(full(a)) : setCentre(a));
  const q = useQuery(NetworkService.method.getAccountNetwork, { account: centre, query: { hops: 1, maxNodes: 25, maxEdges: 60 } }, { retry: false });
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="net-h" className="case-network">
      <Title order={2} id="net-h" size="h3">Network around {centre}</Title>
      {centre !== account && <Button size="xs" variant="default" onClick={() => setCentre(account)}>Back to {account}</Button>}
      {q.isPending ? <Text size="sm">Loading the network…</Text> : q.isError ? <Text size="sm">The network could not be read.</Text> : (
        <>
          <Text size="sm">{plural(q.data.nodes.length, 'account')}, {plural(q.data.edges.length, 'link')}{q.data.findings.length > 0 && `, ${plural(q.data.findings.length, 'finding')}`}.</Text>
          {q.data.nodes.length > 1 && <NetworkGraph graph={q.data} flagged={new Set(q.data.findings.flatMap((f) => f.accounts))} onSelect={select} size={360} />}
        </>
      )}
      {customerId && <Link to={full(account)}>Open the full network</Link>}
    </Card>
  );
}
