import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { Button, ColorSwatch, Group, Select, Text, TextInput, Title } from '@mantine/core';
import { BrandingService } from '../../gen/complyd/v1/branding_pb';
import { ErrorText, Loading } from '../../ui/parts';
import { dateTime } from '../../ui/format';

// The zones a browser knows (Intl), offered for the tenant's time zone.
const zones = (() => {
  try { return (Intl as unknown as { supportedValuesOf: (k: string) => string[] }).supportedValuesOf('timeZone'); } catch { return ['Africa/Lagos', 'UTC']; }
})();

// Branding is the tenant's logo (an https URL), primary colour (#RRGGBB) and time zone, which the
// dashboard shows every time in.
export function Branding() {
  const qc = useQueryClient();
  const q = useQuery(BrandingService.method.getBranding, {});
  const [logo, setLogo] = useState<string | null>(null);
  const [color, setColor] = useState<string | null>(null);
  const [zone, setZone] = useState<string | null>(null);
  const save = useMutation(BrandingService.method.updateBranding, { onSuccess: () => void qc.invalidateQueries() });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const l = logo ?? q.data.logoUrl ?? '';
  const c = color ?? q.data.primaryColor;
  const z = zone ?? q.data.timeZone;
  const list = zones.includes(z) ? zones : [z, ...zones];
  return (
    <form aria-label="Branding" onSubmit={(e) => { e.preventDefault(); save.mutate({ logoUrl: l, primaryColor: c, timeZone: z }); }}>
      <Title order={2} size="h3" mt="lg" mb="xs">Branding and time zone</Title>
      <Group align="end" wrap="wrap">
        <TextInput label="Logo URL (https)" w={320} maw="100%" value={l} onChange={(e) => setLogo(e.currentTarget.value)} />
        <TextInput label="Primary colour (#RRGGBB)" value={c} onChange={(e) => setColor(e.currentTarget.value)}
          rightSection={/^#[0-9a-fA-F]{6}$/.test(c) ? <ColorSwatch color={c} size={18} aria-hidden /> : null} />
        <Select label="Time zone" searchable data={list} value={z} onChange={(v) => v && setZone(v)} allowDeselect={false}
          description={`Now: ${dateTime(new Date(), z)}`} />
        <Button type="submit" loading={save.isPending}>Save branding</Button>
      </Group>
      {save.isSuccess && <Text role="status" size="sm" mt={4}>Saved.</Text>}
      <ErrorText error={save.error} />
    </form>
  );
}
