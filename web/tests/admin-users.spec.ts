import { test, expect } from '@playwright/test';
import { fixture, password, shot, signIn } from './fixture';
import { audit, base, token, uniq } from './adminapi';
import { totp } from './totp';

test('users: create a user, sign in as them, enrol MFA with the QR code, reset it as the admin; audited', async ({ browser }) => {
  const f = fixture();
  const email = `newbie-${uniq()}@web.test`;
  const adminPage = await (await browser.newContext()).newPage();
  await signIn(adminPage, f.admin);
  await adminPage.getByRole('link', { name: 'Users' }).click();
  await expect(adminPage.getByRole('heading', { name: 'Users and roles' })).toBeVisible();
  const form = adminPage.getByRole('form', { name: 'Create a user' });
  await form.getByLabel('First name').fill('Nkechi');
  await form.getByLabel('Last name').fill('Newbie');
  await form.getByLabel("New user's email").fill(email);
  await form.getByLabel('Initial password').fill('short');
  await form.getByLabel('Role').selectOption('AUDITOR');
  await form.getByRole('button', { name: 'Create user' }).click();
  // The browser's own check refuses a short password before any call.
  await expect(adminPage.getByRole('row', { name: /Nkechi Newbie/ })).toHaveCount(0);
  await form.getByLabel('Initial password').fill(password);
  await form.getByRole('button', { name: 'Create user' }).click();
  const row = adminPage.getByRole('row', { name: /Nkechi Newbie/ });
  await expect(row).toBeVisible();
  await row.getByLabel('Role of Nkechi Newbie').selectOption('ANALYST');
  await expect(row.getByLabel('Role of Nkechi Newbie')).toHaveValue('ANALYST');
  await shot(adminPage, 'admin-users');

  // The new user signs in (their own browser), sees no admin links, and enrols MFA.
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await page.getByRole('link', { name: 'My account' }).click();
  await expect(page.getByText('Analyst', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Set up MFA' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('mfa-secret').textContent())!;
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Confirm MFA' }).click();
  await expect(page.getByRole('alert')).toContainText('invalid MFA code');
  await page.getByLabel('Code from the app').fill(totp(secret));
  await page.getByRole('button', { name: 'Confirm MFA' }).click();
  await expect(page.getByTestId('mfa-state')).toHaveText('Enrolled');
  await shot(page, 'admin-account-mfa');

  // The admin resets it.
  await adminPage.reload();
  await adminPage.getByRole('button', { name: 'Reset MFA of Nkechi Newbie' }).click();
  await expect(adminPage.getByRole('row', { name: /Nkechi Newbie/ })).toContainText('Not enrolled');
  await adminPage.getByRole('button', { name: 'Deactivate Nkechi Newbie' }).click();
  await expect(adminPage.getByRole('row', { name: /Nkechi Newbie/ })).toContainText('Deactivated');

  const tok = await token(f.admin);
  const created = (await audit(tok, 'user.created')).find((e) => e.after?.email === email);
  expect(created).toBeTruthy();
  const id = created!.resourceId;
  expect((await audit(tok, 'user.updated')).some((e) => e.resourceId === id && e.after?.role === 'ANALYST')).toBe(true);
  expect((await audit(tok, 'auth.mfa_enrolled')).some((e) => e.resourceId === id)).toBe(true);
  expect((await audit(tok, 'user.mfa_reset')).some((e) => e.resourceId === id)).toBe(true);
  expect((await audit(tok, 'user.deactivated')).some((e) => e.resourceId === id)).toBe(true);
});

test('my account: a password change takes effect at the next sign-in', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const email = `pw-${uniq()}@web.test`;
  const res = await fetch(`${base}/api/v1/auth/users`, { method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + tok },
    body: JSON.stringify({ email, password, firstName: 'Pat', lastName: 'Word', role: 'ANALYST' }) });
  expect(res.ok).toBe(true);
  await signIn(page, email);
  await page.getByRole('link', { name: 'My account' }).click();
  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByLabel('New password (8 characters or more)').fill('brand-new-password');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toContainText('current password is wrong');
  await form.getByLabel('Current password').fill(password);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('status')).toHaveText('Password changed.');
  await expect(token(email)).rejects.toThrow();
  expect(await token(email, 'brand-new-password')).toBeTruthy();
});
