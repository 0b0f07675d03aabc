import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { fixture, signIn } from './fixture';
import { call, newUser, token, uniq } from './adminapi';

// The screens moved onto the design system in issue 50 part A (KYC, KYB, transactions, the
// customer page, sanctions search and the administration screens), walked by each role at a
// phone's and a laptop's width: no horizontal page scroll, no serious or critical axe violation,
// no console error, no call refused with 403, no raw enum value (SCREAMING_SNAKE) or "(s)" plural
// in the text people read, and the labels that replaced the raw text are there.
const out = resolve(import.meta.dirname, '..', 'test-results', 'restyled');
mkdirSync(out, { recursive: true });
const widths = [390, 1366];

type Ids = { kybId: string; customerId: string; appId: string; pendingId: string };
let ids: Ids;
const emails: Record<string, string> = {};

test.beforeAll(async () => {
  const f = fixture();
  const tok = await token(f.admin);
  // An approved KYC applicant is a customer, with a screened transaction (its account is listed).
  const bvn = '227' + String(Date.now()).slice(-8);
  const app = (await call('POST', '/kyc/applications', { token: tok }, { entityType: 'INDIVIDUAL', firstName: 'Restyled', lastName: 'Customer', bvn })).json;
  expect(app.success, JSON.stringify(app)).toBe(true);
  const ok = (await call('PATCH', `/kyc/applications/${app.data.id}/approve`, { token: tok }, { notes: 'known customer' })).json;
  expect(ok.success, JSON.stringify(ok)).toBe(true);
  const scr = (await call('POST', '/transactions/screen', { token: tok }, { externalId: `RST-${uniq()}`, type: 'TRANSFER', channel: 'MOBILE_APP',
    amount: 1250000, currency: 'NGN', senderAccountNumber: '3550000001', senderBvn: bvn, senderName: 'Restyled Customer', receiverName: 'Tola Ade',
    receiverAccountNumber: '3550000002', timestamp: new Date().toISOString() })).json;
  expect(scr.success, JSON.stringify(scr)).toBe(true);
  const found = (await call('GET', `/customers/find?applicationId=${app.data.id}`, { token: tok })).json;
  expect(found.data?.id, JSON.stringify(found)).toBeTruthy();
  const kyb = (await call('GET', '/kyc/kyb/applications?limit=1', { token: tok })).json;
  const kybItems = kyb.data?.items ?? kyb.data;
  expect(kybItems?.[0]?.id, JSON.stringify(kyb)).toBeTruthy();
  // A pending application of this spec's own (the seeded one may have been decided by kyc.spec).
  const pending = (await call('POST', '/kyc/applications', { token: tok }, { entityType: 'INDIVIDUAL', firstName: 'Pending', lastName: 'Restyle' })).json;
  expect(pending.success, JSON.stringify(pending)).toBe(true);
  ids = { kybId: kybItems[0].id, customerId: found.data.id, appId: app.data.id, pendingId: pending.data.id };
  emails.admin = await newUser(tok, 'BANK_ADMIN', 'Ada', 'Restyle');
  emails.officer = f.users.officer1;
  emails.analyst = await newUser(tok, 'ANALYST', 'Ani', 'Analyst');
  emails.auditor = f.users.auditor;
});

// screens: every restyled screen a role reaches (the administration screens are the admin's).
const common = () => ['/kyc', `/kyc/${fixture().kycId}`, '/kyb', `/kyb/${ids.kybId}`, '/transactions', `/transactions/${fixture().txId}`,
  `/customers/${ids.customerId}`, '/sanctions', '/overview', '/account'];
const admin = ['/admin/users', '/admin/api-keys', '/admin/webhooks', '/admin/rules', '/admin/settings', '/admin/countries', '/admin/engines'];
const roles: { name: string; screens: () => string[] }[] = [
  { name: 'admin', screens: () => [...common(), ...admin] },
  { name: 'officer', screens: () => [...common(), '/admin/rules'] },
  { name: 'analyst', screens: common },
  { name: 'auditor', screens: common },
];

// The labels each screen must show in words, and the raw spelling it showed before.
const labels: Record<string, { shown: (string | RegExp)[]; not?: string[] }> = {
  '/kyc': { shown: ['Tier 1'], not: ['TIER_1'] },
  kycPage: { shown: ['Tier 1', 'Verified BVN or NIN', 'Not verified'], not: ['Verified bvn or nin', 'TIER_1', '(not verified)'] },
  '/transactions': { shown: ['₦2,500,000.00', /\d{2}:\d{2} WAT/] },
  txPage: { shown: ['₦2,500,000.00', /\d{2}:\d{2} WAT/, 'Mobile app', 'Transfer'], not: ['2500000 NGN'] },
  customer: { shown: ['Tier 1', 'KYC application', 'Approved', /1 link|\d+ links/], not: ['TIER_1', '1 links'] },
  '/admin/countries': { shown: ['Call for action'], not: ['CALL_FOR_ACTION'] },
  '/admin/users': { shown: ['Compliance officer', 'Bank admin'] },
  '/admin/settings': { shown: ['Tier 1 limit'] },
  '/admin/engines': { shown: ['Fails open', 'Yes'] },
};
const labelKey = (p: string) => (p.startsWith('/kyc/') ? 'kycPage' : p.startsWith('/transactions/') ? 'txPage' : p.startsWith('/customers/') ? 'customer' : p);

async function check(page: Page, seen: { errors: string[]; refused: string[] }, role: string, path: string, width: number) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0, { timeout: 15_000 });
  const where = `${role} ${path} at ${width}px`;
  const scroll = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, iw: window.innerWidth }));
  expect.soft(scroll.sw, `${where} scrolls sideways`).toBeLessThanOrEqual(scroll.iw);
  const axe = await new AxeBuilder({ page }).analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect.soft(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`), where).toEqual([]);
  // The text people read: the main region without code (CEL expressions, ids, keys) and without
  // the values of inputs. No SCREAMING_SNAKE enum value and no "(s)" plural.
  const text = await page.locator('main').evaluate((m) => {
    const c = m.cloneNode(true) as HTMLElement;
    c.querySelectorAll('code, pre, textarea, input, [data-raw]').forEach((e) => e.remove());
    return c.innerText;
  });
  expect.soft(text.match(/\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/g) ?? [], `${where}: raw enum values`).toEqual([]);
  expect.soft(text.match(/\w\(s\)/g) ?? [], `${where}: "(s)" plurals`).toEqual([]);
  const l = labels[labelKey(path)];
  for (const s of l?.shown ?? []) expect.soft(typeof s === 'string' ? text.includes(s) : s.test(text), `${where} shows ${s}`).toBe(true);
  for (const s of l?.not ?? []) expect.soft(text.includes(s), `${where} does not show ${s}`).toBe(false);
  await page.screenshot({ path: resolve(out, `${role}${path.replace(/\/[0-9a-f-]{36}$/, '-page').replace(/\//g, '-')}-${width}.png`), fullPage: width < 500 });
  expect.soft(seen.errors, `console errors on ${where}`).toEqual([]);
  expect.soft(seen.refused, `calls refused with 403 on ${where}`).toEqual([]);
  seen.errors.length = 0;
  seen.refused.length = 0;
}

for (const r of roles) {
  for (const width of widths) {
    test(`${r.name} at ${width} px: the restyled screens fit, are accessible, read as words and make no refused call`, async ({ page }) => {
      const screens = r.screens();
      test.setTimeout(screens.length * 25_000);
      const seen = { errors: [] as string[], refused: [] as string[] };
      page.on('console', (m) => { if (m.type() === 'error' && !/403|Forbidden/.test(m.text())) seen.errors.push(m.text()); });
      page.on('pageerror', (e) => seen.errors.push(String(e)));
      page.on('response', (res) => { if (res.status() === 403) seen.refused.push(new URL(res.url()).pathname); });
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      await signIn(page, emails[r.name]);
      seen.errors.length = 0;
      for (const path of screens) await check(page, seen, r.name, path, width);
    });
  }
}

// Role-true controls: each role sees the controls its role may use on these screens, and only those.
test('an analyst sees no KYC decision, no document review and no false-positive form; an auditor no network case button', async ({ browser }) => {
  const f = fixture();
  const analyst = await (await browser.newContext()).newPage();
  await signIn(analyst, emails.analyst);
  await analyst.goto(`/kyc/${ids.pendingId}`);
  await expect(analyst.getByRole('heading', { name: /^KYC: / })).toBeVisible();
  await expect(analyst.getByRole('button', { name: 'Approve application' })).toHaveCount(0);
  await expect(analyst.getByRole('button', { name: 'Reject application' })).toHaveCount(0);
  await expect(analyst.getByRole('button', { name: /Verify document/ })).toHaveCount(0);
  await analyst.goto('/sanctions');
  await analyst.getByLabel('Name to search').fill('Emeka Okafor');
  await analyst.getByLabel('Customer key (account or BVN)').fill('22299999999');
  await analyst.getByRole('button', { name: 'Search' }).click();
  await expect(analyst.getByRole('table', { name: 'Candidates' })).toBeVisible();
  await expect(analyst.getByRole('button', { name: /as false positive/ })).toHaveCount(0);

  const officer = await (await browser.newContext()).newPage();
  await signIn(officer, f.users.officer1);
  await officer.goto(`/kyc/${ids.pendingId}`);
  await expect(officer.getByRole('button', { name: 'Reject application' })).toBeVisible();
  await officer.goto('/sanctions');
  await officer.getByLabel('Name to search').fill('Emeka Okafor');
  await officer.getByLabel('Customer key (account or BVN)').fill('22299999999');
  await officer.getByRole('button', { name: 'Search' }).click();
  await expect(officer.getByRole('button', { name: /as false positive/ }).first()).toBeVisible();

  const auditor = await (await browser.newContext()).newPage();
  await signIn(auditor, f.users.auditor);
  await auditor.goto(`/customers/${ids.customerId}`);
  await expect(auditor.getByRole('heading', { name: 'Restyled Customer' })).toBeVisible();
  await expect(auditor.getByRole('button', { name: /Open a case for/ })).toHaveCount(0);
  await expect(auditor.getByRole('button', { name: 'Recompute rating' })).toHaveCount(0);
});

// Forms clear after a successful submit and keep their text on an error.
test('the API key and country override forms clear after saving and keep the text when refused', async ({ page }) => {
  await signIn(page, emails.admin);
  await page.goto('/admin/api-keys');
  const keyName = `clears-${uniq()}`;
  await page.getByLabel('Key name').fill(keyName);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('row', { name: new RegExp(keyName) })).toBeVisible();
  await expect(page.getByLabel('Key name')).toHaveValue('');

  await page.goto('/admin/countries');
  const form = page.getByRole('form', { name: 'Set a country override' });
  // "12" is not a country code: the API refuses it and the reason stays as typed.
  await form.getByLabel('Country (ISO 3166 alpha-2)').fill('12');
  await form.getByLabel('Reason').fill('kept after a refusal');
  await form.getByRole('button', { name: 'Save override' }).click();
  await expect(form.getByRole('alert')).toBeVisible();
  await expect(form.getByLabel('Reason')).toHaveValue('kept after a refusal');
});
