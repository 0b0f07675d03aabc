import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AuthService, type Profile } from '../gen/complyd/v1/auth_pb';
import { sessionEvents } from '../transport';
import { Loading } from '../ui/parts';
import { SignIn } from './SignIn';

// The signed-in officer, and whether they may act (a VIEWER only reads).
type Session = { me: Profile; canAct: boolean; signOut: () => Promise<void> };
const SessionCtx = createContext<Session>(null!);
export const useSession = () => useContext(SessionCtx);

export function SessionGate({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const [expired, setExpired] = useState(false);
  const me = useQuery(AuthService.method.me, {}, { retry: false, staleTime: 60_000 });
  useEffect(() => {
    sessionEvents.onUnauthenticated = () => {
      setExpired(true);
      qc.clear();
    };
  }, [qc]);
  if (me.isPending) return <Loading />;
  if (!me.data || expired || me.isError) {
    return (
      <SignIn
        message={expired ? 'Your session expired. Sign in again; your unsaved note is kept.' : ''}
        onSignedIn={async () => {
          setExpired(false);
          await qc.resetQueries();
        }}
      />
    );
  }
  const signOut = async () => {
    const { createClient } = await import('@connectrpc/connect');
    const { transport } = await import('../transport');
    await createClient(AuthService, transport).logout({});
    sessionStorage.clear();
    qc.clear();
    window.location.assign('/');
  };
  return <SessionCtx.Provider value={{ me: me.data, canAct: !['AUDITOR', 'VIEWER'].includes(me.data.role), signOut }}>{children}</SessionCtx.Provider>;
}
