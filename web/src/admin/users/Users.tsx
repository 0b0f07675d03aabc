import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { UserService, type User } from '../../gen/complyd/v1/user_pb';
import { AccountService } from '../../gen/complyd/v1/account_pb';
import { useSession } from '../../auth/session';
import { ErrorText, Pager } from '../../ui/parts';
import { dateTime, enumLabel as label } from '../../ui/format';
import { useZone } from '../../ui/zone';
import { DataTable, type Col } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';

export const roles = ['BANK_ADMIN', 'COMPLIANCE_OFFICER', 'ANALYST', 'AUDITOR'];
const roleOptions = roles.map((r) => ({ value: r, label: label(r) }));

// Users is the BANK_ADMIN's user management: create a user (the API mails the welcome), change a
// role, deactivate or reactivate, and reset another user's MFA.
export function Users() {
  const [page, setPage] = useState(1);
  const zone = useZone();
  const q = useQuery(UserService.method.listUsers, { page, limit: 50 });
  const done = () => void q.refetch();
  const name = (u: User) => `${u.firstName} ${u.lastName}`;
  const cols: Col<User>[] = [
    { id: 'name', header: 'Name', rowHeader: true, cell: name, sort: (u) => `${u.lastName} ${u.firstName}` },
    { id: 'email', header: 'Email', cell: (u) => u.email, sort: (u) => u.email },
    { id: 'role', header: 'Role', cell: (u) => <RoleSelect u={u} onDone={done} />, sort: (u) => u.role },
    { id: 'status', header: 'Status', cell: (u) => <StatusBadge value={u.isActive ? 'ACTIVE' : 'INACTIVE'} label={u.isActive ? 'Active' : 'Deactivated'} />, sort: (u) => Number(u.isActive) },
    { id: 'mfa', header: 'MFA', cell: (u) => (u.mfaEnabled ? 'Enrolled' : 'Not enrolled'), sort: (u) => Number(u.mfaEnabled) },
    { id: 'last', header: 'Last sign-in', cell: (u) => dateTime(u.lastLoginAt, zone), sort: (u) => Number(u.lastLoginAt?.seconds ?? 0) },
    { id: 'actions', header: 'Actions', cell: (u) => <UserActions u={u} onDone={done} /> },
  ];
  return (
    <Stack component="section" aria-labelledby="users-h" gap="md">
      <Title order={1} id="users-h">Users and roles</Title>
      <CreateUser onDone={done} />
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="Users" rows={q.data?.items} loading={q.isPending} cols={cols} rowKey={(u) => u.id} rowLabel={name} empty="No users." />
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
    </Stack>
  );
}

// CreateUser clears after a created user; a refused one keeps what was typed.
function CreateUser({ onDone }: { onDone: () => void }) {
  const empty = { email: '', password: '', firstName: '', lastName: '', role: 'ANALYST' };
  const [f, setF] = useState(empty);
  const create = useMutation(UserService.method.createUser, { onSuccess: () => { setF(empty); onDone(); } });
  const set = (k: keyof typeof empty) => (e: { currentTarget: { value: string } }) => setF({ ...f, [k]: e.currentTarget.value });
  return (
    <form aria-label="Create a user" onSubmit={(e) => { e.preventDefault(); create.mutate(f); }}>
      <Title order={2} size="h3" mb="xs">Create a user</Title>
      <Group gap="sm" align="end" wrap="wrap">
        <TextInput label="First name" required value={f.firstName} onChange={set('firstName')} />
        <TextInput label="Last name" required value={f.lastName} onChange={set('lastName')} />
        <TextInput label="New user's email" required type="email" value={f.email} onChange={set('email')} />
        <TextInput label="Initial password" type="password" required minLength={8} value={f.password} onChange={set('password')} w={200} />
        <NativeSelect label="Role" value={f.role} onChange={set('role')} data={roleOptions} />
        <Button type="submit" loading={create.isPending}>Create user</Button>
      </Group>
      {create.isSuccess && <Text role="status" size="sm" mt={4}>User created; the welcome email is queued.</Text>}
      <ErrorText error={create.error} />
    </form>
  );
}

function RoleSelect({ u, onDone }: { u: User; onDone: () => void }) {
  const { me } = useSession();
  const update = useMutation(UserService.method.updateUser, { onSuccess: onDone });
  const who = `${u.firstName} ${u.lastName}`;
  // The administrator's own role is not offered: the API refuses a change to oneself.
  if (u.id === me.id) return label(u.role);
  return (
    <>
      <NativeSelect aria-label={`Role of ${who}`} size="xs" value={u.role} disabled={update.isPending}
        onChange={(e) => update.mutate({ id: u.id, role: e.currentTarget.value })} data={roleOptions} />
      <ErrorText error={update.error} />
    </>
  );
}

function UserActions({ u, onDone }: { u: User; onDone: () => void }) {
  const { me } = useSession();
  const update = useMutation(UserService.method.updateUser, { onSuccess: onDone });
  const reset = useMutation(AccountService.method.resetUserMfa, { onSuccess: onDone });
  if (u.id === me.id) return <Text size="sm" c="gray.7">You</Text>;
  const who = `${u.firstName} ${u.lastName}`;
  return (
    <Stack gap={4} align="flex-start">
      {u.isActive
        ? <Button size="xs" variant="default" onClick={() => update.mutate({ id: u.id, isActive: false })}>Deactivate {who}</Button>
        : <Button size="xs" variant="default" onClick={() => update.mutate({ id: u.id, isActive: true })}>Reactivate {who}</Button>}
      {u.mfaEnabled && <Button size="xs" variant="default" onClick={() => reset.mutate({ id: u.id })}>Reset MFA of {who}</Button>}
      <ErrorText error={update.error ?? reset.error} />
    </Stack>
  );
}
