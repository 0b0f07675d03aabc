import { useState } from 'react';
import { useMutation, useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { RuleService, type Rule, type RuleDraft } from '../../gen/complyd/v1/rule_pb';
import { useSession } from '../../auth/session';
import { dateTime, enumLabel } from '../../ui/format';
import { ErrorText, Loading } from '../../ui/parts';
import { DataTable } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';
import { useZone } from '../../ui/zone';
import { Comparison } from './Comparison';
import { DraftEditor } from './DraftEditor';

const day = 86_400_000;
const officers = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'];

// Drafts is the maker-checker workflow of custom rules (docs/guide/rules.md): an officer drafts a
// rule, back-tests it on stored screenings and shadows it on live ones, and a second officer
// (never the author, unless the tenant allows a single person) publishes it with a reason.
export function Drafts({ newDraftOf, onDrafted }: { newDraftOf: 'new' | Rule | null; onDrafted: () => void }) {
  const { me } = useSession();
  const zone = useZone();
  const q = useQuery(RuleService.method.listRuleDrafts, { status: 'DRAFT' });
  const [open, setOpen] = useState<string | null>(null);
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const done = () => { void q.refetch(); onDrafted(); };
  const current = q.data.items.find((d) => d.id === open);
  return (
    <Stack gap="md" component="section" aria-labelledby="drafts-h">
      <Title order={2} id="drafts-h">Drafts</Title>
      {newDraftOf && <DraftEditor rule={newDraftOf === 'new' ? undefined : newDraftOf} onDone={done} onCancel={onDrafted} />}
      {q.data.items.length === 0 ? <Text c="gray.7">No open drafts.</Text> : (
        <DataTable<RuleDraft> label="Open drafts" rows={q.data.items} rowKey={(d) => d.id} rowLabel={(d) => d.name}
          onOpen={(d) => setOpen(d.id === open ? null : d.id)} cols={[
            { id: 'name', header: 'Name', rowHeader: true, cell: (d) => d.name, sort: (d) => d.name.toLowerCase() },
            { id: 'change', header: 'Change', cell: (d) => (d.ruleId ? `New version of v${d.baseVersion}` : 'New rule'), sort: (d) => (d.ruleId ? 1 : 0) },
            { id: 'expression', header: 'Expression', cell: (d) => <code>{d.expression}</code> },
            { id: 'outcome', header: 'Outcome', cell: (d) => <><StatusBadge value={d.outcome} /> score {d.score}</>, sort: (d) => d.score },
            { id: 'shadow', header: 'Shadow', cell: (d) => (d.shadowing ? <StatusBadge value="IN_PROGRESS" label="In shadow" /> : 'Off'), sort: (d) => (d.shadowing ? 1 : 0) },
            { id: 'drafted', header: 'Drafted', cell: (d) => <>{dateTime(d.createdAt, zone)}{d.createdBy === me.id && ' (you)'}</>, sort: (d) => Number(d.createdAt?.seconds ?? 0) },
            { id: 'open', header: 'Open', cell: (d) => <Button size="xs" variant="light" onClick={() => setOpen(d.id === open ? null : d.id)}>Open draft {d.name}</Button> },
          ]} />
      )}
      {current && <DraftPanel key={current.id} d={current} canAct={officers.includes(me.role)} isAuthor={current.createdBy === me.id} onDone={done} />}
    </Stack>
  );
}

// DraftPanel back-tests, shadows, compares and publishes (or discards) one draft. The publish
// form shows only to whom the server lets publish: an officer other than the author, or the
// author when the tenant's controls allow a single person (fourEyesRequired false).
function DraftPanel({ d, canAct, isAuthor, onDone }: { d: RuleDraft; canAct: boolean; isAuthor: boolean; onDone: () => void }) {
  const report = useQuery(RuleService.method.getRuleDraftShadowReport, { id: d.id }, { refetchInterval: d.shadowing ? 5000 : false });
  const backtest = useMutation(RuleService.method.backtestRuleDraft);
  const after = { onSuccess: () => { onDone(); void report.refetch(); } };
  const start = useMutation(RuleService.method.startRuleDraftShadow, after);
  const stop = useMutation(RuleService.method.stopRuleDraftShadow, after);
  const discard = useMutation(RuleService.method.discardRuleDraft, after);
  const publish = useMutation(RuleService.method.publishRuleDraft, after);
  const zone = useZone();
  const [reason, setReason] = useState('');
  const mayPublish = canAct && (!isAuthor || !d.fourEyesRequired);
  return (
    <Paper withBorder p="md" role="region" aria-label={`Draft ${d.name}`}>
      <Stack gap="sm">
        <Title order={3}>Draft {d.name}</Title>
        <Text size="sm"><code>{d.expression}</code> → {enumLabel(d.outcome)}, score {d.score}</Text>
        {canAct && (
          <Group>
            <Button variant="light" loading={backtest.isPending} onClick={() => backtest.mutate({ id: d.id,
              from: timestampFromDate(new Date(Date.now() - 30 * day)), to: timestampFromDate(new Date(Date.now() + day)) })}>Back-test last 30 days</Button>
            {d.shadowing
              ? <Button variant="light" color="grape" loading={stop.isPending} onClick={() => stop.mutate({ id: d.id })}>Stop shadow</Button>
              : <Button variant="light" color="grape" loading={start.isPending} onClick={() => start.mutate({ id: d.id })}>Start shadow</Button>}
            <Button variant="subtle" color="red.9" loading={discard.isPending} onClick={() => discard.mutate({ id: d.id })}>Discard draft</Button>
            <Button variant="subtle" onClick={() => void report.refetch()}>Refresh comparison</Button>
          </Group>
        )}
        {d.shadowing && <Text size="sm">In shadow since {dateTime(d.shadowStartedAt, zone)}{d.shadowEndsAt && `, until ${dateTime(d.shadowEndsAt, zone)}`}: evaluated on every live screening, never applied.</Text>}
        <ErrorText error={backtest.error ?? start.error ?? stop.error ?? discard.error} />
        {backtest.data?.comparison && <Comparison title="Back-test" c={backtest.data.comparison} />}
        {backtest.data?.truncated && <Text c="orange">The back-test stopped at its bound (100,000 transactions or 10 seconds).</Text>}
        {report.isError ? <ErrorText error={report.error} /> : report.data && <Comparison title="Shadow" c={report.data} />}
        {mayPublish ? (
          <Group align="end">
            <TextInput label="Reason for publishing" value={reason} onChange={(e) => setReason(e.currentTarget.value)} w={420} />
            <Button disabled={reason.trim() === ''} loading={publish.isPending} onClick={() => publish.mutate({ id: d.id, reason })}>Publish draft</Button>
          </Group>
        ) : canAct && <Alert color="blue" title="Four eyes">You drafted this rule: a second officer (bank administrator or compliance officer) publishes it.</Alert>}
        <ErrorText error={publish.error} />
      </Stack>
    </Paper>
  );
}
