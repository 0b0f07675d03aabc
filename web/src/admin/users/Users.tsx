import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { UserService, type User } from '../../gen/complyd/v1/user_pb';
import { AccountService } from '../../gen/complyd/v1/account_pb';
import { useSession } from '../../auth/session';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../../ui/parts';
import { enumLabel as label } from '../../ui/format';

export const roles = ['BANK_ADMIN', 'COMPLIANCE_OFFICER', 'ANALYST', 'AUDITOR'];

// Users is the BANK_ADMIN's user management: create a user (the API mails the welcome), change a
// role, deactivate or reactivate, and reset another user's MFA.
export function Users() {
  const [page, setPage] = useState(1);
  const q = useQuery(UserService.method.listUsers, { page, limit: 50 });
  return (
    <section aria-labelledby="users-h">
      <h1 id="users-h">Users and roles</h1>
      <CreateUser onDone={() => void q.refetch()} />
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.items.length === 0 ? <Empty>No users.</Empty> : (
        <table aria-label="Users">
          <thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Status</th><th>MFA</th><th>Last sign-in</th><th>Actions</th></tr></thead>
          <tbody>{q.data.items.map((u) => <UserRow key={u.id} u={u} onDone={() => void q.refetch()} />)}</tbody>
        </table>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </section>
  );
}

function CreateUser({ onDone }: { onDone: () => void }) {
  const empty = { email: '', password: '', firstName: '', lastName: '', role: 'ANALYST' };
  const [f, setF] = useState(empty);
  const create = useMutation(UserService.method.createUser, { onSuccess: () => { setF(empty); onDone(); } });
  const set = (k: keyof typeof empty) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  return (
    <form aria-label="Create a user" className="filters" onSubmit={(e) => { e.preventDefault(); create.mutate(f); }}>
      <Field label="First name"><input required value={f.firstName} onChange={set('firstName')} /></Field>
      <Field label="Last name"><input required value={f.lastName} onChange={set('lastName')} /></Field>
      <Field label="New user's email"><input required type="email" value={f.email} onChange={set('email')} /></Field>
      <Field label="Initial password"><input required minLength={8} type="password" value={f.password} onChange={set('password')} /></Field>
      <Field label="Role"><select value={f.role} onChange={set('role')}>{roles.map((r) => <option key={r} value={r}>{label(r)}</option>)}</select></Field>
      <button type="submit" disabled={create.isPending}>Create user</button>
      {create.isSuccess && <p role="status">User created; the welcome email is queued.</p>}
      <ErrorText error={create.error} />
    </form>
  );
}

function UserRow({ u, onDone }: { u: User; onDone: () => void }) {
  const { me } = useSession();
  const update = useMutation(UserService.method.updateUser, { onSuccess: onDone });
  const reset = useMutation(AccountService.method.resetUserMfa, { onSuccess: onDone });
  const self = u.id === me.id;
  const who = `${u.firstName} ${u.lastName}`;
  return (
    <tr>
      <td>{who}</td><td>{u.email}</td>
      <td>
        <select aria-label={`Role of ${who}`} value={u.role} disabled={self || update.isPending} onChange={(e) => update.mutate({ id: u.id, role: e.target.value })}>
          {roles.map((r) => <option key={r} value={r}>{label(r)}</option>)}
        </select>
      </td>
      <td>{u.isActive ? 'Active' : 'Deactivated'}</td>
      <td>{u.mfaEnabled ? 'Enrolled' : 'Not enrolled'}</td>
      <td>{when(u.lastLoginAt)}</td>
      <td>
        {!self && (u.isActive
          ? <button type="button" onClick={() => update.mutate({ id: u.id, isActive: false })}>Deactivate {who}</button>
          : <button type="button" onClick={() => update.mutate({ id: u.id, isActive: true })}>Reactivate {who}</button>)}
        {!self && u.mfaEnabled && <button type="button" onClick={() => reset.mutate({ id: u.id })}>Reset MFA of {who}</button>}
        <ErrorText error={update.error ?? reset.error} />
      </td>
    </tr>
  );
}
