import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { ReportService, type ReportSettings as Settings } from '../../gen/complyd/v1/report_pb';
import { ErrorText, Field, Loading } from '../../ui/parts';

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
      <h2>Report settings (goAML)</h2>
      <fieldset className="filters"><legend>Reporting entity</legend>
        <Field label="Reporting entity id"><input inputMode="numeric" value={f.rentityId} onChange={set('rentityId')} /></Field>
        <Field label="Branch"><input value={f.rentityBranch} onChange={set('rentityBranch')} /></Field>
        <Field label="Institution name"><input value={f.institutionName} onChange={set('institutionName')} /></Field>
        <Field label="Institution code"><input value={f.institutionCode} onChange={set('institutionCode')} /></Field>
      </fieldset>
      <fieldset className="filters"><legend>Address (goAML location)</legend>
        <Field label="Address"><input value={f.address} onChange={set('address')} /></Field>
        <Field label="City"><input value={f.city} onChange={set('city')} /></Field>
        <Field label="State"><input value={f.state} onChange={set('state')} /></Field>
        <Field label="Country code (empty: NG)"><input maxLength={2} value={f.country} onChange={set('country')} /></Field>
        <Field label="goAML schema (empty: the deployment's default)"><input value={f.schemaName} onChange={set('schemaName')} /></Field>
      </fieldset>
      <fieldset className="filters"><legend>Reporting person</legend>
        <Field label="First name"><input value={f.first} onChange={set('first')} /></Field>
        <Field label="Last name"><input value={f.last} onChange={set('last')} /></Field>
        <Field label="Email"><input type="email" value={f.email} onChange={set('email')} /></Field>
        <Field label="Phone"><input value={f.phone} onChange={set('phone')} /></Field>
        <Field label="Occupation"><input value={f.occupation} onChange={set('occupation')} /></Field>
      </fieldset>
      <fieldset className="filters"><legend>Filing</legend>
        <Field label="Filing endpoint (empty: manual filing)"><input size={40} value={f.filingUrl} onChange={set('filingUrl')} /></Field>
        <Field label={q.data.filingTokenSet ? 'Filing token (set; blank keeps it)' : 'Filing token'}><input type="password" autoComplete="off" value={f.token} onChange={set('token')} /></Field>
        {q.data.filingTokenSet && <label><input type="checkbox" checked={f.clearToken} onChange={(e) => setEdit({ ...f, clearToken: e.target.checked })} /> Clear the token</label>}
      </fieldset>
      <fieldset className="filters"><legend>Deadlines (hours after the report's day; 0 = default)</legend>
        <Field label="CTR hours"><input type="number" min={0} max={8760} value={f.ctr} onChange={set('ctr')} /></Field>
        <Field label="STR hours"><input type="number" min={0} max={8760} value={f.str} onChange={set('str')} /></Field>
        <Field label="SAR hours"><input type="number" min={0} max={8760} value={f.sar} onChange={set('sar')} /></Field>
        <Field label="FTR hours"><input type="number" min={0} max={8760} value={f.ftr} onChange={set('ftr')} /></Field>
        <Field label="Near-deadline window (hours)"><input type="number" min={0} max={720} value={f.near} onChange={set('near')} /></Field>
      </fieldset>
      <button type="submit" disabled={save.isPending}>Save report settings</button>
      {save.isSuccess && <span role="status">Saved.</span>}
      <ErrorText error={save.error} />
    </form>
  );
}
