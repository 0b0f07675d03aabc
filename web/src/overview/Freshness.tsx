import { useQuery } from '@connectrpc/connect-query';
import { Text } from '@mantine/core';
import { DashboardService } from '../gen/complyd/v1/dashboard_pb';
import { dateTime, plural } from '../ui/format';

// Freshness says where the Overview's figures come from (docs/guide/read-replica.md): "Data as of N s
// ago" while the read replica answers them, or that the primary answered and why when a
// replica is configured but lagging or down. Nothing is shown without a replica.
export function Freshness() {
  const f = useQuery(DashboardService.method.getDataFreshness, {}, { refetchInterval: 15_000 });
  if (!f.data || f.data.replicaStatus === 'none') return null;
  const asOf = f.data.asOf ? dateTime(f.data.asOf) : '';
  if (f.data.source === 'REPLICA') {
    const secs = Math.round(f.data.lagSeconds);
    return <Text size="sm" c="gray.7" data-testid="data-freshness" title={asOf}>
      Data as of {secs === 0 ? 'now' : `${plural(secs, 'second')} ago`} (read replica)</Text>;
  }
  return <Text size="sm" c="gray.7" data-testid="data-freshness" title={asOf}>
    Live data from the primary database: the read replica is {f.data.replicaStatus === 'lagging'
      ? `more than ${plural(Math.round(f.data.maxLagSeconds), 'second')} behind` : 'unreachable'}</Text>;
}
