import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { audit, call, token, uniq, newUser } from './adminapi';

test('assignment: a KYC application assigned in the browser is found by the list\'s assignedTo filter; take it and unassign', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const last = 'Assign' + uniq();
  const app = (await call('POST', '/kyc/applications', { token: tok }, { entityType: 'INDIVIDUAL', firstName: 'Ngozi', lastName: last })).json;
  expect(app.success, JSON.stringify(app)).toBe(true);
  // A control that stays unassigned: its row shows that a filtered list has loaded.
  const control = 'Control' + uniq();
  expect((await call('POST', '/kyc/applications', { token: tok }, { entityType: 'INDIVIDUAL', firstName: 'Ngozi', lastName: control })).json.success).toBe(true);
  const officer = (await call('GET', '/auth/users?limit=100', { token: tok })).json.data.items.find((u: { email: string }) => u.email === f.users.officer1);

  await signIn(page, await newUser(tok, 'BANK_ADMIN', 'Ada', 'Admin'));
  await page.goto(`/kyc/${app.data.id}`);
  const group = page.getByRole('group', { name: 'Assignment' });
  await expect(group.getByTestId('assignee')).toHaveText('Unassigned');
  await group.getByLabel('Assign to').selectOption(officer.id);
  await group.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(group.getByTestId('assignee')).toHaveText('Olu officer1');
  expect((await audit(tok, 'kyc.assigned'))[0]).toMatchObject({ resourceId: app.data.id, after: { assignedTo: officer.id } });

  // The list, filtered by that officer, holds the application; filtered by "unassigned", not.
  await page.getByRole('link', { name: 'KYC review' }).click();
  const filter = page.getByLabel('Assigned to');
  await filter.selectOption(officer.id);
  const row = page.getByRole('row').filter({ hasText: last });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Olu officer1');
  await shot(page, 'kyc-assigned-filter');
  await expect(page.getByRole('row').filter({ hasText: control })).toHaveCount(0);
  await filter.selectOption('unassigned');
  await expect(page.getByRole('row').filter({ hasText: control })).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: last })).toHaveCount(0);

  // Take it: then it is under "me"; unassign: back under "unassigned".
  await page.goto(`/kyc/${app.data.id}`);
  await group.getByRole('button', { name: 'Take it' }).click();
  await expect(group.getByTestId('assignee')).toHaveText('Ada Admin (you)');
  await page.getByRole('link', { name: 'KYC review' }).click();
  await page.getByLabel('Assigned to').selectOption('me');
  await expect(page.getByRole('row').filter({ hasText: last })).toHaveCount(1);
  await page.goto(`/kyc/${app.data.id}`);
  await group.getByRole('button', { name: 'Unassign' }).click();
  await expect(group.getByTestId('assignee')).toHaveText('Unassigned');
  await page.getByRole('link', { name: 'KYC review' }).click();
  await page.getByLabel('Assigned to').selectOption('unassigned');
  await expect(page.getByRole('row').filter({ hasText: last })).toHaveCount(1);
});

test('assignment: a KYB application is taken from its page and found under "me"', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const name = `Assign ${uniq()} Limited`;
  const app = (await call('POST', '/kyc/kyb/applications', { token: tok }, { companyName: name, rcNumber: 'RC' + String(Date.now()).slice(-7), address: '1 Marina, Lagos',
    incorporationDate: '2019-01-10', directors: [{ name: 'Funke Adeyemi', bvn: '22234567809', nationality: 'Nigerian' }],
    beneficialOwners: [{ name: 'Funke Adeyemi', percentage: 100, bvn: '22234567809' }] })).json;
  expect(app.success, JSON.stringify(app)).toBe(true);
  await signIn(page, await newUser(tok, 'BANK_ADMIN', 'Ada', 'Admin'));
  await page.goto(`/kyb/${app.data.id}`);
  const group = page.getByRole('group', { name: 'Assignment' });
  await group.getByRole('button', { name: 'Take it' }).click();
  await expect(group.getByTestId('assignee')).toHaveText('Ada Admin (you)');
  await page.getByRole('link', { name: 'KYB review' }).click();
  await page.getByLabel('Assigned to').selectOption('me');
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(1);
  await page.getByLabel('Assigned to').selectOption('unassigned');
  await expect(page.getByRole('row').filter({ hasText: 'Lagos Fresh Foods Limited' })).not.toHaveCount(0); // the seeded, unassigned one: the list has loaded
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
});
