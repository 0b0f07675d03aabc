import { useState } from 'react';
import type { EvidenceCase, EvidenceCheck } from '../gen/complyd/v1/evidence_pb';
import { checkText } from './ApplicationEvidence';
import { ErrorText, Field } from './parts';

// ApplicationDecision is the approve / reject form of a KYC or KYB application: a risk level and
// a reason, then one of the two buttons. The screen passes what each button calls and the error
// of the last call, so the same form serves both services. An approval over failed or missing
// checks or open cases first asks, in a dialog listing them, for the reason of the override
// (required); when the tenant requires the evidence (evidenceRequired, from the API) there is no
// approval to give until nothing is open.
export function ApplicationDecision({ onApprove, onReject, error, checks, cases, evidenceRequired }: {
  onApprove: (riskLevel: string, reason: string) => void;
  onReject: (riskLevel: string, reason: string) => void;
  error: unknown;
  checks: EvidenceCheck[];
  cases: EvidenceCase[];
  evidenceRequired: boolean;
}) {
  const [reason, setReason] = useState('');
  const [risk, setRisk] = useState('LOW');
  const [confirming, setConfirming] = useState(false);
  const [why, setWhy] = useState('');
  const open = checks.length > 0 || cases.length > 0;
  return (
    <div className="actions">
      <h2>Decision</h2>
      <Field label="Risk level"><select value={risk} onChange={(e) => setRisk(e.target.value)}><option>LOW</option><option>MEDIUM</option><option>HIGH</option></select></Field>
      <Field label="Decision reason"><textarea value={reason} onChange={(e) => setReason(e.target.value)} /></Field>
      {open && evidenceRequired
        ? <p role="note">This tenant approves only with the evidence: {checks.length} check(s) and {cases.length} open case(s) stand in the way.</p>
        : <button type="button" onClick={() => (open ? (setWhy(reason), setConfirming(true)) : onApprove(risk, reason))}>Approve application</button>}
      <button type="button" onClick={() => onReject(risk, reason)}>Reject application</button>
      {confirming && (
        <div role="dialog" aria-modal="true" aria-labelledby="override-h" className="dialog">
          <h3 id="override-h">Approve over open evidence</h3>
          <p>The approval will record these as overridden, with your reason:</p>
          <ul aria-label="Overridden">{checks.map((c, i) => <li key={i}>{checkText(c)}</li>)}{cases.map((c) => <li key={c.id}>{c.caseNumber}: {c.title}</li>)}</ul>
          <Field label="Override reason"><textarea value={why} onChange={(e) => setWhy(e.target.value)} /></Field>
          <button type="button" disabled={why.trim() === ''} onClick={() => { setConfirming(false); onApprove(risk, why.trim()); }}>Approve with override</button>
          <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      )}
      <ErrorText error={error} />
    </div>
  );
}
