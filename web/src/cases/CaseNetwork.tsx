import { Card, Text, Title } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { NetworkService } from '../gen/complyd/v1/network_pb';
import { NetworkGraph } from '../customers/NetworkGraph';
import { Link } from '../ui/router';
import { plural } from '../ui/format';

// CaseNetwork is the party's network one hop out (a small graph, capped at 25 accounts),
// linking to the full view on the customer page.
export function CaseNetwork({ account, customerId }: { account: string; customerId?: string }) {
  const q = useQuery(NetworkService.method.getAccountNetwork, { account, query: { hops: 1, maxNodes: 25, maxEdges: 60 } }, { retry: false });
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="net-h" className="case-network">
      <Title order={2} id="net-h" size="h3">Network around {account}</Title>
      {q.isPending ? <Text size="sm">Loading the network…</Text> : q.isError ? <Text size="sm">The network could not be read.</Text> : (
        <>
          <Text size="sm">{plural(q.data.nodes.length, 'account')}, {plural(q.data.edges.length, 'link')}{q.data.findings.length > 0 && `, ${plural(q.data.findings.length, 'finding')}`}.</Text>
          {q.data.nodes.length > 1 && <NetworkGraph graph={q.data} flagged={new Set(q.data.findings.flatMap((f) => f.accounts))} onSelect={() => {}} size={360} />}
        </>
      )}
      {customerId && <Link to={`/customers/${customerId}#net-h`}>Open the full network</Link>}
    </Card>
  );
}
