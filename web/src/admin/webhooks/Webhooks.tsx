import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { WebhookService } from '../../gen/complyd/v1/webhook_pb';
import { ErrorText, Field, Loading } from '../../ui/parts';
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
    <section aria-labelledby="wh-h">
      <h1 id="wh-h">Webhooks</h1>
      <form aria-label="Webhook endpoint" className="filters" onSubmit={(e) => { e.preventDefault(); save.mutate({ webhookUrl: shown }); }}>
        <Field label="Endpoint URL (empty turns webhooks off)"><input type="url" size={50} value={shown} onChange={(e) => setUrl(e.target.value)} /></Field>
        <button type="submit" disabled={save.isPending}>Save endpoint</button>
        {save.isSuccess && <span role="status">Saved.</span>}
      </form>
      <ErrorText error={save.error} />
      <p>Signing secret: {cfg.data.secretSet ? 'set (deliveries are signed)' : 'not set (deliveries are unsigned)'}</p>
      <button type="button" disabled={rotate.isPending} onClick={() => {
        const s = newSecret();
        setSecret(s);
        rotate.mutate({ webhookSecret: s });
      }}>{cfg.data.secretSet ? 'Rotate signing secret' : 'Create signing secret'}</button>
      <ErrorText error={rotate.error} />
      {rotate.isSuccess && secret && <CopySecret what="signing secret" value={secret} />}
      <Deliveries />
    </section>
  );
}
