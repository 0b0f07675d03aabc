import { test, expect } from '@playwright/test';
import { fixture, password, shot, signIn } from './fixture';

test('an expired session sends the officer to sign-in with a message and keeps the note being typed', async ({ page, context }) => {
  const f = fixture();
  await signIn(page, f.users.officer2);
  await page.goto('/cases/' + f.caseId);
  await page.getByLabel('New note').fill('Half-written note about the');
  // The session ends server-side (cookies gone, as when it expires).
  await context.clearCookies();
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('Your session expired')).toBeVisible();
  await shot(page, 'session-expired');
  await page.getByLabel('Email').fill(f.users.officer2);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('New note')).toHaveValue('Half-written note about the');
});
