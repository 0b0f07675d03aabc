import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { call, token, uniq } from './adminapi';

// psql runs SQL on the test database as the admin: screened transactions are stored by the
// screening path, which needs no more than rows to be read back here.
function psql(db: string, sql: string) {
  const env = { ...process.env, PGHOST: process.env.PGHOST ?? '127.0.0.1', PGPORT: process.env.PGPORT ?? '5432', PGUSER: process.env.PGUSER ?? 'postgres' };
  return execFileSync('psql', ['-v', 'ON_ERROR_STOP=1', '-At', '-d', db, '-c', sql], { env }).toString().trim();
}

test('open a customer, see its risk, its history and its network with a fan-in', async ({ page }) => {
  const f = fixture() as ReturnType<typeof fixture> & { db: string };
  const tenant = psql(f.db, "select id from tenants where slug = 'webtest'");
  // A customer (as a BVN lookup saves it) who sent from 3330000001 to a collector that five
  // other accounts also paid; one of the customer's transfers was an alert.
  psql(f.db, `insert into customer_profiles (id, tenant_id, profile_type, profile_key, display_name, bvn, data, source, last_lookup_at, created_at, updated_at)
    values ('cus_webnet', '${tenant}', 'INDIVIDUAL', 'BVN:22299990001', 'Ifeoma Nwosu', '22299990001', '{}', 'BVN', now(), now(), now())
    on conflict do nothing`);
  const tx = (from: string, bvn: string, to: string, outcome: string, amount: number) => `(gen_random_uuid(), '${tenant}', 'WEBNET-' || gen_random_uuid(),
    'TRANSFER', 'MOBILE', ${amount}, 'NGN', ${amount}, '${from}', ${bvn ? `'${bvn}'` : 'null'}, 'Sender', '${to}', now() - interval '2 hours', 'vrd', '${outcome}',
    'LOW', 10, '{}', '[]', 5, now(), now())`;
  const rows = [tx('3330000001', '22299990001', '3330000000', 'REVIEW', 150000)];
  for (let i = 10; i < 15; i++) rows.push(tx(`33300000${i}`, '', '3330000000', 'APPROVE', 50000 + i));
  psql(f.db, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn, sender_account_number, sender_bvn,
    sender_name, receiver_account_number, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions, engine_verdicts,
    total_latency_ms, processed_at, created_at) values ${rows.join(',')}`);

  await signIn(page, f.users.officer1);
  await page.getByRole('link', { name: 'Customers' }).click();
  await page.getByLabel('Search customers').fill('Ifeoma');
  await page.getByRole('link', { name: 'Ifeoma Nwosu' }).click();
  await expect(page.getByRole('heading', { name: 'Ifeoma Nwosu' })).toBeVisible();

  // The rating: no KYC application (25) and one alert (5) make 30, MEDIUM.
  await page.getByRole('button', { name: 'Recompute rating' }).click();
  await expect(page.getByTestId('risk-rating')).toHaveText('Medium');
  await expect(page.getByTestId('risk-score')).toHaveText('30 / 100');
  await expect(page.getByRole('table', { name: 'Risk factors' })).toContainText('Identity unverified');
  await expect(page.getByRole('table', { name: 'Risk history' }).getByRole('row')).not.toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Accounts' })).toContainText('3330000001');

  // The network: the customer's account, the collector and its five other payers; the fan-in.
  const graph = page.getByRole('group', { name: 'Network graph' });
  await expect(graph).toBeVisible();
  await expect(graph.getByRole('button', { name: 'Account 3330000001' })).toBeVisible();
  await expect(graph.getByRole('button', { name: 'Account 3330000000' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Findings' })).toContainText('fan-in at 3330000000');
  await shot(page, 'customer-network');
  await page.getByRole('button', { name: 'Open a case for the fan-in at 3330000000' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'opened' })).toBeVisible();

  // Choosing an account (keyboard: focus and Enter) re-centres the graph on it.
  await graph.getByRole('button', { name: 'Account 3330000000' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Network of account 3330000000' })).toBeVisible();
});

test('an approved KYC applicant is a customer: from its application to the customer and its network, and from its transaction and its case', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const bvn = '229' + String(Date.now()).slice(-8);
  const app = (await call('POST', '/kyc/applications', { token: tok }, { entityType: 'INDIVIDUAL', firstName: 'Chiamaka', lastName: 'Obi', bvn })).json;
  expect(app.success, JSON.stringify(app)).toBe(true);
  const ok = (await call('PATCH', `/kyc/applications/${app.data.id}/approve`, { token: tok }, { notes: 'known customer' })).json;
  expect(ok.success, JSON.stringify(ok)).toBe(true);
  const scr = (await call('POST', '/transactions/screen', { token: tok }, { externalId: `CUS-${uniq()}`, type: 'TRANSFER', channel: 'MOBILE_APP',
    amount: 1000, currency: 'NGN', senderAccountNumber: '3440000001', senderBvn: bvn, senderName: 'Chiamaka Obi', receiverName: 'Tola Ade',
    receiverAccountNumber: '3440000002', timestamp: new Date().toISOString() })).json;
  expect(scr.success, JSON.stringify(scr)).toBe(true);

  await signIn(page, f.users.officer1);
  await page.goto(`/kyc/${app.data.id}`);
  await page.getByRole('link', { name: 'Network of Chiamaka Obi' }).click();
  await expect(page.getByRole('heading', { name: 'Chiamaka Obi' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Accounts' })).toContainText('3440000001');
  await expect(page.getByRole('heading', { name: 'Network of the customer' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Network graph' }).getByRole('button', { name: 'Account 3440000001' })).toBeVisible();
  await shot(page, 'customer-from-application');

  await page.goto(`/transactions/${scr.data.transactionId}`);
  await page.getByRole('link', { name: 'Customer Chiamaka Obi' }).click();
  await expect(page.getByRole('heading', { name: 'Chiamaka Obi' })).toBeVisible();

  // And from a case about that transaction: the customer and its network.
  const kase = (await call('POST', '/cases', { token: tok }, { type: 'AML_ALERT', priority: 'LOW', title: 'Customer from a case',
    description: 'a transfer of the customer', relatedTransactionId: scr.data.transactionId })).json;
  expect(kase.success, JSON.stringify(kase)).toBe(true);
  await page.goto(`/cases/${kase.data.id}`);
  // The case's small graph: a click on the counterparty opens the customer's full network
  // centred on that account (it did nothing before), scrolled to.
  const small = page.locator('.case-network').getByRole('group', { name: 'Network graph' });
  await small.getByRole('button', { name: 'Account 3440000002' }).locator('circle').click();
  await expect(page).toHaveURL(/\/customers\/[^?]+\?account=3440000002#net-h$/);
  await expect(page.getByRole('heading', { name: 'Network of account 3440000002' })).toBeInViewport();
  await page.goto(`/cases/${kase.data.id}`);
  await page.getByRole('link', { name: 'Network of Chiamaka Obi' }).click();
  await expect(page.getByRole('heading', { name: 'Chiamaka Obi' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Network of the customer' })).toBeVisible();
});
