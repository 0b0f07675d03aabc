import { useState, type FormEvent } from 'react';
import { useMutation } from '@connectrpc/connect-query';
import { Alert, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { AuthService } from '../gen/complyd/v1/auth_pb';
import { ErrorText } from '../ui/parts';

// SignIn asks for the cookie form of login (useCookies): the session lives in HttpOnly,
// SameSite=Strict cookies. When the officer has MFA, a second step asks for the TOTP code.
// onSignedIn receives the access cookie's life in seconds, for the silent refresh.
export function SignIn({ message, onSignedIn, dialog }: { message: string; onSignedIn: (expiresIn: number) => void | Promise<void>; dialog?: boolean }) {
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
      const res = await verify.mutateAsync({ tempToken, code });
      await onSignedIn(res.expiresIn ?? 0);
      return;
    }
    const res = await login.mutateAsync({ email, password, useCookies: true });
    if (res.mfaRequired || res.mfaSetupRequired) {
      setTempToken(res.tempToken ?? '');
      setInfo(res.mfaSetupRequired ? 'Your institution requires MFA: enrol through the API, then enter a code.' : 'Enter the code from your authenticator app.');
      return;
    }
    setPassword('');
    await onSignedIn(res.expiresIn ?? 0);
  };
  const form = (
    <Stack gap="sm">
      {message && <Alert role="alert" color="yellow" variant="light"><Text size="sm" c="dark.8">{message}</Text></Alert>}
      <form onSubmit={(e) => void submit(e).catch(() => {})}>
        <Stack gap="sm">
          {!tempToken ? (
            <>
              <TextInput label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
              <TextInput label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
              <ErrorText error={login.error} />
              <Button type="submit" loading={login.isPending}>Sign in</Button>
            </>
          ) : (
            <>
              <Text>{info}</Text>
              <TextInput label="Authentication code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required autoFocus value={code} onChange={(e) => setCode(e.currentTarget.value)} />
              <ErrorText error={verify.error} />
              <Button type="submit" loading={verify.isPending}>Verify code</Button>
            </>
          )}
        </Stack>
      </form>
    </Stack>
  );
  if (dialog) return form;
  return (
    <main>
      <Paper maw={380} mx="auto" mt="10vh" p="lg" withBorder shadow="sm">
        <Title order={1} size="h2">complyd</Title>
        <Title order={2} size="h4" mb="sm">Sign in</Title>
        {form}
      </Paper>
    </main>
  );
}
