import type { EvidenceCase, EvidenceCheck, EvidenceOverride } from '../gen/complyd/v1/evidence_pb';
import { enumLabel as label } from './format';
import { Link } from './router';
import { Empty, when } from './parts';

// What a KYC or KYB approval rests on (docs/guide/kyc.md "Evidence and overrides"): the checks the
// application failed or is missing, its open cases, and the approvals given over them. The API
// computes all three; the screen shows them.

export function checkText(c: EvidenceCheck): string {
  return `${label(c.kind)}${c.subject ? ` (${c.subject})` : ''}: ${label(c.status).toLowerCase()} — ${c.detail}`;
}

export function ApplicationEvidence({ checks, cases, overrides }: { checks: EvidenceCheck[]; cases: EvidenceCase[]; overrides: EvidenceOverride[] }) {
  return (
    <section aria-labelledby="evidence-h">
      <h2 id="evidence-h">Evidence</h2>
      {checks.length === 0 ? <Empty>Every check its tier needs has passed.</Empty> : (
        <ul aria-label="Failed and missing checks">{checks.map((c, i) => <li key={i}>{checkText(c)}</li>)}</ul>
      )}
      {cases.length === 0 ? <Empty>No open case.</Empty> : (
        <ul aria-label="Open cases">{cases.map((c) => <li key={c.id}><Link to={`/cases/${c.id}`}>{c.caseNumber}</Link> {label(c.type)}, {label(c.status)}: {c.title}</li>)}</ul>
      )}
      {overrides.length > 0 && (
        <>
          <h3>Overrides</h3>
          <ul aria-label="Overrides">{overrides.map((o) => (
            <li key={o.id}>Approved on {when(o.createdAt)} by {o.actorName || o.actorId || 'an API key'} over {o.checks.length} check(s) and {o.openCases.length} open case(s): {o.notes || '(no notes)'}
              <ul>{o.checks.map((c, i) => <li key={i}>{checkText(c)}</li>)}{o.openCases.map((c) => <li key={c.id}>{c.caseNumber}: {c.title}</li>)}</ul>
            </li>))}
          </ul>
        </>
      )}
    </section>
  );
}
