import { useState } from 'react';
import { useMutation } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { RuleService } from '../../gen/complyd/v1/rule_pb';
import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { BacktestExample } from '../../gen/complyd/v1/rule_pb';
import { ErrorText } from '../../ui/parts';
import { count, dateTime, money } from '../../ui/format';
import { useZone } from '../../ui/zone';
import { DataTable, type Col } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';

const day = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

// Backtest runs the draft expression over the tenant's stored transactions of a period (the API
// stops at 100,000 transactions or 10 seconds and says so) and shows how many it would have
// triggered, with examples.
export function Backtest({ expression, ready }: { expression: string; ready: boolean }) {
  const [from, setFrom] = useState(isoDay(new Date(Date.now() - 30 * day)));
  const [to, setTo] = useState(isoDay(new Date(Date.now() + day)));
  const run = useMutation(RuleService.method.backtestRule);
  const zone = useZone();
  const r = run.data;
  const cols: Col<BacktestExample>[] = [
    { id: 'ext', header: 'External id', rowHeader: true, cell: (e) => e.externalId, sort: (e) => e.externalId },
    { id: 'amount', header: 'Amount', cell: (e) => money(e.amount, e.currency), sort: (e) => Number(e.amount) },
    { id: 'sender', header: 'Sender', cell: (e) => e.senderName || '—', sort: (e) => e.senderName },
    { id: 'outcome', header: 'Outcome then', cell: (e) => <StatusBadge value={e.outcome} />, sort: (e) => e.outcome },
    { id: 'when', header: 'When', cell: (e) => dateTime(e.timestamp, zone), sort: (e) => Number(e.timestamp?.seconds ?? 0) },
  ];
  return (
    <Paper withBorder p="sm" component="fieldset" m={0}>
      <legend>Back-test the draft</legend>
      <Stack gap="sm">
        <Group gap="sm" align="end" wrap="wrap">
          <TextInput label="From (UTC day)" type="date" required value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput label="To (UTC day, exclusive)" type="date" required value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          <Button variant="light" disabled={!ready || run.isPending} onClick={() => run.mutate({
            expression, from: timestampFromDate(new Date(from + 'T00:00:00Z')), to: timestampFromDate(new Date(to + 'T00:00:00Z')),
          })}>Run back-test</Button>
        </Group>
        <ErrorText error={run.error} />
        {r && (
          <Stack gap="xs" role="region" aria-label="Back-test result">
            <Text size="sm" data-testid="backtest-summary">Would have triggered on {count(r.matched)} of {count(r.scanned)} transactions{r.errors > 0 ? ` (${count(r.errors)} could not be evaluated)` : ''}, in {count(r.elapsedMs)} ms.</Text>
            {r.truncated && <Text size="sm" c="orange.9">The scan stopped at its bound (100,000 transactions or 10 seconds), at {dateTime(r.oldestScanned, zone)}; older transactions of the period were not scanned.</Text>}
            {r.examples.length > 0 && <DataTable label="Example transactions" rows={r.examples} cols={cols} rowKey={(e) => e.transactionId} />}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
