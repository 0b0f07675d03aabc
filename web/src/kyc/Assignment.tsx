import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { ApplicationAssignmentService } from '../gen/complyd/v1/application_assignment_pb';
import { UserService } from '../gen/complyd/v1/user_pb';
import { useSession } from '../auth/session';
import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { ErrorText } from '../ui/parts';
import { enumWords } from '../ui/format';

// useUsers is the tenant's active users when the caller may list them (an administrator's call;
// for others the pickers offer only "me" and "unassigned").
function useUsers() {
  const { me } = useSession();
  // Only an administrator may list users: no other role's screen makes a call it would be refused.
  const q = useQuery(UserService.method.listUsers, { page: 1, limit: 100 }, { retry: false, enabled: me.role === 'BANK_ADMIN' });
  return (q.data?.items ?? []).filter((u) => u.isActive);
}

// useAssigneeName names an assignee id: "Unassigned" (as the case page and the filter spell it),
// "you", the user's name when listed, else "Another user" (only an administrator lists the users;
// an id is no name for people).
export function useAssigneeName() {
  const { me } = useSession();
  const users = useUsers();
  return (id?: string) => {
    if (!id) return 'Unassigned';
    if (id === me.id) return `${me.firstName} ${me.lastName} (you)`;
    const u = users.find((x) => x.id === id);
    return u ? `${u.firstName} ${u.lastName}` : 'Another user';
  };
}

// AssignedToFilter is the list filter of docs/guide/application-assignment.md: anyone, me,
// unassigned or one user (the value the API takes: "", "me", "unassigned" or a user id).
export function AssignedToFilter({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const users = useUsers();
  return (
    <NativeSelect label="Assigned to" value={value} onChange={(e) => onChange(e.currentTarget.value)}
      data={[{ value: '', label: 'Anyone' }, { value: 'me', label: 'Me' }, { value: 'unassigned', label: 'Unassigned' },
        ...users.map((u) => ({ value: u.id, label: `${u.firstName} ${u.lastName}` }))]} />
  );
}

// Assignment shows who reviews an application and lets an officer take it, assign it to a user
// or unassign it. The API checks who may be assigned (an active officer of the tenant) and its
// refusal is shown as it comes.
export function Assignment({ kind, id, assignedTo, onDone }: { kind: 'kyc' | 'kyb'; id: string; assignedTo?: string; onDone: () => void }) {
  const { me, canAct } = useSession();
  const users = useUsers();
  const name = useAssigneeName();
  const [pick, setPick] = useState('');
  const opts = { onSuccess: () => { setPick(''); onDone(); } };
  const kycAssign = useMutation(ApplicationAssignmentService.method.assignKycApplication, opts);
  const kycUnassign = useMutation(ApplicationAssignmentService.method.unassignKycApplication, opts);
  const kybAssign = useMutation(ApplicationAssignmentService.method.assignKybApplication, opts);
  const kybUnassign = useMutation(ApplicationAssignmentService.method.unassignKybApplication, opts);
  const [assign, unassign] = kind === 'kyc' ? [kycAssign, kycUnassign] : [kybAssign, kybUnassign];
  const officer = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'].includes(me.role);
  return (
    <Group role="group" aria-label="Assignment" gap="sm" align={canAct && officer && users.length > 0 ? 'end' : 'center'} wrap="wrap" mb="md">
      <Text size="sm">Assigned to: <strong data-testid="assignee">{name(assignedTo)}</strong></Text>
      {canAct && officer && <>
        {assignedTo !== me.id && <Button size="sm" variant="light" loading={assign.isPending} onClick={() => assign.mutate({ id, assigneeId: me.id })}>Take it</Button>}
        {users.length > 0 && <>
          <NativeSelect label="Assign to" value={pick} onChange={(e) => setPick(e.currentTarget.value)}
            data={[{ value: '', label: 'Choose…' }, ...users.map((u) => ({ value: u.id, label: `${u.firstName} ${u.lastName} (${enumWords(u.role)})` }))]} />
          <Button size="sm" variant="default" disabled={!pick || assign.isPending} onClick={() => assign.mutate({ id, assigneeId: pick })}>Assign</Button>
        </>}
        {assignedTo && <Button size="sm" variant="default" disabled={unassign.isPending} onClick={() => unassign.mutate({ id })}>Unassign</Button>}
      </>}
      <ErrorText error={assign.error ?? unassign.error} />
    </Group>
  );
}
