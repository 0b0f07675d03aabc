import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { call, token, uniq } from './adminapi';

test('review a KYB application and reject it with a reason', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.users.officer1);
  await page.getByRole('link', { name: 'KYB review' }).click();
  await page.getByRole('link', { name: 'Lagos Fresh Foods Limited' }).click();
  await expect(page.getByRole('heading', { name: 'KYB: Lagos Fresh Foods Limited' })).toBeVisible();
  await expect(page.getByText('Adebayo Oluwaseun Ogunleye (60%)')).toBeVisible();
  await shot(page, 'kyb-review');
  // A rejection needs a reason: the API's refusal is shown next to the buttons.
  await page.getByRole('button', { name: 'Reject application' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Decision reason').fill('CAC record not verified; director unreachable.');
  await page.getByRole('button', { name: 'Reject application' }).click();
  await expect(page.getByTestId('kyb-status')).toHaveText('Rejected');
  await shot(page, 'kyb-rejected');
});

test('a KYB approval over failed and missing checks asks for the reason and records the override; the company becomes a customer', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const name = `Evidence Traders ${uniq()} Limited`;
  const created = (await call('POST', '/kyc/kyb/applications', { token: tok }, { companyName: name,
    directors: [{ name: 'Chinedu Okafor' }], beneficialOwners: [{ name: 'Chinedu Okafor', percentage: 100 }] })).json;
  expect(created.success, JSON.stringify(created)).toBe(true);
  await signIn(page, f.users.officer1);
  await page.goto(`/kyb/${created.data.id}`);
  const checks = page.getByRole('list', { name: 'Failed and missing checks' });
  await expect(checks).toContainText('no RC number given');
  await expect(checks).toContainText('Chinedu Okafor');
  await page.getByRole('button', { name: 'Approve application' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve over open evidence' });
  await expect(dialog.getByRole('list', { name: 'Overridden' })).toContainText('director not checked');
  await dialog.getByLabel('Override reason').fill('Known customer of the branch since 2010.');
  await dialog.getByRole('button', { name: 'Approve with override' }).click();
  await expect(page.getByTestId('kyb-status')).toHaveText('Approved');
  await expect(page.getByRole('list', { name: 'Overrides' })).toContainText('Known customer of the branch since 2010.');
  await page.getByRole('link', { name: `Customer ${name}` }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await shot(page, 'kyb-override-customer');
});

test('with the evidence mandatory (approvalEvidenceRequired), an officer is offered no approval over failed checks and the API refuses it with the list', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const officerTok = await token(f.users.officer1);
  const name = `Mandatory Evidence ${uniq()} Limited`;
  const created = (await call('POST', '/kyc/kyb/applications', { token: tok }, { companyName: name,
    directors: [{ name: 'Chinedu Okafor' }], beneficialOwners: [{ name: 'Chinedu Okafor', percentage: 100 }] })).json;
  expect(created.success, JSON.stringify(created)).toBe(true);
  try {
    expect((await call('PATCH', '/tenants/me/kyc-config', { token: tok }, { approvalEvidenceRequired: true })).status).toBe(200);
    await signIn(page, f.users.officer1);
    await page.goto(`/kyb/${created.data.id}`);
    await expect(page.getByRole('list', { name: 'Failed and missing checks' })).toContainText('Chinedu Okafor');
    await expect(page.getByRole('button', { name: 'Approve application' })).toHaveCount(0);
    await expect(page.getByRole('note').filter({ hasText: 'This tenant approves only with the evidence' })).toBeVisible();
    await shot(page, 'kyb-evidence-mandatory');
    // The bypass over the API is refused, naming what is open; nothing changed.
    const r = await call('PATCH', `/kyc/kyb/applications/${created.data.id}/approve`, { token: officerTok }, { notes: 'trust me' });
    expect(r.status, JSON.stringify(r.json)).toBe(409);
    expect(r.json.error.code).toBe('INVALID_STATUS_TRANSITION');
    expect(r.json.error.data.openChecks.length).toBeGreaterThan(0);
    await page.reload();
    await expect(page.getByTestId('kyb-status')).not.toHaveText('approved');
  } finally {
    // The fixture tenant is shared by the other specs: leave its default (off) as found.
    await call('PATCH', '/tenants/me/kyc-config', { token: tok }, { approvalEvidenceRequired: false });
  }
});
