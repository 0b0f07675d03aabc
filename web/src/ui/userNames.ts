import { useQuery } from '@connectrpc/connect-query';
import { UserService } from '../gen/complyd/v1/user_pb';
import { useSession } from '../auth/session';

// useUserName names a user id for the screens of a BANK_ADMIN (the only role that may list users;
// for any other role no call is made and the id is named generically): "you" for oneself, the
// user's first and last name, else `unknown`.
export function useUserName(unknown = 'another user') {
  const { me } = useSession();
  const q = useQuery(UserService.method.listUsers, { page: 1, limit: 100 }, { retry: false, enabled: me.role === 'BANK_ADMIN' });
  return (id?: string) => {
    if (!id) return '—';
    if (id === me.id) return 'you';
    const u = q.data?.items.find((x) => x.id === id);
    return u ? `${u.firstName} ${u.lastName}` : unknown;
  };
}
