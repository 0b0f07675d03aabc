import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { ReportService, type ReportSettings as Settings } from '../../gen/complyd/v1/report_pb';
import { Button, Checkbox, Fieldset, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorText, Loading } from '../../ui/parts';

type Form = {
  rentityId: string; rentityBranch: string; institutionName: string; institutionCode: string;
  first: string; last: string; email: string; phone: string; occupation: string;
  filingUrl: string; token: string; clearToken: boolean;
  ctr: string; str: string; sar: string; ftr: string; near: string;
  address: string; city: string; state: string; country: string; schemaName: string;
};

function fromSettings(s: Settings): Form {
  const p = s.reportingPerson;
  const d = s.deadlineHours;
  return {
    rentityId: s.rentityId, rentityBranch: s.rentityBranch, institutionName: s.institutionName, institutionCode: s.institutionCode,
    first: p?.firstName ?? '', last: p?.lastName ?? '', email: p?.email ?? '', phone: p?.phone ?? '', occupation: p?.occupation ?? '',
    filingUrl: s.filingUrl, token: '', clearToken: false,
    ctr: String(d?.ctr ?? 0), str: String(d?.str ?? 0), sar: String(d?.sar ?? 0), ftr: String(d?.ftr ?? 0), near: String(s.nearDeadlineHours),
    address: s.location?.address ?? '', city: s.location?.city ?? '', state: s.location?.state ?? '', country: s.location?.countryCode ?? '',
    schemaName: s.schemaName,
  };
}

// ReportSettings are the tenant's goAML settings (docs/guide/reports.md "Settings"): the reporting
// entity, the reporting person, the filing endpoint and the deadlines. The PUT replaces them
// whole, so the form sends every field; the filing token is never shown: blank keeps it.
export function ReportSettings() {
  const q = useQuery(ReportService.method.getReportSettings, {});
  const [edit, setEdit] = useState<Form | null>(null);
  const save = useMutation(ReportService.method.updateReportSettings, { onSuccess: () => { setEdit(null); void q.refetch(); } });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const f = edit ?? fromSettings(q.data);
  const set = (k: keyof Form) => (e: { target: { value: string } }) => setEdit({ ...f, [k]: e.target.value });
  const submit = () => save.mutate({
    rentityId: f.rentityId, rentityBranch: f.rentityBranch, institutionName: f.institutionName, institutionCode: f.institutionCode,
    reportingPerson: { firstName: f.first, lastName: f.last, email: f.email, phone: f.phone, occupation: f.occupation },
    filingUrl: f.filingUrl, filingToken: f.clearToken ? '' : f.token || undefined,
    deadlineHours: { ctr: Number(f.ctr), str: Number(f.str), sar: Number(f.sar), ftr: Number(f.ftr) },
    nearDeadlineHours: Number(f.near),
    location: { address: f.address, city: f.city, state: f.state, countryCode: f.country },
    schemaName: f.schemaName,
  });
  return (
    <form aria-label="Report settings" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <Title order={2} size="h3" mt="lg" mb="xs">Report settings (goAML)</Title>
      <Stack gap="sm">
      <Fieldset legend="Reporting entity"><SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        <TextInput label="Reporting entity id" inputMode="numeric" value={f.rentityId} onChange={set('rentityId')} />
        <TextInput label="Branch" value={f.rentityBranch} onChange={set('rentityBranch')} />
        <TextInput label="Institution name" value={f.institutionName} onChange={set('institutionName')} />
        <TextInput label="Institution code" value={f.institutionCode} onChange={set('institutionCode')} />
      </SimpleGrid></Fieldset>
      <Fieldset legend="Address (goAML location)"><SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        <TextInput label="Address" value={f.address} onChange={set('address')} />
        <TextInput label="City" value={f.city} onChange={set('city')} />
        <TextInput label="State" value={f.state} onChange={set('state')} />
        <TextInput label="Country code (empty: NG)" maxLength={2} value={f.country} onChange={set('country')} />
        <TextInput label="goAML schema (empty: the deployment's default)" value={f.schemaName} onChange={set('schemaName')} />
      </SimpleGrid></Fieldset>
      <Fieldset legend="Reporting person"><SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        <TextInput label="First name" value={f.first} onChange={set('first')} />
        <TextInput label="Last name" value={f.last} onChange={set('last')} />
        <TextInput label="Email" type="email" value={f.email} onChange={set('email')} />
        <TextInput label="Phone" value={f.phone} onChange={set('phone')} />
        <TextInput label="Occupation" value={f.occupation} onChange={set('occupation')} />
      </SimpleGrid></Fieldset>
      <Fieldset legend="Filing"><SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        <TextInput label="Filing endpoint (empty: manual filing)"  value={f.filingUrl} onChange={set('filingUrl')} />
        <TextInput label={q.data.filingTokenSet ? 'Filing token (set; blank keeps it)' : 'Filing token'} type="password" autoComplete="off" value={f.token} onChange={set('token')} />
        {q.data.filingTokenSet && <Checkbox label="Clear the token" checked={f.clearToken} onChange={(e) => setEdit({ ...f, clearToken: e.currentTarget.checked })} mt="lg" />}
      </SimpleGrid></Fieldset>
      <Fieldset legend="Deadlines (hours after the report's day; 0 = default)"><SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        <TextInput label="CTR hours" type="number" min={0} max={8760} value={f.ctr} onChange={set('ctr')} />
        <TextInput label="STR hours" type="number" min={0} max={8760} value={f.str} onChange={set('str')} />
        <TextInput label="SAR hours" type="number" min={0} max={8760} value={f.sar} onChange={set('sar')} />
        <TextInput label="FTR hours" type="number" min={0} max={8760} value={f.ftr} onChange={set('ftr')} />
        <TextInput label="Near-deadline window (hours)" type="number" min={0} max={720} value={f.near} onChange={set('near')} />
      </SimpleGrid></Fieldset>
      <div><Button type="submit" loading={save.isPending}>Save report settings</Button></div>
      {save.isSuccess && <Text role="status" size="sm">Saved.</Text>}
      </Stack>
      <ErrorText error={save.error} />
    </form>
  );
}
