import { useState, type FormEvent } from 'react';
import { useMutation } from '@connectrpc/connect-query';
import { AuthService } from '../gen/complyd/v1/auth_pb';
import { ErrorText, Field } from '../ui/parts';

// SignIn asks for the cookie form of login (useCookies): the session lives in HttpOnly,
// SameSite=Strict cookies. When the officer has MFA, a second step asks for the TOTP code.
export function SignIn({ message, onSignedIn }: { message: string; onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [tempToken, setTempToken] = useState('');
  const [info, setInfo] = useState('');
  const login = useMutation(AuthService.method.login);
  const verify = useMutation(AuthService.method.verifyMfa);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (tempToken) {
      await verify.mutateAsync({ tempToken, code });
      onSignedIn();
      return;
    }
    const res = await login.mutateAsync({ email, password, useCookies: true });
    if (res.mfaRequired || res.mfaSetupRequired) {
      setTempToken(res.tempToken ?? '');
      setInfo(res.mfaSetupRequired ? 'Your institution requires MFA: enrol through the API, then enter a code.' : 'Enter the code from your authenticator app.');
      return;
    }
    onSignedIn();
  };
  return (
    <main className="signin">
      <h1>complyd</h1>
      <h2>Sign in</h2>
      {message && <p role="alert" className="warn">{message}</p>}
      <form onSubmit={(e) => void submit(e).catch(() => {})}>
        {!tempToken ? (
          <>
            <Field label="Email"><input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} /></Field>
            <Field label="Password"><input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} /></Field>
            <ErrorText error={login.error} />
            <button type="submit" disabled={login.isPending}>Sign in</button>
          </>
        ) : (
          <>
            <p>{info}</p>
            <Field label="Authentication code"><input inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required autoFocus value={code} onChange={(e) => setCode(e.target.value)} /></Field>
            <ErrorText error={verify.error} />
            <button type="submit" disabled={verify.isPending}>Verify code</button>
          </>
        )}
      </form>
    </main>
  );
}
