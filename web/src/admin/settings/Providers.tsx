import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import type { JsonObject } from '@bufbuild/protobuf';
import { IdentityProviderService } from '../../gen/complyd/v1/identity_provider_pb';
import { Button, Group, NativeSelect, Text, Textarea, Title } from '@mantine/core';
import { ErrorText, Loading } from '../../ui/parts';
import { enumLabel } from '../../ui/format';

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
      <Title order={2} size="h3" mt="lg" mb="xs">Identity providers</Title>
      <Group gap="sm" align="end" wrap="wrap" mb="xs">
        <NativeSelect label="Provider mode" value={m} onChange={(e) => setMode(e.currentTarget.value)} data={['EMBEDDED', 'BYOL'].map((x) => ({ value: x, label: x === 'BYOL' ? 'Bring your own (BYOL)' : enumLabel(x) }))} />
        <NativeSelect label="Fallback mode" value={f} onChange={(e) => setFallback(e.currentTarget.value)} data={['WALLET_RESERVE', 'NONE'].map((x) => ({ value: x, label: enumLabel(x) }))} />
      </Group>
      <Textarea label="BYOL configuration (JSON)" autosize minRows={4} styles={{ input: { fontFamily: 'monospace' } }} value={b} onChange={(e) => setByol(e.currentTarget.value)} />
      <Group gap="sm" mt="xs">
        <Button type="submit" loading={save.isPending}>Save providers</Button>
        {save.isSuccess && <Text span role="status" size="sm">Saved.</Text>}
      </Group>
      {jsonErr && <Text role="alert" c="red.9" fw={600} size="sm">{jsonErr}</Text>}
      <ErrorText error={save.error} />
    </form>
  );
}
