import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';

test('read the API reference generated from the protos', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.users.officer1);
  await page.getByRole('link', { name: 'API', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'API reference' })).toBeVisible();
  await expect(page.getByRole('link', { name: '/api/v1/openapi.json' })).toBeVisible();
  // Swagger UI renders the document: the title and an operation of the screening service.
  await expect(page.getByText('complyd /api/v1').first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('heading', { name: /^TransactionService/, level: 3 }).click();
  await expect(page.locator('[data-path="/api/v1/transactions/screen"]').first()).toBeVisible();
  await shot(page, 'api-reference');
});
