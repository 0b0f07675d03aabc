import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { audit, call, token } from './adminapi';

type Got = { headers: IncomingHttpHeaders; body: string };

test('webhooks: set the endpoint, rotate the secret, see a delivery and replay it to a receiver the test runs', async ({ page }) => {
  // The receiver: a real HTTP server on loopback that records each request and answers 200.
  const got: Got[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => { got.push({ headers: req.headers, body }); res.writeHead(200).end('ok'); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  try {
    const f = fixture();
    await signIn(page, f.admin);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL (empty turns webhooks off)').fill(url);
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(page.getByRole('form', { name: 'Webhook endpoint' }).getByRole('status')).toHaveText('Saved.');
    await page.getByRole('button', { name: /(Create|Rotate) signing secret/ }).click();
    const secret = (await page.getByTestId('secret').textContent())!;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    await expect(page.getByText('set (deliveries are signed)')).toBeVisible();

    // An event: a case resolved through the API.
    const tok = await token(f.admin);
    const c = (await call('POST', '/cases', { token: tok }, { type: 'AML_ALERT', priority: 'LOW', title: 'Webhook probe', description: 'resolved to send case.resolved' })).json.data;
    await call('PATCH', `/cases/${c.id}/status`, { token: tok }, { status: 'ESCALATED' });
    expect((await call('PATCH', `/cases/${c.id}/status`, { token: tok }, { status: 'RESOLVED_FALSE_POSITIVE', resolutionNote: 'probe' })).json.success).toBe(true);
    // A false positive: a true positive would also draft an STR and send report.created (docs/guide/reports.md).
    await expect.poll(() => got.length, { timeout: 20_000 }).toBe(1);
    const first = got[0];
    const sig = 'sha256=' + createHmac('sha256', secret).update(first.body).digest('hex');
    expect(first.headers['x-svc-signature']).toBe(sig);
    const deliveryId = String(first.headers['x-svc-delivery']);

    // The log shows it delivered with the receiver's code; replay it.
    const row = page.getByRole('row', { name: new RegExp(deliveryId) });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh log' }).click();
      await expect(row.getByTestId('delivery-status')).toHaveText('Delivered', { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(row).toContainText('200');
    await page.getByRole('button', { name: `Replay ${deliveryId}` }).click();
    await expect.poll(() => got.length, { timeout: 20_000 }).toBe(2);
    expect(JSON.parse(got[1].body).id).toBe(JSON.parse(first.body).id);
    expect(got[1].headers['x-svc-signature']).toBe('sha256=' + createHmac('sha256', secret).update(got[1].body).digest('hex'));
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh log' }).click();
      await expect(row.getByTestId('delivery-status')).toHaveText('Delivered', { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await page.getByRole('button', { name: `Attempts of ${deliveryId}` }).click();
    const attempts = page.getByRole('table', { name: `Attempts of ${deliveryId}` });
    await expect(attempts.getByRole('row')).toHaveCount(3); // header + two attempts
    await expect(attempts.getByRole('row').nth(2)).toContainText('200');
    await shot(page, 'admin-webhooks');

    const replayed = await audit(tok, 'webhook.delivery_replayed');
    expect(replayed.some((e) => e.resourceId === deliveryId)).toBe(true);
    expect((await audit(tok, 'tenant.webhooks_updated')).length).toBeGreaterThanOrEqual(2);
  } finally {
    // Leave the tenant without an endpoint for the specs that follow.
    await call('PATCH', '/tenants/me/webhooks', { token: await token(fixture().admin) }, { webhookUrl: '' });
    server.close();
  }
});
