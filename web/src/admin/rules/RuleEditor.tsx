import { useEffect, useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { RuleService, type Rule } from '../../gen/complyd/v1/rule_pb';
import { ErrorText, Field } from '../../ui/parts';
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
    <form aria-label={rule ? `Edit rule ${rule.name}` : 'New rule'} className="notes" onSubmit={(e) => { e.preventDefault(); save(); }}>
      <Field label="Rule name"><input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} /></Field>
      <Field label="Description"><input maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} /></Field>
      <Field label="CEL expression">
        <textarea required rows={3} cols={70} aria-describedby="expr-check" value={expression} onChange={(e) => setExpression(e.target.value)} />
      </Field>
      <p id="expr-check" role="status" data-testid="expr-check">
        {expression.trim() === '' ? 'Write a bool expression over tx.* and ctx.*, e.g. ctx.amountNgnKobo > naira(1000000).'
          : checking ? 'Checking…' : check.isError ? '' : check.data?.valid ? 'Expression compiles.' : `Does not compile: ${check.data?.message ?? ''}`}
      </p>
      <ErrorText error={check.error} />
      <Field label="Score (0 to 100)"><input type="number" min={0} max={100} value={score} onChange={(e) => setScore(Number(e.target.value))} /></Field>
      <Field label="Outcome when it fires"><select value={outcome} onChange={(e) => setOutcome(e.target.value)}>{outcomes.map((o) => <option key={o}>{o}</option>)}</select></Field>
      <label><input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled</label>
      <Backtest expression={expression} ready={!checking && !!check.data?.valid} />
      <div>
        <button type="submit" disabled={create.isPending || update.isPending}>Save rule</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
      <ErrorText error={create.error ?? update.error} />
    </form>
  );
}
