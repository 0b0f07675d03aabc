import { test, expect } from '@playwright/test';
import { fixture, password, shot } from './fixture';

test('sign in, see the queue, sign out; a wrong password is shown in words', async ({ page }) => {
  const f = fixture();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await shot(page, 'signin');
  await page.getByLabel('Email').fill(f.users.officer1);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /My queue/ })).toBeVisible();
  await shot(page, 'queue');
  // The screening in the seed opened a case and notified the officers: mark it read.
  const unread = page.getByRole('button', { name: /^Mark read:/ });
  await expect(unread.first()).toBeVisible();
  const before = await unread.count();
  await unread.first().click();
  await expect(unread).toHaveCount(before - 1);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.goto('/cases/' + f.caseId);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // Signing in on a deep link lands on that screen.
  await page.getByLabel('Email').fill(f.users.officer1);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: new RegExp(f.caseNumber) })).toBeVisible();
});
