import { useState } from 'react';
import { useMutation } from '@connectrpc/connect-query';
import { Code, ConnectError } from '@connectrpc/connect';
import { InterdictionService } from '../gen/complyd/v1/interdiction_pb';
import type { Interdiction } from '../gen/complyd/v1/case_pb';
import { useSession } from '../auth/session';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { ErrorText } from '../ui/parts';
import { dateTime } from '../ui/format';
import { useZone } from '../ui/zone';

// LiftActions is the lift of one interdiction: a reason to ask (CONFIRMED), then approve or
// reject by another officer (LIFT_REQUESTED). Four eyes: the requester (liftRequestedBy, from the
// API) is not offered approve or reject, only told that another officer decides; the API refuses
// them anyway, and a refusal is shown with what it means.
export function LiftActions({ i, onChange }: { i: Interdiction; onChange: () => void }) {
  const { me } = useSession();
  const zone = useZone();
  const [text, setText] = useState('');
  const done = { onSuccess: () => { setText(''); onChange(); } };
  const ask = useMutation(InterdictionService.method.requestInterdictionLift, done);
  const approve = useMutation(InterdictionService.method.approveInterdictionLift, done);
  const reject = useMutation(InterdictionService.method.rejectInterdictionLift, done);
  const err = ask.error ?? approve.error ?? reject.error;
  const fourEyes = err && ConnectError.from(err).code === Code.PermissionDenied && i.status === 'LIFT_REQUESTED';
  if (i.status === 'LIFTED') return <span>lifted {dateTime(i.liftedAt, zone)}{i.liftReason && <>: {i.liftReason}</>}</span>;
  if (i.status === 'CONFIRMED') return (
    <form aria-label={`Lift ${i.id}`} onSubmit={(e) => { e.preventDefault(); ask.mutate({ id: i.id, reason: text }); }}>
      <Group gap="xs" align="end" wrap="wrap">
        <TextInput label="Lift reason" size="xs" required maxLength={10000} value={text} onChange={(e) => setText(e.currentTarget.value)} />
        <Button type="submit" size="xs" loading={ask.isPending}>Request lift</Button>
      </Group>
      <ErrorText error={ask.error} />
    </form>
  );
  if (i.status !== 'LIFT_REQUESTED') return <Text size="sm" c="gray.7">awaiting the bank's confirmation</Text>;
  const mine = i.liftRequestedBy === me.id;
  return (
    <form aria-label={`Decide lift ${i.id}`} onSubmit={(e) => e.preventDefault()}>
      <Text size="sm">Lift asked {dateTime(i.liftRequestedAt, zone)}{mine && ' by you'}: {i.liftReason}</Text>
      {mine ? <Text role="note" size="sm" c="gray.7">Four eyes: you asked for this lift, so another officer approves or rejects it.</Text> : (
        <Group gap="xs" align="end" wrap="wrap">
          <TextInput label="Note or rejection reason" size="xs" maxLength={10000} value={text} onChange={(e) => setText(e.currentTarget.value)} />
          <Button type="button" size="xs" loading={approve.isPending} onClick={() => approve.mutate({ id: i.id, note: text || undefined })}>Approve lift</Button>
          <Button type="button" size="xs" color="red.8" variant="outline" loading={reject.isPending} disabled={text === ''} onClick={() => reject.mutate({ id: i.id, reason: text })}>Reject lift</Button>
        </Group>
      )}
      {fourEyes && <Text role="alert" size="sm" c="red.9" fw={700}>Four eyes: the officer who asked for this lift cannot approve or reject it; another officer must.</Text>}
      <ErrorText error={err} />
    </form>
  );
}
