import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { createClient } from '@connectrpc/connect';
import { useQueryClient } from '@tanstack/react-query';
import { Modal } from '@mantine/core';
import { AuthService, type Profile } from '../gen/complyd/v1/auth_pb';
import { scheduleRenewal, sessionEvents, stopRenewal, transport } from '../transport';
import { Loading } from '../ui/parts';
import { SignIn } from './SignIn';
import { ZoneContext } from '../ui/zone';
import { defaultZone } from '../ui/format';

// The signed-in officer, and whether they may act (a VIEWER only reads).
type Session = { me: Profile; canAct: boolean; signOut: () => Promise<void> };
const SessionCtx = createContext<Session>(null!);
export const useSession = () => useContext(SessionCtx);

// SessionGate shows the sign-in page until there is a session, then the app. The session is
// renewed silently (transport.ts); when the refresh cookie is refused, a sign-in dialog opens
// over the screen, which stays mounted, so what the officer was typing is still there after
// signing in again (docs/guide/dashboard.md "Sessions").
export function SessionGate({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const [expired, setExpired] = useState(false);
  const me = useQuery(AuthService.method.me, {}, { retry: false, staleTime: 60_000 });
  useEffect(() => {
    sessionEvents.onUnauthenticated = () => setExpired(true);
  }, []);
  if (me.isPending) return <Loading />;
  if (!me.data) {
    return (
      <SignIn
        message=""
        onSignedIn={async (expiresIn) => {
          scheduleRenewal(expiresIn);
          await qc.resetQueries();
        }}
      />
    );
  }
  const signOut = async () => {
    stopRenewal();
    await createClient(AuthService, transport).logout({});
    sessionStorage.clear();
    qc.clear();
    window.location.assign('/');
  };
  const who = me.data.id;
  return (
    <SessionCtx.Provider value={{ me: me.data, canAct: !['AUDITOR', 'VIEWER'].includes(me.data.role), signOut }}>
      <ZoneContext.Provider value={me.data.tenant?.timeZone || defaultZone}>{children}</ZoneContext.Provider>
      <Modal opened={expired} onClose={() => {}} withCloseButton={false} closeOnEscape={false} closeOnClickOutside={false}
        title="Session expired" centered>
        <SignIn
          dialog
          message="Your session expired. Sign in again; what you were typing is kept."
          onSignedIn={async (expiresIn) => {
            scheduleRenewal(expiresIn);
            const again = await createClient(AuthService, transport).me({});
            // Another officer signing in on this screen starts afresh: nothing of the first is kept.
            if (again.id !== who) {
              sessionStorage.clear();
              window.location.assign('/');
              return;
            }
            setExpired(false);
            await qc.invalidateQueries();
          }}
        />
      </Modal>
    </SessionCtx.Provider>
  );
}
