import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';

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
  await expect(page.getByTestId('kyb-status')).toHaveText('rejected');
  await shot(page, 'kyb-rejected');
});
