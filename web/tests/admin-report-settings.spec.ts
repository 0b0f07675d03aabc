import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { audit, call, token, newUser } from './adminapi';

test('report settings: a BANK_ADMIN edits the goAML settings in the browser; an invalid entity id shows the field; the token stays write-only', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const before = (await call('GET', '/tenants/me/report-settings', { token: tok })).json.data;
  try {
    await signIn(page, await newUser(tok, 'BANK_ADMIN', 'Ada', 'Admin'));
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Report settings' });
    await form.getByLabel('Reporting entity id').fill('NFIU-12');
    await form.getByRole('button', { name: 'Save report settings' }).click();
    await expect(form.getByRole('alert')).toContainText(/rentity/i);

    await form.getByLabel('Reporting entity id').fill('40123');
    await form.getByLabel('Institution name').fill('Web Test Bank Plc');
    await form.getByLabel('First name').fill('Bola');
    await form.getByLabel('Last name').fill('Reporter');
    await form.getByLabel('Email').fill('mlro@web.test');
    await form.getByLabel('Filing endpoint (empty: manual filing)').fill('https://goaml.web.test/submit');
    await form.getByLabel('Filing token').fill('s3cret-filing-token');
    await form.getByLabel('STR hours').fill('48');
    await form.getByRole('button', { name: 'Save report settings' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved.');
    await expect(form.getByLabel('Filing token (set; blank keeps it)')).toHaveValue('');
    await shot(page, 'admin-report-settings');

    const now = (await call('GET', '/tenants/me/report-settings', { token: tok })).json.data;
    expect(now).toMatchObject({ rentityId: '40123', institutionName: 'Web Test Bank Plc', filingUrl: 'https://goaml.web.test/submit', filingTokenSet: true,
      reportingPerson: { firstName: 'Bola', lastName: 'Reporter', email: 'mlro@web.test' }, deadlineHours: { str: 48 } });
    expect(JSON.stringify(now)).not.toContain('s3cret-filing-token');
    expect((await audit(tok, 'report_settings.updated')).length).toBeGreaterThan(0);
  } finally {
    await call('PUT', '/tenants/me/report-settings', { token: tok }, { ...before, filingTokenSet: undefined, filingToken: '' });
  }
});
