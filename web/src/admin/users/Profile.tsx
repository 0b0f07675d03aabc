import { useState } from 'react';
import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountService } from '../../gen/complyd/v1/account_pb';
import { useSession } from '../../auth/session';
import { Button, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorText } from '../../ui/parts';
import { Facts } from '../../ui/Facts';
import { enumLabel as label } from '../../ui/format';
import { QrCode } from './QrCode';

// Profile is the signed-in user's own account: who they are, a password change, and MFA
// enrolment (scan the QR code, then prove it with a code).
export function Profile() {
  const { me } = useSession();
  return (
    <Stack component="section" aria-labelledby="me-h" gap="md">
      <Title order={1} id="me-h">My account</Title>
      <Facts items={[
        ['Name', `${me.firstName} ${me.lastName}`],
        ['Email', me.email],
        ['Role', label(me.role)],
        ['MFA', <span data-testid="mfa-state">{me.mfaEnabled ? 'Enrolled' : 'Not enrolled'}</span>],
      ]} />
      <ChangePassword />
      {!me.mfaEnabled && <EnrolMfa />}
    </Stack>
  );
}

function ChangePassword() {
  const [cur, setCur] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation(AccountService.method.changePassword, { onSuccess: () => { setCur(''); setNext(''); } });
  return (
    <form aria-label="Change password" onSubmit={(e) => { e.preventDefault(); change.mutate({ currentPassword: cur, newPassword: next }); }}>
      <Title order={2} size="h3" mb="xs">Change password</Title>
      <Group gap="sm" align="end" wrap="wrap">
        <TextInput label="Current password" type="password" required value={cur} onChange={(e) => setCur(e.currentTarget.value)} />
        <TextInput label="New password (8 characters or more)" type="password" required minLength={8} value={next} onChange={(e) => setNext(e.currentTarget.value)} />
        <Button type="submit" loading={change.isPending}>Change password</Button>
      </Group>
      {change.isSuccess && <Text role="status" size="sm" mt={4}>Password changed.</Text>}
      <ErrorText error={change.error} />
    </form>
  );
}

function EnrolMfa() {
  const qc = useQueryClient();
  const [code, setCode] = useState('');
  const start = useMutation(AccountService.method.startMfaEnrolment);
  const confirm = useMutation(AccountService.method.confirmMfaEnrolment, { onSuccess: () => void qc.invalidateQueries() });
  return (
    <section aria-labelledby="mfa-h">
      <Title order={2} size="h3" id="mfa-h" mb="xs">Two-factor authentication</Title>
      {!start.data ? (
        <Button variant="light" onClick={() => start.mutate({})} loading={start.isPending}>Set up MFA</Button>
      ) : (
        <form aria-label="Confirm MFA" onSubmit={(e) => { e.preventDefault(); confirm.mutate({ secret: start.data.secret, code }); }}>
          <Text size="sm">Scan this code with an authenticator app, or type the key by hand.</Text>
          <QrCode value={start.data.otpauthUrl} label="QR code for your authenticator app" />
          <Text size="sm">Key: <Code data-testid="mfa-secret" style={{ overflowWrap: 'anywhere' }}>{start.data.secret}</Code></Text>
          <Group gap="sm" align="end" wrap="wrap">
            <TextInput label="Code from the app" inputMode="numeric" pattern="[0-9]{6}" required w={160} value={code} onChange={(e) => setCode(e.currentTarget.value)} />
            <Button type="submit" loading={confirm.isPending}>Confirm MFA</Button>
          </Group>
        </form>
      )}
      <ErrorText error={start.error ?? confirm.error} />
    </section>
  );
}
