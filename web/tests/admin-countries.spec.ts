import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { audit, call, token, uniq, newUser } from './adminapi';

// jurisdictionFired screens a small transfer to country and tells whether the High-Risk
// Jurisdiction rule fired (it does for a country on the tenant's effective CALL_FOR_ACTION list).
async function jurisdictionFired(tok: string, country: string): Promise<boolean> {
  const r = await call('POST', '/transactions/screen', { token: tok }, { externalId: `CTY-${uniq()}`, type: 'TRANSFER', channel: 'MOBILE_APP', amount: 1000,
    senderAccountNumber: '0111222555', senderName: 'Kemi Country', receiverName: 'Kofi Mensah', receiverCountry: country, timestamp: new Date().toISOString() });
  expect(r.json.success, JSON.stringify(r.json)).toBe(true);
  return (r.json.data.triggeredRules as { name: string }[]).some((t) => t.name === 'High-Risk Jurisdiction');
}

test('countries: the FATF lists are shown with source; an override set in the browser changes screening, and deleting it restores the default', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  try {
    expect(await jurisdictionFired(tok, 'GH')).toBe(false);
    await signIn(page, await newUser(tok, 'BANK_ADMIN', 'Ada', 'Admin'));
    await page.getByRole('link', { name: 'Countries' }).click();
    const table = page.getByRole('table', { name: 'Countries' });
    // A global default: North Korea is on the FATF call-for-action list, with its source.
    const kp = table.getByRole('row', { name: 'KP' });
    await expect(kp).toContainText('Call for action');
    await expect(kp).toContainText(/FATF/);

    const form = page.getByRole('form', { name: 'Set a country override' });
    await form.getByLabel('Country (ISO 3166 alpha-2)').fill('gh');
    await form.getByLabel('Level').selectOption('CALL_FOR_ACTION');
    await form.getByLabel('Reason').fill('internal risk assessment (browser)');
    await form.getByRole('button', { name: 'Save override' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved.');
    const gh = table.getByRole('row', { name: 'GH' });
    await expect(gh).toContainText('internal risk assessment (browser)');
    await expect(gh.getByRole('cell').nth(1)).toHaveText('Call for action');
    await shot(page, 'admin-countries');
    // The override is in force for the tenant's next screening (the cache is notified at commit).
    await expect.poll(() => jurisdictionFired(tok, 'GH'), { timeout: 5000 }).toBe(true);
    const ev = await audit(tok, 'country.override_set');
    expect(ev[0]?.resourceId ?? '').toMatch(/GH/);

    await gh.getByRole('button', { name: 'Delete override for GH' }).click();
    await expect(table.getByRole('row', { name: 'GH' })).toHaveCount(0);
    await expect.poll(() => jurisdictionFired(tok, 'GH'), { timeout: 5000 }).toBe(false);
  } finally {
    await call('DELETE', '/countries/GH', { token: tok });
  }
});
