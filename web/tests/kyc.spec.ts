import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';

test('review and approve a KYC application with a document', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.users.officer1);
  await page.getByRole('link', { name: 'KYC review' }).click();
  await page.getByRole('link', { name: 'Amaka Eze' }).click();
  await expect(page.getByRole('heading', { name: 'KYC: Amaka Eze' })).toBeVisible();
  const img = page.getByRole('img', { name: 'passport.png preview' });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(16);
  await shot(page, 'kyc-review');
  await page.getByLabel('Decision reason').fill('Passport matches the BVN record.');
  await page.getByRole('button', { name: 'Approve application' }).click();
  await expect(page.getByTestId('kyc-status')).toHaveText('approved');
  await expect(page.getByRole('button', { name: 'Approve application' })).toHaveCount(0);
  await shot(page, 'kyc-approved');
});
