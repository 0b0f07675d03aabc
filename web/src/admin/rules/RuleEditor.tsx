import { useEffect, useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { RuleService, type Rule } from '../../gen/complyd/v1/rule_pb';
import { Button, Checkbox, Group, NativeSelect, Paper, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { ErrorText } from '../../ui/parts';
import { enumLabel } from '../../ui/format';
import { Backtest } from './Backtest';

const outcomes = ['APPROVE', 'REVIEW', 'ESCALATE', 'BLOCK'];

// useDebounced returns v once it has not changed for ms: the expression is compiled by the API
// as it is typed, but not on every keystroke.
function useDebounced<T>(v: T, ms: number): T {
  const [d, setD] = useState(v);
  useEffect(() => {
    const t = setTimeout(() => setD(v), ms);
    return () => clearTimeout(t);
  }, [v, ms]);
  return d;
}

// RuleEditor creates or edits a custom rule. The expression is checked by the API's compiler as
// it is typed, and the draft can be back-tested over stored transactions before it is saved.
export function RuleEditor({ rule, onDone, onCancel }: { rule?: Rule; onDone: () => void; onCancel: () => void }) {
  const [name, setName] = useState(rule?.name ?? '');
  const [description, setDescription] = useState(rule?.description ?? '');
  const [expression, setExpression] = useState(rule?.expression ?? '');
  const [score, setScore] = useState(rule?.score ?? 50);
  const [outcome, setOutcome] = useState(rule?.outcome ?? 'REVIEW');
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const draft = useDebounced(expression, 300);
  const check = useQuery(RuleService.method.validateRuleExpression, { expression: draft }, { enabled: draft.trim() !== '' });
  const create = useMutation(RuleService.method.createRule, { onSuccess: onDone });
  const update = useMutation(RuleService.method.updateRule, { onSuccess: onDone });
  const save = () => {
    const body = { name, description, expression, score, outcome, enabled };
    if (rule) update.mutate({ id: rule.id, ...body });
    else create.mutate(body);
  };
  const checking = draft !== expression || check.isFetching;
  return (
    <Paper withBorder p="md" component="form" aria-label={rule ? `Edit rule ${rule.name}` : 'New rule'} onSubmit={(e: React.FormEvent) => { e.preventDefault(); save(); }}>
      <Stack gap="sm">
        <TextInput label="Rule name" required maxLength={200} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="Description" maxLength={2000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <Textarea label="CEL expression" required autosize minRows={3} aria-describedby="expr-check" styles={{ input: { fontFamily: 'monospace' } }}
          value={expression} onChange={(e) => setExpression(e.currentTarget.value)} />
        <Text size="sm" id="expr-check" role="status" data-testid="expr-check">
          {expression.trim() === '' ? 'Write a bool expression over tx.* and ctx.*, e.g. ctx.amountNgnKobo > naira(1000000).'
            : checking ? 'Checking…' : check.isError ? '' : check.data?.valid ? 'Expression compiles.' : `Does not compile: ${check.data?.message ?? ''}`}
        </Text>
        <ErrorText error={check.error} />
        <Group gap="sm" align="end" wrap="wrap">
          <TextInput label="Score (0 to 100)" type="number" min={0} max={100} w={140} value={String(score)} onChange={(e) => setScore(Number(e.currentTarget.value))} />
          <NativeSelect label="Outcome when it fires" value={outcome} onChange={(e) => setOutcome(e.currentTarget.value)} data={outcomes.map((o) => ({ value: o, label: enumLabel(o) }))} />
          <Checkbox label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} mb={8} />
        </Group>
        <Backtest expression={expression} ready={!checking && !!check.data?.valid} />
        <Group gap="sm">
          <Button type="submit" loading={create.isPending || update.isPending}>Save rule</Button>
          <Button variant="default" onClick={onCancel}>Cancel</Button>
        </Group>
        <ErrorText error={create.error ?? update.error} />
      </Stack>
    </Paper>
  );
}
