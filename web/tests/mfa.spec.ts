import { test, expect } from '@playwright/test';
import { fixture, password, shot } from './fixture';
import { totp } from './totp';

test('sign in with MFA (TOTP code computed by the test); another tenant\'s case is not found', async ({ page }) => {
  const f = fixture();
  // A TOTP code is accepted once: wait for a step after the one the enrolment used.
  while (Math.floor(Date.now() / 30000) <= f.mfa.usedStep) await page.waitForTimeout(500);
  await page.goto('/cases/' + f.caseId);
  await page.getByLabel('Email').fill(f.mfa.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify code' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await shot(page, 'mfa-wrong-code');
  await page.getByLabel('Authentication code').fill(totp(f.mfa.secret));
  await page.getByRole('button', { name: 'Verify code' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // The first tenant's case id, seen from the MFA tenant.
  await expect(page.getByRole('heading', { name: 'Case not found' })).toBeVisible();
  await shot(page, 'case-not-found');
});
