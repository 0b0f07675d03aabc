import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { IdentityProviderService } from '../../gen/complyd/v1/identity_provider_pb';
import { TenantConfigService } from '../../gen/complyd/v1/tenant_config_pb';
import { Button, Checkbox, Group, NativeSelect, Text, Title } from '@mantine/core';
import { ErrorText, Loading } from '../../ui/parts';
import { enumLabel } from '../../ui/format';

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
      <Title order={2} size="h3" mt="lg" mb="xs">KYC trust mode</Title>
      <Group gap="md" align="end" wrap="wrap">
        <NativeSelect label="Trust mode" value={m} onChange={(e) => setMode(e.currentTarget.value)} data={modes.map((x) => ({ value: x, label: enumLabel(x) }))} />
        <Checkbox label="Four-eyes document review" checked={fe} onChange={(e) => setFourEyes(e.currentTarget.checked)} mb={8} />
        <Button type="submit" loading={save.isPending}>Save trust mode</Button>
      </Group>
      {save.isSuccess && <Text role="status" size="sm" mt={4}>Saved.</Text>}
      <ErrorText error={save.error} />
    </form>
  );
}
