import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { audit, call, token, uniq } from './adminapi';

test('rules: write a rule checked as typed, back-test it over stored transactions, save it and disable it', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  // Three stored transactions of a sender only this test uses: two of them at or above 100,000 NGN.
  const sender = `Probe ${uniq()}`;
  for (const amount of [5000, 150000, 250000]) {
    const r = await call('POST', '/transactions/screen', { token: tok }, { externalId: `RULE-${uniq()}`, type: 'TRANSFER', channel: 'MOBILE_APP', amount,
      senderAccountNumber: '0111222333', senderName: sender, receiverName: 'Chidi Okeke', timestamp: new Date().toISOString() });
    expect(r.json.success, JSON.stringify(r.json)).toBe(true);
  }
  const name = `Large transfer from ${sender}`;
  await signIn(page, f.admin);
  await page.getByRole('link', { name: 'Rules' }).click();
  await expect(page.getByRole('table', { name: 'Mandatory rules' })).toContainText('AML-001');
  await page.getByRole('button', { name: 'New rule' }).click();
  await page.getByLabel('Rule name').fill(name);
  const expr = page.getByLabel('CEL expression');
  await expr.fill(`tx.senderName == "${sender}" && ctx.amountNgnKobo >=`);
  await expect(page.getByTestId('expr-check')).toContainText('Does not compile');
  await expect(page.getByRole('button', { name: 'Run back-test' })).toBeDisabled();
  await expr.fill(`tx.senderName == "${sender}" && ctx.amountNgnKobo >= naira(100000)`);
  await expect(page.getByTestId('expr-check')).toHaveText('Expression compiles.');
  await page.getByRole('button', { name: 'Run back-test' }).click();
  const result = page.getByRole('region', { name: 'Back-test result' });
  await expect(result.getByTestId('backtest-summary')).toContainText('Would have triggered on 2 of');
  await expect(result.getByRole('table', { name: 'Example transactions' }).getByRole('row')).toHaveCount(3);
  await expect(result).toContainText('₦150,000.00');
  await shot(page, 'admin-rule-backtest');
  await page.getByLabel('Score (0 to 100)').fill('40');
  await page.getByLabel('Outcome when it fires').selectOption('REVIEW');
  await page.getByRole('button', { name: 'Save rule' }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  // The box follows the saved rule: it changes once the API has answered.
  await row.getByLabel(`Enabled: ${name}`).click();
  await expect(row.getByLabel(`Enabled: ${name}`)).not.toBeChecked();

  const rules = (await call('GET', '/rules?limit=100', { token: tok })).json.data.items as { id: string; name: string; enabled: boolean }[];
  const saved = rules.find((r) => r.name === name)!;
  expect(saved.enabled).toBe(false);
  expect((await audit(tok, 'rule.created')).some((e) => e.resourceId === saved.id)).toBe(true);
  expect((await audit(tok, 'rule.updated')).some((e) => e.resourceId === saved.id && e.after?.enabled === false)).toBe(true);
});

test('rules: the rule screen shows the version in force, the transaction page the version that fired', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const sender = `Versioned ${uniq()}`;
  const name = `Versioned rule ${uniq()}`;
  const created = await call('POST', '/rules', { token: tok }, { name, expression: `tx.senderName == "${sender}"`, score: 30, outcome: 'REVIEW' });
  expect(created.json.success, JSON.stringify(created.json)).toBe(true);
  const externalId = `RULEV-${uniq()}`;
  const r = await call('POST', '/transactions/screen', { token: tok }, { externalId, type: 'TRANSFER', channel: 'MOBILE_APP', amount: 1000,
    senderAccountNumber: '0111222444', senderName: sender, receiverName: 'Chidi Okeke', timestamp: new Date().toISOString() });
  expect(r.json.success, JSON.stringify(r.json)).toBe(true);
  // The rule changes after the screening: version 2 is in force, the stored verdict names version 1.
  const upd = await call('PATCH', `/rules/${created.json.data.id}`, { token: tok }, { score: 35 });
  expect(upd.json.data.version).toBe(2);

  await signIn(page, f.admin);
  await page.getByRole('link', { name: 'Rules' }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('v2');
  await page.getByRole('link', { name: 'Transactions' }).click();
  await page.getByRole('link', { name: externalId }).click();
  await expect(page.getByText(new RegExp(`${name}.*rule version 1`))).toBeVisible();
});
