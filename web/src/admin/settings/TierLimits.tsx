import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { TenantConfigService } from '../../gen/complyd/v1/tenant_config_pb';
import { Button, Group, Text, TextInput, Title } from '@mantine/core';
import { ErrorText, Loading } from '../../ui/parts';
import { money } from '../../ui/format';

// TierLimits are the single-transaction limits per KYC tier (NGN, AML-008/009) and the KYC
// expiry. Amounts stay decimal strings end to end.
export function TierLimits() {
  const q = useQuery(TenantConfigService.method.getLimits, {});
  const [edit, setEdit] = useState<{ t1: string; t2: string; t3: string; days: string } | null>(null);
  const save = useMutation(TenantConfigService.method.updateLimits, { onSuccess: () => { setEdit(null); void q.refetch(); } });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const cur = edit ?? { t1: q.data.tierLimits?.tier1 ?? '', t2: q.data.tierLimits?.tier2 ?? '', t3: q.data.tierLimits?.tier3 ?? '', days: String(q.data.expiryDays) };
  const set = (k: keyof typeof cur) => (e: { target: { value: string } }) => setEdit({ ...cur, [k]: e.target.value });
  return (
    <form aria-label="Tier limits" onSubmit={(e) => {
      e.preventDefault();
      save.mutate({ tierLimits: { tier1: cur.t1, tier2: cur.t2, tier3: cur.t3 }, expiryDays: Number(cur.days) });
    }}>
      <Title order={2} size="h3" mt="lg" mb="xs">Tier limits (NGN)</Title>
      <Group gap="sm" align="end" wrap="wrap">
      <TextInput label="Tier 1 limit" inputMode="decimal" required value={cur.t1} onChange={set('t1')} description={money(cur.t1)} />
      <TextInput label="Tier 2 limit" inputMode="decimal" required value={cur.t2} onChange={set('t2')} description={money(cur.t2)} />
      <TextInput label="Tier 3 limit" inputMode="decimal" required value={cur.t3} onChange={set('t3')} description={money(cur.t3)} />
      <TextInput label="KYC expiry (days)" type="number" min={1} max={3650} required value={cur.days} onChange={set('days')} />
      <Button type="submit" loading={save.isPending}>Save limits</Button>
      </Group>
      {save.isSuccess && <Text role="status" size="sm" mt={4}>Saved.</Text>}
      <ErrorText error={save.error} />
    </form>
  );
}
