import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { IdentityProviderService } from '../../gen/complyd/v1/identity_provider_pb';
import { TenantConfigService } from '../../gen/complyd/v1/tenant_config_pb';
import { ErrorText, Field, Loading } from '../../ui/parts';

const modes = ['STRICT', 'HYBRID', 'EXTERNAL'];

// TrustMode is the KYC trust mode (whose KYC status screening believes) and the four-eyes
// document review.
export function TrustMode() {
  const q = useQuery(IdentityProviderService.method.getKycConfig, {});
  const [mode, setMode] = useState<string | null>(null);
  const [fourEyes, setFourEyes] = useState<boolean | null>(null);
  const save = useMutation(TenantConfigService.method.updateKycConfig, { onSuccess: () => void q.refetch() });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const m = mode ?? q.data.kycTrustMode;
  const fe = fourEyes ?? q.data.documentReviewFourEyes;
  return (
    <form aria-label="KYC trust mode" onSubmit={(e) => { e.preventDefault(); save.mutate({ kycTrustMode: m, documentReviewFourEyes: fe }); }}>
      <h2>KYC trust mode</h2>
      <Field label="Trust mode"><select value={m} onChange={(e) => setMode(e.target.value)}>{modes.map((x) => <option key={x}>{x}</option>)}</select></Field>
      <label><input type="checkbox" checked={fe} onChange={(e) => setFourEyes(e.target.checked)} /> Four-eyes document review</label>
      <div><button type="submit" disabled={save.isPending}>Save trust mode</button>{save.isSuccess && <span role="status">Saved.</span>}</div>
      <ErrorText error={save.error} />
    </form>
  );
}
