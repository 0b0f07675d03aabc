import { test, expect } from '@playwright/test';
import { fixture, password, shot, signIn } from './fixture';

// The tenant's goAML identity, set through the API as its administrator would.
test.beforeAll(async ({ request }) => {
  const f = fixture();
  const login = await (await request.post('/api/v1/auth/login', { data: { email: f.admin, password } })).json();
  const res = await request.put('/api/v1/tenants/me/report-settings', {
    headers: { Authorization: 'Bearer ' + login.data.accessToken },
    data: { rentityId: '4711', rentityBranch: 'Head office', institutionName: 'Web Test Bank', institutionCode: '999',
      reportingPerson: { firstName: 'Ngozi', lastName: 'Eze', email: 'mlro@web.test' },
      location: { address: '1 Marina', city: 'Lagos', state: 'Lagos', countryCode: 'NG' } },
  });
  expect(res.ok()).toBeTruthy();
});

test('draft a CTR, four-eyes review, file it with the NFIU reference and download the XML', async ({ browser }) => {
  const f = fixture();
  const one = await (await browser.newContext()).newPage();
  await signIn(one, f.users.officer1);
  await one.getByRole('link', { name: 'Reports' }).click();
  await one.getByLabel('Type of the new report').selectOption('CTR');
  await one.getByLabel('Transaction ids').fill(f.txId);
  await one.getByRole('button', { name: 'Draft report' }).click();
  await expect(one.getByTestId('report-status')).toHaveText('Draft');
  // The report's day as people write it ("1 Dec 2026"), as everywhere else, not 2026-12-01.
  await expect(one.getByTestId('report-day')).toHaveText(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/);
  // The status is the one badge of its colour, as in every list; the transactions are named by
  // the bank's reference, amount and time, not their UUIDs (which stay in the link's address).
  await expect(one.getByTestId('report-status').locator('.mantine-Badge-root')).toHaveText('Draft');
  await expect(one.getByRole('link', { name: /^WEB-TX-1, ₦2,500,000\.00, \d{1,2} [A-Z][a-z]{2,3} \d{4}, \d\d:\d\d [A-Z]+$/ }))
    .toHaveAttribute('href', `/transactions/${f.txId}`);
  await expect(one.getByRole('main')).not.toContainText(f.txId);
  await one.getByRole('button', { name: 'Suggest a narrative' }).click();
  await expect(one.getByText('Drafted from the facts.')).toBeVisible();
  await expect(one.getByLabel('Narrative')).toHaveValue(/This currency transaction report concerns/);
  await one.getByLabel('Action taken').fill('Source of funds documented by the branch.');
  await one.getByLabel('Indicators added by hand').fill('CTR-TRF');
  await one.getByRole('button', { name: 'Save draft' }).click();
  await expect(one.getByText('UPDATED', { exact: false }).first()).toBeVisible();
  await expect(one.getByRole('status').filter({ hasText: 'goAML checks' })).toBeVisible();
  await one.getByRole('button', { name: 'Submit for approval' }).click();
  await expect(one.getByTestId('report-status')).toHaveText('Pending approval');
  // The preparer cannot approve (four eyes): no approve or reject is offered, and the screen says
  // why (the API's refusal of the call is tested in internal/app).
  await expect(one.getByRole('button', { name: 'Approve report' })).toHaveCount(0);
  await expect(one.getByRole('button', { name: 'Reject report' })).toHaveCount(0);
  await expect(one.getByRole('note').filter({ hasText: 'you contributed to this report' })).toBeVisible();
  await expect(one.getByTestId('report-status')).toHaveText('Pending approval');
  await shot(one, 'report-four-eyes');
  const url = one.url();

  const two = await (await browser.newContext()).newPage();
  await signIn(two, f.users.officer2);
  await two.goto(url);
  await two.getByRole('button', { name: 'Approve report' }).click();
  await expect(two.getByTestId('report-status')).toHaveText('Approved');
  const download = two.waitForEvent('download');
  await two.getByRole('button', { name: 'Download goAML XML' }).click();
  expect((await download).suggestedFilename()).toMatch(/^rpt_.*\.xml$/);
  await two.getByLabel('NFIU reference').fill('NFIU-WEB-0001');
  await two.getByRole('button', { name: 'Mark as filed' }).click();
  await expect(two.getByTestId('report-status')).toHaveText('Filed');
  await expect(two.getByText('NFIU-WEB-0001 (filed by hand on goAML)')).toBeVisible();
  await shot(two, 'report-filed');
});

test('an auditor reads the reports but drafts nothing', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.users.auditor);
  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: /Regulatory reports/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Draft report' })).toHaveCount(0);
  await page.getByLabel('Report status').selectOption('FILED');
  await page.getByRole('table', { name: 'Reports' }).getByRole('link', { name: /^CTR / }).first().click();
  await expect(page.getByTestId('report-status')).toHaveText('Filed');
  await expect(page.getByRole('button', { name: 'Mark as filed' })).toHaveCount(0);
});
