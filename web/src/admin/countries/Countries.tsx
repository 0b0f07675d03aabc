import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { CountryService, type CountryRisk } from '../../gen/complyd/v1/country_pb';
import { Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorText } from '../../ui/parts';
import { dateTime, day, enumLabel } from '../../ui/format';
import { useZone } from '../../ui/zone';
import { DataTable, type Col } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';

const levels = ['CALL_FOR_ACTION', 'MONITORED', 'NONE'];
// A level's colour: the call-for-action list reads as a block, the monitored one as attention.
const tone: Record<string, string> = { CALL_FOR_ACTION: 'BLOCK', MONITORED: 'REVIEW', NONE: 'CLOSED' };
const Level = ({ v }: { v?: string }) => (v ? <StatusBadge value={tone[v] ?? v} label={enumLabel(v)} /> : <>—</>);

// Countries is the tenant's country risk (docs/guide/countries.md): the global FATF lists with their
// source and publication date, the tenant's overrides on top, and the form that sets one.
// Screening reads the effective level ("Level") within a second of a change.
export function Countries() {
  const zone = useZone();
  const q = useQuery(CountryService.method.listCountries, {});
  const refetch = () => void q.refetch();
  // Country first as a plain cell: the level is the second cell of its row.
  const cols: Col<CountryRisk>[] = [
    { id: 'country', header: 'Country', cell: (c) => c.country, sort: (c) => c.country },
    { id: 'level', header: 'Level', cell: (c) => <Level v={c.level} />, sort: (c) => c.level },
    { id: 'default', header: 'FATF list', cell: (c) => <Level v={c.defaultLevel} />, sort: (c) => c.defaultLevel ?? '' },
    { id: 'source', header: 'Source', cell: (c) => c.defaultSource || '—' },
    { id: 'published', header: 'Published', cell: (c) => (c.defaultPublishedOn ? day(c.defaultPublishedOn, 'UTC') : '—') },
    { id: 'override', header: 'Override', cell: (c) => <Level v={c.overrideLevel} />, sort: (c) => c.overrideLevel ?? '' },
    { id: 'reason', header: 'Reason', cell: (c) => c.overrideReason || '—' },
    { id: 'set', header: 'Set', cell: (c) => (c.overrideLevel ? dateTime(c.overrideUpdatedAt, zone) : '—') },
    { id: 'action', header: 'Action', cell: (c) => <DeleteOverride c={c} onChange={refetch} /> },
  ];
  return (
    <Stack component="section" aria-labelledby="ctry-h" gap="md">
      <Title order={1} id="ctry-h">Country risk</Title>
      <OverrideForm onSaved={refetch} />
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="Countries" rows={q.data?.countries} loading={q.isPending} cols={cols} rowKey={(c) => c.country} rowLabel={(c) => c.country} empty="No country is on a list." />
      )}
    </Stack>
  );
}

function DeleteOverride({ c, onChange }: { c: CountryRisk; onChange: () => void }) {
  const del = useMutation(CountryService.method.deleteCountryOverride, { onSuccess: onChange });
  if (!c.overrideLevel) return null;
  return (
    <>
      <Button size="xs" variant="default" disabled={del.isPending} onClick={() => del.mutate({ country: c.country })}>Delete override for {c.country}</Button>
      <ErrorText error={del.error} />
    </>
  );
}

function OverrideForm({ onSaved }: { onSaved: () => void }) {
  const [country, setCountry] = useState('');
  const [level, setLevel] = useState(levels[0]);
  const [reason, setReason] = useState('');
  const save = useMutation(CountryService.method.setCountryOverride, { onSuccess: () => { setCountry(''); setReason(''); onSaved(); } });
  return (
    <form aria-label="Set a country override" onSubmit={(e) => { e.preventDefault(); save.mutate({ country: country.toUpperCase(), level, reason }); }}>
      <Title order={2} size="h3" mb="xs">Set an override</Title>
      <Group gap="sm" align="end" wrap="wrap">
        <TextInput label="Country (ISO 3166 alpha-2)" required maxLength={2} w={200} value={country} onChange={(e) => setCountry(e.currentTarget.value)} />
        <NativeSelect label="Level" value={level} onChange={(e) => setLevel(e.currentTarget.value)} data={levels.map((l) => ({ value: l, label: enumLabel(l) }))} />
        <TextInput label="Reason" required maxLength={500} w={320} maw="100%" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        <Button type="submit" loading={save.isPending}>Save override</Button>
        {save.isSuccess && <Text span size="sm" role="status">Saved.</Text>}
      </Group>
      <ErrorText error={save.error} />
    </form>
  );
}
