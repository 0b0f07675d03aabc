import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { call, token, newUser } from './adminapi';

test('engines: a weight changed in the browser makes a new configuration version; out of bounds shows the API\'s error; an optional engine is disabled', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const before = (await call('GET', '/engines', { token: tok })).json.data as { version: number; engines: { key: string; weight: number; enabled: boolean }[] };
  const behav = before.engines.find((e) => e.key === 'BEHAVIORAL')!;
  try {
    await signIn(page, await newUser(tok, 'BANK_ADMIN', 'Ada', 'Admin'));
    await page.getByRole('link', { name: 'Engines' }).click();
    const version = page.getByLabel('Configuration version');
    await expect(version).toContainText(`version ${before.version}`);
    const row = page.getByRole('table', { name: 'Engines' }).getByRole('row', { name: 'BEHAVIORAL' });
    const form = row.getByRole('form', { name: 'Change BEHAVIORAL' });

    // Out of bounds (0.5 – 2.0): the API refuses with 400 and the screen shows its message.
    await form.getByLabel('New weight').fill('3');
    await form.getByLabel('Reason').fill('too much');
    await form.getByRole('button', { name: 'Save weight' }).click();
    await expect(form.getByRole('alert')).toContainText(/weight/i);
    await expect(version).toContainText(`version ${before.version}`);

    await form.getByLabel('New weight').fill('1.4');
    await form.getByLabel('Reason').fill('behavioural signals matter more (browser)');
    await form.getByRole('button', { name: 'Save weight' }).click();
    await expect(version).toContainText(`version ${before.version + 1}`);
    await expect(version).toContainText('behavioural signals matter more (browser)');
    await expect(row.getByRole('cell').nth(2)).toHaveText('1.4');

    await form.getByLabel('Reason').fill('switch off for the test');
    await form.getByRole('button', { name: 'Disable' }).click();
    await expect(version).toContainText(`version ${before.version + 2}`);
    await expect(row.getByRole('cell').nth(8)).toHaveText('No');
    // A mandatory engine offers no Disable button.
    await expect(page.getByRole('form', { name: 'Change SANCTIONS' }).getByRole('button', { name: 'Disable' })).toHaveCount(0);
    await shot(page, 'admin-engines');

    const now = (await call('GET', '/engines', { token: tok })).json.data as typeof before;
    expect(now.version).toBe(before.version + 2);
    const b = now.engines.find((e) => e.key === 'BEHAVIORAL')!;
    expect(b.weight).toBe(1.4);
    expect(b.enabled).toBe(false);
  } finally {
    await call('PATCH', '/engines/BEHAVIORAL', { token: tok }, { weight: behav.weight, enabled: behav.enabled, reason: 'restore after the browser test' });
  }
});
