import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { audit, call, token, uniq } from './adminapi';

test('API keys: create (shown once, copied), call with it, revoke, and the call is refused', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const f = fixture();
  const name = `core-${uniq()}`;
  await signIn(page, f.admin);
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Key name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('secret').textContent())!;
  expect(key.length).toBeGreaterThan(20);
  await page.getByRole('button', { name: 'Copy API key' }).click();
  await expect(page.getByRole('region', { name: 'New API key' }).getByRole('status')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await shot(page, 'admin-apikey-created');

  // The key works from a bank's server...
  expect((await call('GET', '/transactions?limit=1', { key })).status).toBe(200);
  // ...and the list never shows it again.
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Active');
  await page.reload();
  await expect(page.getByTestId('secret')).toHaveCount(0);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Revoked');
  const refused = await call('GET', '/transactions?limit=1', { key });
  expect(refused.status).toBe(401);
  expect(refused.json.error.code).toBe('UNAUTHENTICATED');

  const tok = await token(f.admin);
  const created = (await audit(tok, 'api_key.created')).find((e) => e.after?.name === name);
  expect(created).toBeTruthy();
  expect((await audit(tok, 'api_key.revoked')).some((e) => e.resourceId === created!.resourceId)).toBe(true);
});
