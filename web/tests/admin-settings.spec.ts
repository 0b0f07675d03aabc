import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { audit, call, token, uniq } from './adminapi';

// screen sends a 30,000 NGN transfer from the customer with bvn and returns its outcome and the
// names of the rules it triggered.
async function screen(tok: string, bvn: string): Promise<{ outcome: string; rules: string[] }> {
  const r = await call('POST', '/transactions/screen', { token: tok }, { externalId: `SET-${uniq()}`, type: 'TRANSFER', channel: 'MOBILE_APP', amount: 30000,
    senderAccountNumber: '0111222444', senderBvn: bvn, senderName: 'Bisi Settings', receiverName: 'Chidi Okeke', timestamp: new Date().toISOString() });
  expect(r.json.success, JSON.stringify(r.json)).toBe(true);
  return { outcome: r.json.data.outcome, rules: (r.json.data.triggeredRules as { name: string }[]).map((t) => t.name) };
}

test('settings: a lower tier limit set in the browser changes the next screening\'s outcome, and is audited', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const before = (await call('GET', '/tenants/me/limits', { token: tok })).json.data;
  // A customer whose KYC (tier 1) an officer approved: their screenings pass the identity check.
  const bvn = '229' + String(Date.now()).slice(-8);
  const app = (await call('POST', '/kyc/applications', { token: tok }, { entityType: 'INDIVIDUAL', firstName: 'Bisi', lastName: 'Settings', bvn })).json;
  expect(app.success, JSON.stringify(app)).toBe(true);
  const approved = (await call('PATCH', `/kyc/applications/${app.data.id}/approve`, { token: tok }, { riskLevel: 'LOW' })).json;
  expect(approved.success, JSON.stringify(approved)).toBe(true);
  try {
    const first = await screen(tok, bvn);
    expect(first.rules.some((n) => n.startsWith('AML-008'))).toBe(false);
    expect(first.outcome).not.toBe('BLOCK');
    await signIn(page, f.admin);
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Tier limits' });
    for (const t of ['Tier 1 limit', 'Tier 2 limit', 'Tier 3 limit']) await form.getByLabel(t).fill('20000');
    await form.getByRole('button', { name: 'Save limits' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved.');
    const second = await screen(tok, bvn);
    expect(second.rules.some((n) => n.startsWith('AML-008'))).toBe(true);
    expect(second.outcome).toBe('BLOCK'); // AML-008's outcome: the limit set in the browser changed the verdict

    // The other settings: an invalid colour is refused with the field named; a valid one saved.
    const brand = page.getByRole('form', { name: 'Branding' });
    await brand.getByLabel('Primary colour (#RRGGBB)').fill('blue');
    await brand.getByRole('button', { name: 'Save branding' }).click();
    await expect(brand.getByRole('alert')).toContainText('primary');
    await brand.getByLabel('Primary colour (#RRGGBB)').fill('#0B5FFF');
    await brand.getByLabel('Logo URL (https)').fill('https://cdn.web.test/logo.png');
    await brand.getByRole('button', { name: 'Save branding' }).click();
    await expect(brand.getByRole('status')).toHaveText('Saved.');
    const fx = page.getByRole('form', { name: 'Set an FX rate' });
    await fx.getByLabel('Currency (ISO 4217)').fill('GHS');
    await fx.getByLabel('NGN per unit').fill('95.5');
    await fx.getByRole('button', { name: 'Save rate' }).click();
    await expect(page.getByRole('table', { name: 'FX rates' })).toContainText('GHS');
    await expect(page.getByRole('form', { name: 'KYC trust mode' }).getByLabel('Trust mode')).toHaveValue('STRICT');
    await expect(page.getByRole('form', { name: 'Identity providers' }).getByLabel('Provider mode')).toHaveValue('EMBEDDED');
    await shot(page, 'admin-settings');

    const limits = await audit(tok, 'tenant.limits.updated');
    expect(limits[0].after).toMatchObject({ tierLimits: { TIER_1: '20000' } });
    expect((await audit(tok, 'tenant.branding_updated'))[0].after).toMatchObject({ primaryColor: '#0B5FFF', logoUrl: 'https://cdn.web.test/logo.png' });
    expect((await audit(tok, 'tenant.fx_rates.updated')).length).toBeGreaterThan(0);
  } finally {
    await call('PATCH', '/tenants/me/limits', { token: tok }, { tierLimits: before.tierLimits });
  }
});
