import type { EvidenceCase, EvidenceCheck, EvidenceOverride } from '../gen/complyd/v1/evidence_pb';
import { Text, Title } from '@mantine/core';
import { enumLabel as label, enumWords, plural, prose } from './format';
import { StatusBadge } from './StatusBadge';
import { Link } from './router';
import { When } from './parts';

// What a KYC or KYB approval rests on (docs/guide/kyc.md "Evidence and overrides"): the checks the
// application failed or is missing, its open cases, and the approvals given over them. The API
// computes all three; the screen shows them.

export function checkText(c: EvidenceCheck): string {
  return `${label(c.kind)}${c.subject ? ` (${c.subject})` : ''}: ${enumWords(c.status)} — ${prose(c.detail)}`;
}

export function ApplicationEvidence({ checks, cases, overrides }: { checks: EvidenceCheck[]; cases: EvidenceCase[]; overrides: EvidenceOverride[] }) {
  return (
    <section aria-labelledby="evidence-h">
      <Title order={2} size="h3" id="evidence-h">Evidence</Title>
      {checks.length === 0 ? <Text size="sm">Every check its tier needs has passed.</Text> : (
        <ul aria-label="Failed and missing checks">{checks.map((c, i) => <li key={i}>{checkText(c)}</li>)}</ul>
      )}
      {cases.length === 0 ? <Text size="sm" mb="sm">No open case on this application.</Text> : (
        <ul aria-label="Open cases">{cases.map((c) => <li key={c.id}><Link to={`/cases/${c.id}`}>{c.caseNumber}</Link> {label(c.type)} <StatusBadge value={c.status} />: {c.title}</li>)}</ul>
      )}
      {overrides.length > 0 && (
        <>
          <Title order={3} size="h4">Overrides</Title>
          <ul aria-label="Overrides">{overrides.map((o) => (
            <li key={o.id}>Approved on <When t={o.createdAt} /> by {o.actorName || (o.actorId ? 'a former user' : 'an API key')} over {plural(o.checks.length, 'check')} and {plural(o.openCases.length, 'open case')}: {o.notes || '(no notes)'}
              <ul>{o.checks.map((c, i) => <li key={i}>{checkText(c)}</li>)}{o.openCases.map((c) => <li key={c.id}>{c.caseNumber}: {c.title}</li>)}</ul>
            </li>))}
          </ul>
        </>
      )}
    </section>
  );
}
