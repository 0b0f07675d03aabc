import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { TenantConfigService } from '../../gen/complyd/v1/tenant_config_pb';
import { Empty, ErrorText, Field, Loading, when } from '../../ui/parts';

// FxRates lists the tenant's rates to NGN and upserts one (screening converts foreign amounts
// with them; without a rate a screening carries FX_RATE_MISSING).
export function FxRates() {
  const q = useQuery(TenantConfigService.method.getFxRates, {});
  const [currency, setCurrency] = useState('');
  const [rate, setRate] = useState('');
  const save = useMutation(TenantConfigService.method.updateFxRates, { onSuccess: () => { setCurrency(''); setRate(''); void q.refetch(); } });
  return (
    <section aria-labelledby="fx-h">
      <h2 id="fx-h">FX rates</h2>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.rates.length === 0 ? <Empty>No rates set.</Empty> : (
        <table aria-label="FX rates">
          <thead><tr><th>Currency</th><th>NGN per unit</th><th>Updated</th></tr></thead>
          <tbody>{q.data.rates.map((r) => <tr key={r.currency}><td>{r.currency}</td><td>{r.rateToNgn}</td><td>{when(r.updatedAt)}</td></tr>)}</tbody>
        </table>
      )}
      <form aria-label="Set an FX rate" className="filters" onSubmit={(e) => { e.preventDefault(); save.mutate({ rates: [{ currency: currency.toUpperCase(), rateToNgn: rate }] }); }}>
        <Field label="Currency (ISO 4217)"><input required maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value)} /></Field>
        <Field label="NGN per unit"><input required inputMode="decimal" value={rate} onChange={(e) => setRate(e.target.value)} /></Field>
        <button type="submit" disabled={save.isPending}>Save rate</button>
        <ErrorText error={save.error} />
      </form>
    </section>
  );
}
