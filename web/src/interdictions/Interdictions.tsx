import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { Code, Group, NativeSelect, Text, TextInput, Title } from '@mantine/core';
import { InterdictionService } from '../gen/complyd/v1/interdiction_pb';
import type { Interdiction } from '../gen/complyd/v1/case_pb';
import { Link } from '../ui/router';
import { ErrorText, Pager } from '../ui/parts';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { dateTime, enumLabel } from '../ui/format';
import { useZone } from '../ui/zone';
import { LiftActions } from './LiftActions';
import { who } from '../ui/people';

const statuses = ['REQUESTED', 'CONFIRMED', 'LIFT_REQUESTED', 'LIFTED'];
const actions = ['FREEZE', 'BLOCK', 'POST_NO_DEBIT'];

// Interdictions is the queue of account interdictions (docs/guide/interdictions.md) with the API's
// filters, each with its case, and the lift under four eyes: one officer asks with a reason, a
// second approves or rejects.
export function Interdictions() {
  const [status, setStatus] = useState('');
  const [action, setAction] = useState('');
  const [account, setAccount] = useState('');
  const [inForce, setInForce] = useState('');
  const [page, setPage] = useState(1);
  const q = useQuery(InterdictionService.method.listInterdictionQueue, {
    page, limit: 20,
    status: status || undefined, action: action || undefined,
    // The API wants a whole NUBAN; a partial number typed so far filters nothing yet.
    accountNumber: /^[0-9]{10}$/.test(account) ? account : undefined,
    inForce: inForce === '' ? undefined : inForce === 'yes',
  });
  const reset = (f: () => void) => { f(); setPage(1); };
  const zone = useZone();
  const any = (vs: string[]) => [{ value: '', label: 'Any' }, ...vs.map((v) => ({ value: v, label: enumLabel(v) }))];
  const cols: Col<Interdiction>[] = [
    { id: 'id', header: 'Interdiction', cell: (i) => <><Code>{i.id}</Code>{i.reference && <Text size="xs" c="gray.7">bank ref {i.reference}</Text>}</> },
    { id: 'case', header: 'Case', cell: (i) => <Link to={`/cases/${i.caseId}`}>{i.caseNumber}</Link>, sort: (i) => i.caseNumber },
    { id: 'action', header: 'Action', cell: (i) => enumLabel(i.action), sort: (i) => i.action },
    { id: 'account', header: 'Account', cell: (i) => i.accountNumber, sort: (i) => i.accountNumber },
    { id: 'status', header: 'Status', cell: (i) => <StatusBadge value={i.status} />, sort: (i) => i.status },
    { id: 'reason', header: 'Reason', cell: (i) => i.reason },
    { id: 'requested', header: 'Requested', cell: (i) => <>{dateTime(i.requestedAt, zone)}<Text size="xs" c="gray.7">by {who(i.requestedBy, i.requestedByName)}</Text></>, sort: (i) => i.requestedAt ? Number(i.requestedAt.seconds) : 0 },
    { id: 'officers', header: 'Officers', cell: (i) => <Officers i={i} /> },
    { id: 'lift', header: 'Lift', cell: (i) => <LiftActions i={i} onChange={() => void q.refetch()} /> },
  ];
  return (
    <section aria-labelledby="intd-h">
      <Title order={1} id="intd-h" mb="sm">Interdictions</Title>
      <form aria-label="Interdiction filters" onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap" mb="sm">
          <NativeSelect label="Status" value={status} onChange={(e) => reset(() => setStatus(e.currentTarget.value))} data={any(statuses)} />
          <NativeSelect label="Action" value={action} onChange={(e) => reset(() => setAction(e.currentTarget.value))} data={any(actions)} />
          <TextInput label="Account number" w={150} inputMode="numeric" maxLength={10} value={account} onChange={(e) => reset(() => setAccount(e.currentTarget.value))} />
          <NativeSelect label="In force" value={inForce} onChange={(e) => reset(() => setInForce(e.currentTarget.value))}
            data={[{ value: '', label: 'Any' }, { value: 'yes', label: 'In force' }, { value: 'no', label: 'Not in force' }]} />
        </Group>
      </form>
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="Interdictions" rows={q.data?.items} cols={cols} rowKey={(i) => i.id} rowLabel={(i) => i.id} loading={q.isPending}
          empty="No interdictions match these filters." />
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

// Officers names who confirmed the interdiction and who asked for and approved its lift.
function Officers({ i }: { i: Interdiction }) {
  const lines = [
    i.confirmedBy && `confirmed by ${who(i.confirmedBy, i.confirmedByName)}`,
    i.liftRequestedBy && `lift requested by ${who(i.liftRequestedBy, i.liftRequestedByName)}`,
    i.liftedBy && `lift approved by ${who(i.liftedBy, i.liftedByName)}`,
  ].filter(Boolean);
  return lines.length === 0 ? <Text size="sm" c="gray.7">—</Text> : <>{lines.map((l) => <Text key={l as string} size="sm">{l}</Text>)}</>;
}
