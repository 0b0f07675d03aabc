import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Button, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { EngineService, type Engine } from '../../gen/complyd/v1/engine_pb';
import { ErrorText, Loading } from '../../ui/parts';
import { count, dateTime, enumLabel, yesNo } from '../../ui/format';
import { useZone } from '../../ui/zone';
import { DataTable, type Col } from '../../ui/DataTable';
import { useUserName } from '../../ui/userNames';

// Engines is the tenant's engine configuration (docs/design/engines.md): each engine's weight within
// its bounds, deadline and state, and the version in force. Every change stores a new version
// with a reason; the API refuses a weight out of bounds (400) and disabling a mandatory engine
// (409), and the screen shows its answer rather than second-guessing it.
export function Engines() {
  const who = useUserName('another administrator');
  const zone = useZone();
  const q = useQuery(EngineService.method.listEngines, {});
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const c = q.data;
  const refetch = () => void q.refetch();
  // The first cells are plain cells (not a row header): the tests and people read them by position.
  const cols: Col<Engine>[] = [
    { id: 'engine', header: 'Engine', cell: (e) => enumLabel(e.key), sort: (e) => e.key },
    { id: 'category', header: 'Category', cell: (e) => enumLabel(e.category), sort: (e) => e.category },
    { id: 'weight', header: 'Weight', cell: (e) => String(e.weight), sort: (e) => e.weight },
    { id: 'default', header: 'Default', cell: (e) => String(e.defaultWeight) },
    { id: 'bounds', header: 'Bounds', cell: (e) => `${e.minWeight}–${e.maxWeight}` },
    { id: 'deadline', header: 'Deadline', cell: (e) => `${count(e.deadlineMs)} ms`, sort: (e) => e.deadlineMs },
    { id: 'timeout', header: 'On timeout', cell: (e) => (e.failsOpen ? 'Fails open' : 'Fails closed') },
    { id: 'mandatory', header: 'Mandatory', cell: (e) => yesNo(e.mandatory), sort: (e) => Number(e.mandatory) },
    { id: 'enabled', header: 'Enabled', cell: (e) => yesNo(e.enabled), sort: (e) => Number(e.enabled) },
    { id: 'change', header: 'Change', cell: (e) => <EngineChange key={`${e.key}-${c.version}`} e={e} onChange={refetch} /> },
  ];
  return (
    <Stack component="section" aria-labelledby="eng-h" gap="md">
      <Title order={1} id="eng-h">Engines</Title>
      <Text size="sm" aria-label="Configuration version">Configuration <Code>{c.configId}</Code>, version <strong>{c.version}</strong>
        {c.updatedAt && <> — {dateTime(c.updatedAt, zone)}{c.updatedBy && <> by {who(c.updatedBy)}</>}{c.reason && <>: {c.reason}</>}</>}</Text>
      <DataTable label="Engines" rows={c.engines} cols={cols} rowKey={(e) => e.key} rowLabel={(e) => e.key} />
    </Stack>
  );
}

// EngineChange changes one engine's weight or state, with a reason; the reason clears once saved,
// a refused change keeps it.
function EngineChange({ e, onChange }: { e: Engine; onChange: () => void }) {
  const [weight, setWeight] = useState(String(e.weight));
  const [reason, setReason] = useState('');
  const upd = useMutation(EngineService.method.updateEngine, { onSuccess: () => { setReason(''); onChange(); } });
  const send = (change: { weight?: number; enabled?: boolean }) => upd.mutate({ key: e.key, reason, ...change });
  return (
    <form aria-label={`Change ${e.key}`} onSubmit={(ev) => { ev.preventDefault(); send({ weight: Number(weight) }); }}>
      <Group gap="xs" align="end" wrap="wrap" miw={260}>
        <TextInput size="xs" label="New weight" inputMode="decimal" required w={80} value={weight} onChange={(ev) => setWeight(ev.currentTarget.value)} />
        <TextInput size="xs" label="Reason" required maxLength={500} w={160} value={reason} onChange={(ev) => setReason(ev.currentTarget.value)} />
        <Button size="xs" type="submit" loading={upd.isPending}>Save weight</Button>
        {!e.mandatory && <Button size="xs" variant="default" disabled={upd.isPending || reason === ''} onClick={() => send({ enabled: !e.enabled })}>{e.enabled ? 'Disable' : 'Enable'}</Button>}
      </Group>
      <ErrorText error={upd.error} />
    </form>
  );
}
