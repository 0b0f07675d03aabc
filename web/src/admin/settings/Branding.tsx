import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { BrandingService } from '../../gen/complyd/v1/branding_pb';
import { ErrorText, Field, Loading } from '../../ui/parts';

// Branding is the tenant's logo (an https URL) and primary colour (#RRGGBB), which sign-in pages
// and the dashboard show.
export function Branding() {
  const qc = useQueryClient();
  const q = useQuery(BrandingService.method.getBranding, {});
  const [logo, setLogo] = useState<string | null>(null);
  const [color, setColor] = useState<string | null>(null);
  const save = useMutation(BrandingService.method.updateBranding, { onSuccess: () => void qc.invalidateQueries() });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const l = logo ?? q.data.logoUrl ?? '';
  const c = color ?? q.data.primaryColor;
  return (
    <form aria-label="Branding" className="filters" onSubmit={(e) => { e.preventDefault(); save.mutate({ logoUrl: l, primaryColor: c }); }}>
      <h2>Branding</h2>
      <Field label="Logo URL (https)"><input size={40} value={l} onChange={(e) => setLogo(e.target.value)} /></Field>
      <Field label="Primary colour (#RRGGBB)"><input value={c} onChange={(e) => setColor(e.target.value)} /></Field>
      <span aria-hidden="true" style={{ display: 'inline-block', width: '2rem', height: '2rem', background: /^#[0-9a-fA-F]{6}$/.test(c) ? c : 'transparent', border: '1px solid #999' }} />
      <button type="submit" disabled={save.isPending}>Save branding</button>
      {save.isSuccess && <span role="status">Saved.</span>}
      <ErrorText error={save.error} />
    </form>
  );
}
