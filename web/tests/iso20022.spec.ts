import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect } from '@playwright/test';
import { fixture, password, shot, signIn } from './fixture';

// A transfer screened from a pacs.008 shows its parties and agents as the message named them on
// the transaction page, with the party a list entry matched marked (docs/guide/iso20022.md).
test('a pacs.008 transaction shows its parties and which hit', async ({ page, request }) => {
  const f = fixture();
  const login = await request.post('/api/v1/auth/login', { data: { email: f.admin, password } });
  const token = (await login.json()).data.accessToken as string;
  const auth = { Authorization: 'Bearer ' + token };
  const wl = await request.post('/api/v1/watchlists', { headers: auth, data: { name: 'ISO web list', type: 'SANCTIONS' } });
  const wlId = (await wl.json()).data.id as string;
  expect((await request.post(`/api/v1/watchlists/${wlId}/entries`, { headers: auth,
    data: { name: 'Zainab Bello Trading', entityType: 'INDIVIDUAL', reference: 'ISO-WEB-1' } })).ok()).toBeTruthy();

  const id = 'WEB' + Date.now();
  const xml = readFileSync(resolve(import.meta.dirname, '..', '..', 'internal', 'iso20022', 'testdata', 'pacs008_09_batch.xml'), 'utf8').replaceAll('{{ID}}', id);
  const res = await request.post('/api/v1/transactions/iso20022', { headers: { ...auth, 'Content-Type': 'application/xml' }, data: xml });
  expect(res.ok(), await res.text()).toBeTruthy();
  const item = (await res.json()).data.items[0];
  expect(item.status).toBe('RJCT');

  await signIn(page, f.users.officer1);
  await page.goto(`/transactions/${item.result.transactionId}`);
  await expect(page.getByRole('heading', { name: `Transaction E2E-${id}-1` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Payment message' })).toBeVisible();
  const parties = page.getByRole('table', { name: 'Parties and agents' });
  await expect(parties.getByRole('row', { name: /Ultimate creditor.*Zainab Bello Trading.*List hit/ })).toBeVisible();
  await expect(parties.getByRole('row', { name: /Debtor agent.*Sterling Crest Bank.*STCRNGLAXXX.*No hit/ })).toBeVisible();
  await expect(parties.getByRole('row', { name: /^Debtor Chukwuemeka Adeyemi.*BVN 22212345678.*No hit/ })).toBeVisible();
  await expect(parties.getByRole('row', { name: /Intermediary agent 1.*Meridian Clearing Bank/ })).toBeVisible();
  await expect(parties.getByText('List hit')).toHaveCount(1);
  await shot(page, 'transaction-iso20022');
});
