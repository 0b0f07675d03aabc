import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { TenantConfigService, type FxRate as Rate } from '../../gen/complyd/v1/tenant_config_pb';
import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { ErrorText } from '../../ui/parts';
import { dateTime } from '../../ui/format';
import { useZone } from '../../ui/zone';
import { DataTable, type Col } from '../../ui/DataTable';

// FxRates lists the tenant's rates to NGN and upserts one (screening converts foreign amounts
// with them; without a rate a screening carries FX_RATE_MISSING).
export function FxRates() {
  const zone = useZone();
  const q = useQuery(TenantConfigService.method.getFxRates, {});
  const [currency, setCurrency] = useState('');
  const [rate, setRate] = useState('');
  const save = useMutation(TenantConfigService.method.updateFxRates, { onSuccess: () => { setCurrency(''); setRate(''); void q.refetch(); } });
  const cols: Col<Rate>[] = [
    { id: 'currency', header: 'Currency', rowHeader: true, cell: (r) => r.currency, sort: (r) => r.currency },
    { id: 'rate', header: 'NGN per unit', cell: (r) => r.rateToNgn, sort: (r) => Number(r.rateToNgn) },
    { id: 'updated', header: 'Updated', cell: (r) => dateTime(r.updatedAt, zone), sort: (r) => Number(r.updatedAt?.seconds ?? 0) },
  ];
  return (
    <Stack component="section" aria-labelledby="fx-h" gap="xs" mt="lg">
      <Title order={2} size="h3" id="fx-h">FX rates</Title>
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="FX rates" rows={q.data?.rates} loading={q.isPending} cols={cols} rowKey={(r) => r.currency} empty="No rates set." />
      )}
      <form aria-label="Set an FX rate" onSubmit={(e) => { e.preventDefault(); save.mutate({ rates: [{ currency: currency.toUpperCase(), rateToNgn: rate }] }); }}>
        <Group gap="sm" align="end" wrap="wrap">
          <TextInput label="Currency (ISO 4217)" required maxLength={3} w={160} value={currency} onChange={(e) => setCurrency(e.currentTarget.value)} />
          <TextInput label="NGN per unit" required inputMode="decimal" w={160} value={rate} onChange={(e) => setRate(e.currentTarget.value)} />
          <Button type="submit" loading={save.isPending}>Save rate</Button>
        </Group>
        <ErrorText error={save.error} />
      </form>
    </Stack>
  );
}
