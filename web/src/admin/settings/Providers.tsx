import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import type { JsonObject } from '@bufbuild/protobuf';
import { IdentityProviderService } from '../../gen/complyd/v1/identity_provider_pb';
import { ErrorText, Field, Loading } from '../../ui/parts';

// Providers is the identity-provider chain: the embedded providers or the bank's own (BYOL, a
// JSON configuration described in docs/guide/identity-providers.md), and the fallback mode.
export function Providers() {
  const q = useQuery(IdentityProviderService.method.getProviderConfig, {});
  const [mode, setMode] = useState<string | null>(null);
  const [fallback, setFallback] = useState<string | null>(null);
  const [byol, setByol] = useState<string | null>(null);
  const [jsonErr, setJsonErr] = useState('');
  const save = useMutation(IdentityProviderService.method.updateProviderConfig, { onSuccess: () => void q.refetch() });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const m = mode ?? q.data.providerMode;
  const f = fallback ?? q.data.kycFallbackMode;
  const b = byol ?? (q.data.byol ? JSON.stringify(q.data.byol, null, 2) : '');
  const submit = () => {
    let parsed: JsonObject | undefined;
    if (b.trim() !== '') {
      try { parsed = JSON.parse(b) as JsonObject; } catch (e) { setJsonErr('BYOL configuration is not JSON: ' + (e as Error).message); return; }
    }
    setJsonErr('');
    save.mutate({ providerMode: m, kycFallbackMode: f, byol: parsed });
  };
  return (
    <form aria-label="Identity providers" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <h2>Identity providers</h2>
      <Field label="Provider mode"><select value={m} onChange={(e) => setMode(e.target.value)}><option>EMBEDDED</option><option>BYOL</option></select></Field>
      <Field label="Fallback mode"><select value={f} onChange={(e) => setFallback(e.target.value)}><option>WALLET_RESERVE</option><option>NONE</option></select></Field>
      <Field label="BYOL configuration (JSON)"><textarea rows={6} cols={70} value={b} onChange={(e) => setByol(e.target.value)} /></Field>
      <button type="submit" disabled={save.isPending}>Save providers</button>
      {save.isSuccess && <span role="status">Saved.</span>}
      {jsonErr && <p role="alert" className="error">{jsonErr}</p>}
      <ErrorText error={save.error} />
    </form>
  );
}
