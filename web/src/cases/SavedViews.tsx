import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { CaseWorkspaceService } from '../gen/complyd/v1/case_workspace_pb';
import { ErrorText } from '../ui/parts';

// Filters are the queue's filters, as a saved view keeps them.
export type Filters = { status: string; type: string; priority: string; scope: string; sort: string; inboxId: string };

// SavedViews applies, saves and deletes the user's own views of the queue (stored on the
// server, so they follow the user from one browser to the next).
export function SavedViews({ current, onApply }: { current: Filters; onApply: (f: Filters) => void }) {
  const q = useQuery(CaseWorkspaceService.method.listSavedCaseViews, {});
  const [name, setName] = useState('');
  const [pick, setPick] = useState('');
  const save = useMutation(CaseWorkspaceService.method.createSavedCaseView, { onSuccess: (v) => { setName(''); setPick(v.id); void q.refetch(); } });
  const del = useMutation(CaseWorkspaceService.method.deleteSavedCaseView, { onSuccess: () => { setPick(''); void q.refetch(); } });
  const views = q.data?.items ?? [];
  const apply = (id: string) => {
    setPick(id);
    const v = views.find((x) => x.id === id)?.filters;
    if (v) onApply({ status: v.status, type: v.type, priority: v.priority, scope: v.scope || 'queue', sort: v.sort || 'DUE', inboxId: v.inboxId });
  };
  return (
    <Group align="end" gap="xs" wrap="wrap" role="group" aria-label="Saved views">
      <NativeSelect label="Saved view" value={pick} onChange={(e) => apply(e.currentTarget.value)}
        data={[{ value: '', label: views.length ? 'Choose…' : 'None saved' }, ...views.map((v) => ({ value: v.id, label: v.name }))]} />
      {pick && <Button variant="subtle" onClick={() => del.mutate({ id: pick })}>Delete view</Button>}
      <form onSubmit={(e) => { e.preventDefault(); save.mutate({ name, filters: current }); }}>
        <Group align="end" gap="xs">
          <TextInput label="Save these filters as" value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Button type="submit" variant="default" disabled={!name.trim()}>Save view</Button>
        </Group>
      </form>
      <ErrorText error={save.error ?? del.error} />
    </Group>
  );
}
