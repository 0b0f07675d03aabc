import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { RuleService, type Rule } from '../../gen/complyd/v1/rule_pb';
import { Button, Checkbox, Code, Group, Stack, Text, Title } from '@mantine/core';
import { ErrorText, Loading } from '../../ui/parts';
import { enumLabel } from '../../ui/format';
import { DataTable, type Col } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';
import { RuleEditor } from './RuleEditor';
import { Drafts } from './Drafts';
import { useSession } from '../../auth/session';

// Rules lists the mandatory AML rules (read-only) and the tenant's CEL rules, which a bank
// administrator creates, edits and switches on or off directly (docs/design/design-choices.md §10), and which
// officers change through drafts published by a second officer (Drafts, docs/guide/rules.md).
export function Rules() {
  const { me } = useSession();
  const admin = me.role === 'BANK_ADMIN';
  const q = useQuery(RuleService.method.listRules, { page: 1, limit: 100 });
  const controls = useQuery(RuleService.method.getRuleControls, {});
  const direct = admin && controls.data?.draftsRequired === false;
  // Drafting is an officer's (the API refuses analysts and the auditor).
  const canDraft = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'].includes(me.role);
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const [drafting, setDrafting] = useState<Rule | 'new' | null>(null);
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const mandatory = q.data.items.filter((r) => r.mandatory);
  const custom = q.data.items.filter((r) => !r.mandatory);
  const done = () => { setEditing(null); void q.refetch(); };
  const refetch = () => void q.refetch();
  const customCols: Col<Rule>[] = [
    { id: 'name', header: 'Name', rowHeader: true, cell: (r) => r.name, sort: (r) => r.name },
    { id: 'expr', header: 'Expression', cell: (r) => <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{r.expression}</Code> },
    { id: 'score', header: 'Score', cell: (r) => String(r.score), sort: (r) => r.score },
    { id: 'outcome', header: 'Outcome', cell: (r) => <StatusBadge value={r.outcome} />, sort: (r) => r.outcome },
    { id: 'version', header: 'Version', cell: (r) => `v${r.version}`, sort: (r) => r.version },
    { id: 'enabled', header: 'Enabled', cell: (r) => <Enabled r={r} direct={direct} onDone={refetch} />, sort: (r) => Number(r.enabled) },
    { id: 'actions', header: 'Actions', cell: (r) => (
      <Stack gap={4} align="flex-start">
        {direct && <Button size="xs" variant="default" onClick={() => setEditing(r)}>Edit {r.name}</Button>}
        {canDraft && <Button size="xs" variant="light" onClick={() => setDrafting(r)}>Draft a new version of {r.name}</Button>}
      </Stack>
    ) },
  ];
  const mandatoryCols: Col<Rule>[] = [
    { id: 'id', header: 'Id', rowHeader: true, cell: (r) => r.id, sort: (r) => r.id },
    { id: 'name', header: 'Name', cell: (r) => r.name, sort: (r) => r.name },
    { id: 'expr', header: 'Expression', cell: (r) => <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{r.expression}</Code>, hidden: false },
    { id: 'score', header: 'Score', cell: (r) => String(r.score), sort: (r) => r.score },
    { id: 'outcome', header: 'Outcome', cell: (r) => <StatusBadge value={r.outcome} />, sort: (r) => r.outcome },
    { id: 'actions', header: 'Actions taken', cell: (r) => r.actions.map((a) => enumLabel(a)).join(', ') || '—' },
  ];
  return (
    <Stack component="section" aria-labelledby="rules-h" gap="md">
      <Title order={1} id="rules-h">Rules</Title>
      {q.data.total > q.data.items.length && <Text c="orange.9" size="sm">Showing the first {q.data.items.length} of {q.data.total} rules.</Text>}
      <Title order={2} size="h3">Custom rules (CEL)</Title>
      {editing ? <RuleEditor key={editing === 'new' ? 'new' : editing.id} rule={editing === 'new' ? undefined : editing} onDone={done} onCancel={() => setEditing(null)} />
        : (direct || canDraft) && (
          <Group gap="sm">
            {direct && <Button onClick={() => setEditing('new')}>New rule</Button>}
            {canDraft && <Button variant="light" onClick={() => setDrafting('new')}>Draft a rule</Button>}
          </Group>
        )}
      <DataTable label="Custom rules" rows={custom} cols={customCols} rowKey={(r) => r.id} rowLabel={(r) => `${r.name} v${r.version}`} empty="No custom rules yet." />
      <Drafts newDraftOf={drafting} onDrafted={() => { setDrafting(null); void q.refetch(); }} />
      <Title order={2} size="h3">Mandatory AML rules</Title>
      <Text size="sm" c="gray.7">Always active; they cannot be changed or disabled.</Text>
      <DataTable label="Mandatory rules" rows={mandatory} cols={mandatoryCols} rowKey={(r) => r.id} />
    </Stack>
  );
}

// Enabled switches a custom rule on or off at once (a BANK_ADMIN while drafts are not required);
// for everyone else it says whether the rule is on.
function Enabled({ r, direct, onDone }: { r: Rule; direct: boolean; onDone: () => void }) {
  const update = useMutation(RuleService.method.updateRule, { onSuccess: onDone });
  if (!direct) return <>{r.enabled ? 'Yes' : 'No'}</>;
  return (
    <>
      <Checkbox label={`Enabled: ${r.name}`} checked={r.enabled} disabled={update.isPending} onChange={(e) => update.mutate({ id: r.id, enabled: e.currentTarget.checked })} />
      <ErrorText error={update.error} />
    </>
  );
}
