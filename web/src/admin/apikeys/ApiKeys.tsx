import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Button, Code, Group, Stack, TextInput, Title } from '@mantine/core';
import { AuthService, type ApiKey } from '../../gen/complyd/v1/auth_pb';
import { ErrorText } from '../../ui/parts';
import { CopySecret } from '../../ui/CopySecret';
import { dateTime } from '../../ui/format';
import { useZone } from '../../ui/zone';
import { DataTable, type Col } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';

const secs = (t?: { seconds: bigint }) => Number(t?.seconds ?? 0);

// ApiKeys creates (the key shown once), lists and revokes the tenant's API keys. A key acts with
// its creator's current role.
export function ApiKeys() {
  const zone = useZone();
  const q = useQuery(AuthService.method.listApiKeys, {});
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  // The form clears once the key is created; a refused one keeps what was typed.
  const create = useMutation(AuthService.method.createApiKey, { onSuccess: () => { setName(''); setExpires(''); void q.refetch(); } });
  const cols: Col<ApiKey>[] = [
    { id: 'name', header: 'Name', rowHeader: true, cell: (k) => k.name, sort: (k) => k.name },
    { id: 'prefix', header: 'Prefix', cell: (k) => <Code>{k.prefix}</Code> },
    { id: 'created', header: 'Created', cell: (k) => dateTime(k.createdAt, zone), sort: (k) => secs(k.createdAt) },
    { id: 'expires', header: 'Expires', cell: (k) => (k.expiresAt ? dateTime(k.expiresAt, zone) : 'Never'), sort: (k) => secs(k.expiresAt) },
    { id: 'used', header: 'Last used', cell: (k) => (k.lastUsedAt ? dateTime(k.lastUsedAt, zone) : 'Never'), sort: (k) => secs(k.lastUsedAt) },
    { id: 'status', header: 'Status', cell: (k) => <StatusBadge value={k.revokedAt ? 'REVOKED' : 'ACTIVE'} />, sort: (k) => Number(!k.revokedAt) },
    { id: 'action', header: 'Action', cell: (k) => <Revoke k={k} onDone={() => void q.refetch()} /> },
  ];
  return (
    <Stack component="section" aria-labelledby="keys-h" gap="md">
      <Title order={1} id="keys-h">API keys</Title>
      <form aria-label="Create an API key" onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ name, expiresAt: expires ? timestampFromDate(new Date(expires + 'T23:59:59Z')) : undefined });
      }}>
        <Group gap="sm" align="end" wrap="wrap">
          <TextInput label="Key name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <TextInput label="Expires on (optional)" type="date" value={expires} onChange={(e) => setExpires(e.currentTarget.value)} />
          <Button type="submit" loading={create.isPending}>Create key</Button>
        </Group>
      </form>
      <ErrorText error={create.error} />
      {create.data?.key && <CopySecret what="API key" value={create.data.key} />}
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="API keys" rows={q.data?.items} loading={q.isPending} cols={cols} rowKey={(k) => k.id} rowLabel={(k) => `${k.name} ${k.revokedAt ? 'Revoked' : 'Active'}`} empty="No API keys." />
      )}
    </Stack>
  );
}

function Revoke({ k, onDone }: { k: ApiKey; onDone: () => void }) {
  const revoke = useMutation(AuthService.method.revokeApiKey, { onSuccess: onDone });
  if (k.revokedAt) return '—';
  return (
    <>
      <Button size="xs" color="red.9" variant="outline" onClick={() => { if (window.confirm(`Revoke ${k.name}? Calls with it stop at once.`)) revoke.mutate({ id: k.id }); }}>Revoke {k.name}</Button>
      <ErrorText error={revoke.error} />
    </>
  );
}
