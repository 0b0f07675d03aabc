import { useState } from 'react';
import { ErrorText, Field } from './parts';

// ApplicationDecision is the approve / reject form of a KYC or KYB application: a risk level and
// a reason, then one of the two buttons. The screen passes what each button calls and the error
// of the last call, so the same form serves both services.
export function ApplicationDecision({ onApprove, onReject, error }: {
  onApprove: (riskLevel: string, reason: string) => void;
  onReject: (riskLevel: string, reason: string) => void;
  error: unknown;
}) {
  const [reason, setReason] = useState('');
  const [risk, setRisk] = useState('LOW');
  return (
    <div className="actions">
      <h2>Decision</h2>
      <Field label="Risk level"><select value={risk} onChange={(e) => setRisk(e.target.value)}><option>LOW</option><option>MEDIUM</option><option>HIGH</option></select></Field>
      <Field label="Decision reason"><textarea value={reason} onChange={(e) => setReason(e.target.value)} /></Field>
      <button type="button" onClick={() => onApprove(risk, reason)}>Approve application</button>
      <button type="button" onClick={() => onReject(risk, reason)}>Reject application</button>
      <ErrorText error={error} />
    </div>
  );
}
