import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';

test('search a name and mark a customer hit as a reviewed false positive', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.users.officer1);
  await page.getByRole('link', { name: 'Sanctions' }).click();
  await page.getByLabel('Name to search').fill('Emeka Okafor');
  await page.getByLabel('Customer key (account or BVN)').fill('22212345678');
  await page.getByRole('button', { name: 'Search' }).click();
  const table = page.getByRole('table', { name: 'Candidates' });
  await expect(table.getByText('Emeka Johnson OKAFOR').first()).toBeVisible();
  await shot(page, 'sanctions-search');
  await page.getByLabel('Reason for Emeka Johnson OKAFOR').fill('Different person: date of birth 1991, not 1970.');
  await page.getByRole('button', { name: 'Mark Emeka Johnson OKAFOR as false positive' }).click();
  // The reviewed hit no longer comes back for this customer.
  await expect(page.getByText('No candidates above the threshold.')).toBeVisible();
  await shot(page, 'sanctions-false-positive');
});
