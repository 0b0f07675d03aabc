import { useState } from 'react';
import type { EvidenceCase, EvidenceCheck } from '../gen/complyd/v1/evidence_pb';
import { checkText } from './ApplicationEvidence';
import { Button, Group, NativeSelect, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { ErrorText } from './parts';
import { plural } from './format';

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
    <Paper withBorder p="md" component="section" aria-labelledby="decision-h">
      <Stack gap="sm">
        <Title order={2} size="h3" id="decision-h">Decision</Title>
        <NativeSelect label="Risk level" value={risk} onChange={(e) => setRisk(e.currentTarget.value)} maw={240}
          data={[{ value: 'LOW', label: 'Low' }, { value: 'MEDIUM', label: 'Medium' }, { value: 'HIGH', label: 'High' }]} />
        <Textarea label="Decision reason" autosize minRows={2} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        {open && evidenceRequired && (
          <Text role="note" size="sm">This tenant approves only with the evidence: {plural(checks.length, 'check')} and {plural(cases.length, 'open case')} stand in the way.</Text>
        )}
        <Group gap="sm">
          {!(open && evidenceRequired) && <Button onClick={() => (open ? (setWhy(reason), setConfirming(true)) : onApprove(risk, reason))}>Approve application</Button>}
          <Button color="red.9" variant="outline" onClick={() => onReject(risk, reason)}>Reject application</Button>
        </Group>
        {confirming && (
          <Paper withBorder shadow="md" p="md" role="dialog" aria-modal="true" aria-labelledby="override-h" className="dialog">
            <Stack gap="xs">
              <Title order={3} size="h4" id="override-h">Approve over open evidence</Title>
              <Text size="sm">The approval will record these as overridden, with your reason:</Text>
              <ul aria-label="Overridden">{checks.map((c, i) => <li key={i}>{checkText(c)}</li>)}{cases.map((c) => <li key={c.id}>{c.caseNumber}: {c.title}</li>)}</ul>
              <Textarea label="Override reason" autosize minRows={2} value={why} onChange={(e) => setWhy(e.currentTarget.value)} />
              <Group gap="sm">
                <Button disabled={why.trim() === ''} onClick={() => { setConfirming(false); onApprove(risk, why.trim()); }}>Approve with override</Button>
                <Button variant="default" onClick={() => setConfirming(false)}>Cancel</Button>
              </Group>
            </Stack>
          </Paper>
        )}
        <ErrorText error={error} />
      </Stack>
    </Paper>
  );
}
