import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { TenantConfigService } from '../../gen/complyd/v1/tenant_config_pb';
import { ErrorText, Field, Loading } from '../../ui/parts';

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
    <form aria-label="Tier limits" className="filters" onSubmit={(e) => {
      e.preventDefault();
      save.mutate({ tierLimits: { tier1: cur.t1, tier2: cur.t2, tier3: cur.t3 }, expiryDays: Number(cur.days) });
    }}>
      <h2>Tier limits (NGN)</h2>
      <Field label="Tier 1 limit"><input inputMode="decimal" required value={cur.t1} onChange={set('t1')} /></Field>
      <Field label="Tier 2 limit"><input inputMode="decimal" required value={cur.t2} onChange={set('t2')} /></Field>
      <Field label="Tier 3 limit"><input inputMode="decimal" required value={cur.t3} onChange={set('t3')} /></Field>
      <Field label="KYC expiry (days)"><input type="number" min={1} max={3650} required value={cur.days} onChange={set('days')} /></Field>
      <button type="submit" disabled={save.isPending}>Save limits</button>
      {save.isSuccess && <span role="status">Saved.</span>}
      <ErrorText error={save.error} />
    </form>
  );
}
