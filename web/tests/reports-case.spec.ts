import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fixture, password, shot, signIn } from './fixture';

// Issue 49: an STR drafted from a case, its narrative edited, approved by a second officer; the
// downloaded goAML XML validates against the goAML 5.0.1 schema in structure (xmllint, with the
// schema's enumerations stripped as complyd does: code lists are the FIU's).
const schema = resolve(import.meta.dirname, '..', '..', 'internal', 'reports', 'goaml', 'goAMLSchema-5.0.1.xsd');
const art = resolve(import.meta.dirname, '..', 'artifacts');

let caseId = '';
test.beforeAll(async ({ request }) => {
  const f = fixture();
  const login = await (await request.post('/api/v1/auth/login', { data: { email: f.admin, password } })).json();
  const headers = { Authorization: 'Bearer ' + login.data.accessToken };
  const res = await request.put('/api/v1/tenants/me/report-settings', {
    headers,
    data: { rentityId: '4711', rentityBranch: 'Head office', institutionName: 'Web Test Bank', institutionCode: '999',
      reportingPerson: { firstName: 'Ngozi', lastName: 'Eze', email: 'mlro@web.test', phone: '+2348012345678' },
      location: { address: '1 Marina', city: 'Lagos', state: 'Lagos', countryCode: 'NG' } },
  });
  expect(res.ok()).toBeTruthy();
  const c = await request.post('/api/v1/cases', { headers, data: { type: 'AML_ALERT', priority: 'HIGH', title: 'Third-party lodgements',
    description: 'Transfers inconsistent with the profile', relatedTransactionId: f.txId } });
  expect(c.ok()).toBeTruthy();
  caseId = (await c.json()).data.id;
  const n = await request.post(`/api/v1/cases/${caseId}/notes`, { headers, data: { content: 'Customer could not explain the source of funds' } });
  expect(n.ok()).toBeTruthy();
});

test('draft an STR from a case, edit its narrative, approve with four eyes, and the XML validates', async ({ browser }) => {
  const f = fixture();
  const one = await (await browser.newContext()).newPage();
  await signIn(one, f.users.officer1);
  await one.goto(`/cases/${caseId}`);
  await one.getByRole('button', { name: 'Draft STR from this case' }).click();
  await expect(one.getByTestId('report-status')).toHaveText('Draft');
  await expect(one.getByLabel('Narrative')).toHaveValue(/Customer could not explain the source of funds/);
  const narrative = 'Transfers by Emeka Okafor inconsistent with his declared income; he could not explain the source of funds.';
  await one.getByLabel('Narrative').fill(narrative);
  await one.getByLabel('Action taken').fill('Account placed on post-no-debit.');
  await one.getByLabel('Indicators added by hand').fill('STR-STRUCT');
  await one.getByRole('button', { name: 'Save draft' }).click();
  await expect(one.getByRole('status').filter({ hasText: 'goAML checks' })).toBeVisible();
  await one.getByRole('button', { name: 'Submit for approval' }).click();
  await expect(one.getByTestId('report-status')).toHaveText('Pending approval');
  await expect(one.getByTestId('report-narrative')).toHaveText(narrative);
  await expect(one.getByTestId('report-action')).toHaveText('Account placed on post-no-debit.');
  const url = one.url();

  const two = await (await browser.newContext()).newPage();
  await signIn(two, f.users.officer2);
  await two.goto(url);
  await two.getByRole('button', { name: 'Approve report' }).click();
  await expect(two.getByTestId('report-status')).toHaveText('Approved');
  await expect(two.getByTestId('report-narrative')).toHaveText(narrative);
  await expect(two.getByTestId('report-indicators')).toContainText('STR-STRUCT');
  await shot(two, 'report-str-from-case');
  const download = two.waitForEvent('download');
  await two.getByRole('button', { name: 'Download goAML XML' }).click();
  const file = await (await download).path();
  const xml = readFileSync(file, 'utf8');
  expect(xml).toContain(`<reason>${narrative}</reason>`);
  expect(xml).toContain('<action>Account placed on post-no-debit.</action>');

  // xmllint against the schema with its enumerations stripped: the structure (the code lists
  // are each FIU's; the public schema's are not the NFIU's). A failure throws with its errors.
  const stripped = resolve(art, 'goaml-structure.xsd');
  writeFileSync(stripped, readFileSync(schema, 'utf8').replace(/<xs:enumeration\b[^>]*?(?:\/>|>[\s\S]*?<\/xs:enumeration>)/g, ''));
  execFileSync('xmllint', ['--noout', '--nonet', '--schema', stripped, file], { stdio: 'pipe' });

  // Filed by hand with the NFIU's reference: the page still shows what the XML says.
  await two.getByLabel('NFIU reference').fill('NFIU-WEB-0001');
  await two.getByRole('button', { name: 'Mark as filed' }).click();
  await expect(two.getByTestId('report-status')).toHaveText('Filed');
  await expect(two.getByTestId('report-narrative')).toHaveText(narrative);
  await expect(two.getByTestId('report-action')).toHaveText('Account placed on post-no-debit.');
});
