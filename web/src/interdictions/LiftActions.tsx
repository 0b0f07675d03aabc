import { useState } from 'react';
import { useMutation } from '@connectrpc/connect-query';
import { Code, ConnectError } from '@connectrpc/connect';
import { InterdictionService } from '../gen/complyd/v1/interdiction_pb';
import type { Interdiction } from '../gen/complyd/v1/case_pb';
import { useSession } from '../auth/session';
import { ErrorText, Field, when } from '../ui/parts';

// LiftActions is the lift of one interdiction: a reason to ask (CONFIRMED), then approve or
// reject by another officer (LIFT_REQUESTED). Four eyes: the requester (liftRequestedBy, from the
// API) is not offered approve or reject, only told that another officer decides; the API refuses
// them anyway, and a refusal is shown with what it means.
export function LiftActions({ i, onChange }: { i: Interdiction; onChange: () => void }) {
  const { me } = useSession();
  const [text, setText] = useState('');
  const done = { onSuccess: () => { setText(''); onChange(); } };
  const ask = useMutation(InterdictionService.method.requestInterdictionLift, done);
  const approve = useMutation(InterdictionService.method.approveInterdictionLift, done);
  const reject = useMutation(InterdictionService.method.rejectInterdictionLift, done);
  const err = ask.error ?? approve.error ?? reject.error;
  const fourEyes = err && ConnectError.from(err).code === Code.PermissionDenied && i.status === 'LIFT_REQUESTED';
  if (i.status === 'LIFTED') return <span>lifted {when(i.liftedAt)}{i.liftReason && <>: {i.liftReason}</>}</span>;
  if (i.status === 'CONFIRMED') return (
    <form aria-label={`Lift ${i.id}`} className="filters" onSubmit={(e) => { e.preventDefault(); ask.mutate({ id: i.id, reason: text }); }}>
      <Field label="Lift reason"><input required maxLength={10000} value={text} onChange={(e) => setText(e.target.value)} /></Field>
      <button type="submit" disabled={ask.isPending}>Request lift</button>
      <ErrorText error={ask.error} />
    </form>
  );
  if (i.status !== 'LIFT_REQUESTED') return <span className="muted">awaiting the bank's confirmation</span>;
  const mine = i.liftRequestedBy === me.id;
  return (
    <form aria-label={`Decide lift ${i.id}`} className="filters" onSubmit={(e) => e.preventDefault()}>
      <p>Lift asked {when(i.liftRequestedAt)}{mine && ' by you'}: {i.liftReason}</p>
      {mine ? <p role="note" className="muted">Four eyes: you asked for this lift, so another officer approves or rejects it.</p> : <>
        <Field label="Note or rejection reason"><input maxLength={10000} value={text} onChange={(e) => setText(e.target.value)} /></Field>
        <button type="button" disabled={approve.isPending} onClick={() => approve.mutate({ id: i.id, note: text || undefined })}>Approve lift</button>
        <button type="button" disabled={reject.isPending || text === ''} onClick={() => reject.mutate({ id: i.id, reason: text })}>Reject lift</button>
      </>}
      {fourEyes && <p role="alert" className="error">Four eyes: the officer who asked for this lift cannot approve or reject it; another officer must.</p>}
      <ErrorText error={err} />
    </form>
  );
}
