import { useState } from 'react';
import { useMutation } from '@connectrpc/connect-query';
import { Button, Group, NativeSelect, NumberInput, Paper, Stack, TextInput, Textarea, Title } from '@mantine/core';
import { RuleService, type Rule } from '../../gen/complyd/v1/rule_pb';
import { ErrorText } from '../../ui/parts';

const outcomes = ['APPROVE', 'REVIEW', 'ESCALATE', 'BLOCK'];

// DraftEditor drafts a new rule, or a new version of a live one (rule): nothing changes in
// screening until a second officer publishes the draft.
export function DraftEditor({ rule, onDone, onCancel }: { rule?: Rule; onDone: () => void; onCancel: () => void }) {
  const [name, setName] = useState(rule?.name ?? '');
  const [expression, setExpression] = useState(rule?.expression ?? '');
  const [score, setScore] = useState<number>(rule?.score ?? 50);
  const [outcome, setOutcome] = useState(rule?.outcome ?? 'REVIEW');
  const create = useMutation(RuleService.method.createRuleDraft, { onSuccess: onDone });
  return (
    <Paper withBorder p="md" component="form" aria-label={rule ? `Draft a new version of ${rule.name}` : 'New draft'}
      onSubmit={(e: React.FormEvent) => { e.preventDefault(); create.mutate({ ruleId: rule?.id ?? '', name, expression, score, outcome }); }}>
      <Stack gap="sm">
        <Title order={4}>{rule ? `New version of ${rule.name} (from v${rule.version})` : 'New draft rule'}</Title>
        <TextInput label="Draft name" required maxLength={200} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Textarea label="Draft CEL expression" required autosize minRows={2} value={expression} onChange={(e) => setExpression(e.currentTarget.value)} />
        <Group grow>
          <NumberInput label="Draft score" min={0} max={100} value={score} onChange={(v) => setScore(Number(v) || 0)} />
          <NativeSelect label="Draft outcome" data={outcomes} value={outcome} onChange={(e) => setOutcome(e.currentTarget.value)} />
        </Group>
        <ErrorText error={create.error} />
        <Group>
          <Button type="submit" loading={create.isPending}>Save draft</Button>
          <Button variant="default" onClick={onCancel}>Cancel</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
