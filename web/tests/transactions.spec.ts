import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';

test('find a transaction and read its breakdown', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.users.officer1);
  await page.getByRole('link', { name: 'Transactions' }).click();
  await page.getByLabel('Transaction type').selectOption('TRANSFER');
  await page.getByLabel('Account number').fill('0123456789');
  await page.getByLabel('Minimum amount').fill('3000000');
  await expect(page.getByText('No transactions match.')).toBeVisible();
  await page.getByLabel('Minimum amount').fill('1000000');
  await page.getByLabel('Maximum amount').fill('2500000');
  await expect(page.getByRole('link', { name: 'WEB-TX-1' })).toBeVisible();
  await shot(page, 'transactions');
  await page.getByRole('link', { name: 'WEB-TX-1' }).click();
  await expect(page.getByRole('heading', { name: 'Transaction WEB-TX-1' })).toBeVisible();
  await expect(page.getByTestId('tx-score')).not.toHaveText('—');
  await expect(page.getByRole('table', { name: 'Engine verdicts' }).getByRole('row')).not.toHaveCount(1);
  await shot(page, 'transaction-detail');
  await page.getByLabel('Transaction type').waitFor({ state: 'detached' });
});
