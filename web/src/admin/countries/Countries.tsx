import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { CountryService, type CountryRisk } from '../../gen/complyd/v1/country_pb';
import { Empty, ErrorText, Field, Loading, when } from '../../ui/parts';

const levels = ['CALL_FOR_ACTION', 'MONITORED', 'NONE'];

// Countries is the tenant's country risk (docs/guide/countries.md): the global FATF lists with their
// source and publication date, the tenant's overrides on top, and the form that sets one.
// Screening reads the effective level ("Level") within a second of a change.
export function Countries() {
  const q = useQuery(CountryService.method.listCountries, {});
  return (
    <section aria-labelledby="ctry-h">
      <h1 id="ctry-h">Country risk</h1>
      <OverrideForm onSaved={() => void q.refetch()} />
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.countries.length === 0 ? <Empty>No country is on a list.</Empty> : (
        <table aria-label="Countries">
          <thead><tr><th>Country</th><th>Level</th><th>FATF list</th><th>Source</th><th>Published</th><th>Override</th><th>Reason</th><th>Set</th><th /></tr></thead>
          <tbody>{q.data.countries.map((c) => <CountryRow key={c.country} c={c} onChange={() => void q.refetch()} />)}</tbody>
        </table>
      )}
    </section>
  );
}

function CountryRow({ c, onChange }: { c: CountryRisk; onChange: () => void }) {
  const del = useMutation(CountryService.method.deleteCountryOverride, { onSuccess: onChange });
  const published = c.defaultPublishedOn ? timestampDate(c.defaultPublishedOn).toISOString().slice(0, 10) : '—';
  return (
    <tr aria-label={c.country}>
      <td>{c.country}</td>
      <td><strong>{c.level}</strong></td>
      <td>{c.defaultLevel ?? '—'}</td>
      <td>{c.defaultSource ?? '—'}</td>
      <td>{published}</td>
      <td>{c.overrideLevel ?? '—'}</td>
      <td>{c.overrideReason ?? ''}</td>
      <td>{c.overrideLevel ? when(c.overrideUpdatedAt) : ''}</td>
      <td>
        {c.overrideLevel && <button type="button" disabled={del.isPending} onClick={() => del.mutate({ country: c.country })}>Delete override for {c.country}</button>}
        <ErrorText error={del.error} />
      </td>
    </tr>
  );
}

function OverrideForm({ onSaved }: { onSaved: () => void }) {
  const [country, setCountry] = useState('');
  const [level, setLevel] = useState(levels[0]);
  const [reason, setReason] = useState('');
  const save = useMutation(CountryService.method.setCountryOverride, { onSuccess: () => { setCountry(''); setReason(''); onSaved(); } });
  return (
    <form aria-label="Set a country override" className="filters" onSubmit={(e) => { e.preventDefault(); save.mutate({ country: country.toUpperCase(), level, reason }); }}>
      <h2>Set an override</h2>
      <Field label="Country (ISO 3166 alpha-2)"><input required maxLength={2} value={country} onChange={(e) => setCountry(e.target.value)} /></Field>
      <Field label="Level"><select value={level} onChange={(e) => setLevel(e.target.value)}>{levels.map((l) => <option key={l}>{l}</option>)}</select></Field>
      <Field label="Reason"><input required size={40} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} /></Field>
      <button type="submit" disabled={save.isPending}>Save override</button>
      {save.isSuccess && <span role="status">Saved.</span>}
      <ErrorText error={save.error} />
    </form>
  );
}
