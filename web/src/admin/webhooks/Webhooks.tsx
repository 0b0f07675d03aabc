import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { WebhookService } from '../../gen/complyd/v1/webhook_pb';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorText, Loading } from '../../ui/parts';
import { StatusBadge } from '../../ui/StatusBadge';
import { CopySecret } from '../../ui/CopySecret';
import { Deliveries } from './Deliveries';

// newSecret draws a 32-byte signing secret in the browser (Web Crypto) and hex-encodes it; the
// API stores it sealed and never returns it, so this page is the one place it is shown.
function newSecret(): string {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return 'whsec_' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

// Webhooks is the endpoint, the signing secret's rotation and the delivery log.
export function Webhooks() {
  const cfg = useQuery(WebhookService.method.getWebhookConfig, {});
  const [url, setUrl] = useState<string | null>(null);
  const [secret, setSecret] = useState('');
  const save = useMutation(WebhookService.method.updateWebhookConfig, { onSuccess: () => void cfg.refetch() });
  const rotate = useMutation(WebhookService.method.updateWebhookConfig, { onSuccess: () => void cfg.refetch() });
  if (cfg.isPending) return <Loading />;
  if (cfg.isError) return <ErrorText error={cfg.error} />;
  const shown = url ?? cfg.data.webhookUrl;
  return (
    <Stack component="section" aria-labelledby="wh-h" gap="md">
      <Title order={1} id="wh-h">Webhooks</Title>
      <form aria-label="Webhook endpoint" onSubmit={(e) => { e.preventDefault(); save.mutate({ webhookUrl: shown }); }}>
        <Group gap="sm" align="end" wrap="wrap">
          <TextInput label="Endpoint URL (empty turns webhooks off)" type="url" w={420} maw="100%" value={shown} onChange={(e) => setUrl(e.currentTarget.value)} />
          <Button type="submit" loading={save.isPending}>Save endpoint</Button>
          {save.isSuccess && <Text span size="sm" role="status">Saved.</Text>}
        </Group>
      </form>
      <ErrorText error={save.error} />
      <Group gap="sm" align="center" wrap="wrap">
        <Text size="sm">Signing secret: <StatusBadge value={cfg.data.secretSet ? 'ACTIVE' : 'PENDING'} label={cfg.data.secretSet ? 'Set' : 'Not set'} />{' '}
          {cfg.data.secretSet ? '(deliveries are signed)' : '(deliveries are unsigned)'}</Text>
        <Button variant="light" loading={rotate.isPending} onClick={() => {
          const s = newSecret();
          setSecret(s);
          rotate.mutate({ webhookSecret: s });
        }}>{cfg.data.secretSet ? 'Rotate signing secret' : 'Create signing secret'}</Button>
      </Group>
      <ErrorText error={rotate.error} />
      {rotate.isSuccess && secret && <CopySecret what="signing secret" value={secret} />}
      <Deliveries />
    </Stack>
  );
}
