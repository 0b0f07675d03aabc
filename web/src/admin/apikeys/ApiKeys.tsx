import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { AuthService, type ApiKey } from '../../gen/complyd/v1/auth_pb';
import { Empty, ErrorText, Field, Loading, when } from '../../ui/parts';
import { CopySecret } from '../../ui/CopySecret';

// ApiKeys creates (the key shown once), lists and revokes the tenant's API keys. A key acts with
// its creator's current role.
export function ApiKeys() {
  const q = useQuery(AuthService.method.listApiKeys, {});
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const create = useMutation(AuthService.method.createApiKey, { onSuccess: () => { setName(''); setExpires(''); void q.refetch(); } });
  return (
    <section aria-labelledby="keys-h">
      <h1 id="keys-h">API keys</h1>
      <form aria-label="Create an API key" className="filters" onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ name, expiresAt: expires ? timestampFromDate(new Date(expires + 'T23:59:59Z')) : undefined });
      }}>
        <Field label="Key name"><input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} /></Field>
        <Field label="Expires on (optional)"><input type="date" value={expires} onChange={(e) => setExpires(e.target.value)} /></Field>
        <button type="submit" disabled={create.isPending}>Create key</button>
      </form>
      <ErrorText error={create.error} />
      {create.data?.key && <CopySecret what="API key" value={create.data.key} />}
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.items.length === 0 ? <Empty>No API keys.</Empty> : (
        <table aria-label="API keys">
          <thead><tr><th>Name</th><th>Prefix</th><th>Created</th><th>Expires</th><th>Last used</th><th>Status</th><th>Action</th></tr></thead>
          <tbody>{q.data.items.map((k) => <KeyRow key={k.id} k={k} onDone={() => void q.refetch()} />)}</tbody>
        </table>
      )}
    </section>
  );
}

function KeyRow({ k, onDone }: { k: ApiKey; onDone: () => void }) {
  const revoke = useMutation(AuthService.method.revokeApiKey, { onSuccess: onDone });
  return (
    <tr>
      <td>{k.name}</td><td><code>{k.prefix}</code></td><td>{when(k.createdAt)}</td><td>{when(k.expiresAt)}</td><td>{when(k.lastUsedAt)}</td>
      <td>{k.revokedAt ? 'Revoked' : 'Active'}</td>
      <td>{!k.revokedAt && <button type="button" onClick={() => { if (window.confirm(`Revoke ${k.name}? Calls with it stop at once.`)) revoke.mutate({ id: k.id }); }}>Revoke {k.name}</button>}
        <ErrorText error={revoke.error} /></td>
    </tr>
  );
}
