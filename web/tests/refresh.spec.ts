import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect } from '@playwright/test';
import { fixture, password } from './fixture';

// Sessions that last while people work (issue 50 point 5). A second `complyd serve` on the same
// database with COMPLYD_ACCESS_TTL=10s: the dashboard renews the access cookie before it ends
// (AuthService.Refresh with the refresh cookie), retries once after a renewal when a call meets
// an expired cookie, and only when the refresh cookie is refused asks to sign in again, over the
// screen, whose unsaved text is still there afterwards.
const art = resolve(import.meta.dirname, '..', 'artifacts');
const port = Number(process.env.COMPLYD_TEST_PORT ?? 18089) + 1;
const base = `http://127.0.0.1:${port}`;
let proc: ChildProcess;

test.beforeAll(async () => {
  const f = fixture();
  const env = { ...process.env, DATABASE_URL: `postgres://${process.env.PGUSER ?? 'postgres'}@${process.env.PGHOST ?? '127.0.0.1'}:${process.env.PGPORT ?? '5432'}/${f.db}?sslmode=disable`,
    COMPLYD_ADDR: `127.0.0.1:${port}`, COMPLYD_JWT_SECRET: 'web-test-secret-web-test-secret-0123456789', COMPLYD_BLOB_DIR: resolve(art, 'blobs'),
    COMPLYD_COOKIE_SECURE: 'false', COMPLYD_RATE_LIMIT_API: '0', COMPLYD_SANCTIONS_REFRESH: 'off', COMPLYD_ACCESS_TTL: '10s' };
  const log = openSync(resolve(art, 'complyd-refresh.log'), 'w');
  proc = spawn(resolve(art, 'complyd'), ['serve'], { env, stdio: ['ignore', log, log] });
  for (let i = 0; ; i++) {
    try { if ((await fetch(base + '/health')).ok) break; } catch { /* not up yet */ }
    if (i > 150) throw new Error('the short-TTL complyd did not start; see artifacts/complyd-refresh.log');
    await new Promise((r) => setTimeout(r, 200));
  }
});
test.afterAll(() => { proc?.kill(); });

test('the session is renewed silently while the officer works, and a refused refresh asks to sign in over the kept draft', async ({ page }) => {
  test.setTimeout(120_000);
  const f = fixture();
  const refreshes: number[] = [];
  page.on('response', (r) => { if (r.url().includes('AuthService/Refresh')) refreshes.push(r.status()); });
  await page.goto(base + '/');
  await page.getByLabel('Email').fill(f.users.officer1);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // Before sign-in the start-up Me had no session and its renewal was refused (401): count from here.
  refreshes.length = 0;

  // 25 s of work (2.5 access lifetimes): moving between screens never meets the sign-in.
  await page.getByRole('link', { name: 'Reports' }).click();
  for (let i = 0; i < 5; i++) {
    await page.waitForTimeout(5_000);
    await page.getByRole('link', { name: 'Transactions' }).click();
    await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
    await expect(page.getByText('Session expired')).toHaveCount(0);
    await page.getByRole('link', { name: 'Reports' }).click();
  }
  expect(refreshes.length).toBeGreaterThanOrEqual(2);
  expect(refreshes.every((s) => s === 200)).toBe(true);

  // The access cookie alone is gone (as when it expired): the next call is renewed and retried.
  await page.context().clearCookies({ name: 'svc_access_token' });
  const before = refreshes.length;
  await page.getByRole('link', { name: 'Interdictions' }).click();
  await expect(page.getByRole('heading', { name: 'Interdictions', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
  expect(refreshes.length).toBeGreaterThan(before);
  await expect(page.getByText('Session expired')).toHaveCount(0);

  // Both cookies gone (signed out elsewhere, refresh expired): the next renewal is refused and
  // the prompt opens over the screen, which keeps the text being typed.
  await page.getByRole('link', { name: 'Reports' }).click();
  await page.getByLabel('Transaction ids').fill('a draft worth keeping');
  await page.context().clearCookies();
  const dialog = page.getByRole('dialog', { name: 'Session expired' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByText('Your session expired')).toBeVisible();
  await dialog.getByLabel('Email').fill(f.users.officer1);
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Transaction ids')).toHaveValue('a draft worth keeping');
});
