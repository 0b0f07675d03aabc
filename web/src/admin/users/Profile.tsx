import { useState } from 'react';
import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountService } from '../../gen/complyd/v1/account_pb';
import { useSession } from '../../auth/session';
import { ErrorText, Field } from '../../ui/parts';
import { enumLabel as label } from '../../ui/format';
import { QrCode } from './QrCode';

// Profile is the signed-in user's own account: who they are, a password change, and MFA
// enrolment (scan the QR code, then prove it with a code).
export function Profile() {
  const { me } = useSession();
  return (
    <section aria-labelledby="me-h">
      <h1 id="me-h">My account</h1>
      <dl className="facts">
        <dt>Name</dt><dd>{me.firstName} {me.lastName}</dd>
        <dt>Email</dt><dd>{me.email}</dd>
        <dt>Role</dt><dd>{label(me.role)}</dd>
        <dt>MFA</dt><dd data-testid="mfa-state">{me.mfaEnabled ? 'Enrolled' : 'Not enrolled'}</dd>
      </dl>
      <ChangePassword />
      {!me.mfaEnabled && <EnrolMfa />}
    </section>
  );
}

function ChangePassword() {
  const [cur, setCur] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation(AccountService.method.changePassword, { onSuccess: () => { setCur(''); setNext(''); } });
  return (
    <form aria-label="Change password" onSubmit={(e) => { e.preventDefault(); change.mutate({ currentPassword: cur, newPassword: next }); }}>
      <h2>Change password</h2>
      <Field label="Current password"><input type="password" required value={cur} onChange={(e) => setCur(e.target.value)} /></Field>
      <Field label="New password (8 characters or more)"><input type="password" required minLength={8} value={next} onChange={(e) => setNext(e.target.value)} /></Field>
      <button type="submit" disabled={change.isPending}>Change password</button>
      {change.isSuccess && <p role="status">Password changed.</p>}
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
      <h2 id="mfa-h">Two-factor authentication</h2>
      {!start.data ? (
        <button type="button" onClick={() => start.mutate({})} disabled={start.isPending}>Set up MFA</button>
      ) : (
        <form aria-label="Confirm MFA" onSubmit={(e) => { e.preventDefault(); confirm.mutate({ secret: start.data.secret, code }); }}>
          <p>Scan this code with an authenticator app, or type the key by hand.</p>
          <QrCode value={start.data.otpauthUrl} label="QR code for your authenticator app" />
          <p>Key: <code data-testid="mfa-secret">{start.data.secret}</code></p>
          <Field label="Code from the app"><input inputMode="numeric" pattern="[0-9]{6}" required value={code} onChange={(e) => setCode(e.target.value)} /></Field>
          <button type="submit" disabled={confirm.isPending}>Confirm MFA</button>
        </form>
      )}
      <ErrorText error={start.error ?? confirm.error} />
    </section>
  );
}
