import { useState } from 'react';
import { useMutation } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { RuleService } from '../../gen/complyd/v1/rule_pb';
import { ErrorText, Field, when } from '../../ui/parts';

const day = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

// Backtest runs the draft expression over the tenant's stored transactions of a period (the API
// stops at 100,000 transactions or 10 seconds and says so) and shows how many it would have
// triggered, with examples.
export function Backtest({ expression, ready }: { expression: string; ready: boolean }) {
  const [from, setFrom] = useState(isoDay(new Date(Date.now() - 30 * day)));
  const [to, setTo] = useState(isoDay(new Date(Date.now() + day)));
  const run = useMutation(RuleService.method.backtestRule);
  const r = run.data;
  return (
    <fieldset>
      <legend>Back-test the draft</legend>
      <div className="filters">
        <Field label="From (UTC day)"><input type="date" required value={from} onChange={(e) => setFrom(e.target.value)} /></Field>
        <Field label="To (UTC day, exclusive)"><input type="date" required value={to} onChange={(e) => setTo(e.target.value)} /></Field>
        <button type="button" disabled={!ready || run.isPending} onClick={() => run.mutate({
          expression, from: timestampFromDate(new Date(from + 'T00:00:00Z')), to: timestampFromDate(new Date(to + 'T00:00:00Z')),
        })}>Run back-test</button>
      </div>
      <ErrorText error={run.error} />
      {r && (
        <div role="region" aria-label="Back-test result">
          <p data-testid="backtest-summary">Would have triggered on {r.matched} of {r.scanned} transactions{r.errors > 0 ? ` (${r.errors} could not be evaluated)` : ''}, in {r.elapsedMs} ms.</p>
          {r.truncated && <p className="warn">The scan stopped at its bound (100,000 transactions or 10 seconds), at {when(r.oldestScanned)}; older transactions of the period were not scanned.</p>}
          {r.examples.length > 0 && (
            <table aria-label="Example transactions">
              <thead><tr><th>External id</th><th>Amount</th><th>Sender</th><th>Outcome then</th><th>When</th></tr></thead>
              <tbody>{r.examples.map((e) => (
                <tr key={e.transactionId}><td>{e.externalId}</td><td>{e.amount} {e.currency}</td><td>{e.senderName}</td><td>{e.outcome}</td><td>{when(e.timestamp)}</td></tr>))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </fieldset>
  );
}
