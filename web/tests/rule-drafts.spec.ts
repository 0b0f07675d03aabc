import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { audit, call, token, uniq } from './adminapi';

// Issue 53: a rule change is drafted by one officer, back-tested and shadowed on live
// screenings from the same screen with the same comparison, and published by a second officer
// with a reason. The author is offered no publish control, and the API refuses them.
test('rule drafts: the author drafts, back-tests and shadows; only a second officer publishes', async ({ page, browser }) => {
  const f = fixture();
  const adminTok = await token(f.admin);
  const sender = `Shadowed ${uniq()}`;
  const name = `Shadow rule ${uniq()}`;

  // The author (the bank administrator) drafts the rule and starts its shadow.
  await signIn(page, f.admin);
  await page.getByRole('link', { name: 'Rules' }).click();
  await page.getByRole('button', { name: 'Draft a rule' }).click();
  const form = page.getByRole('form', { name: 'New draft' });
  await form.getByLabel('Draft name').fill(name);
  await form.getByLabel('Draft CEL expression').fill(`tx.senderName == "${sender}" && ctx.amountNgnKobo >= naira(100000)`);
  await form.getByLabel('Draft outcome').selectOption('REVIEW');
  await form.getByRole('button', { name: 'Save draft' }).click();
  const row = page.getByRole('table', { name: 'Open drafts' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('New rule');
  await row.getByRole('button', { name: `Open draft ${name}` }).click();
  const panel = page.getByRole('region', { name: `Draft ${name}` });
  await panel.getByRole('button', { name: 'Start shadow' }).click();
  await expect(row).toContainText('In shadow');

  // Live screenings: the shadow flags one and the verdict is the live rules' alone (this
  // tenant's strict KYC mode blocks an unknown sender whatever the custom rules say).
  const liveOutcomes: string[] = [];
  for (const amount of [150000, 5000]) {
    const r = await call('POST', '/transactions/screen', { token: adminTok }, { externalId: `SHADOW-${uniq()}`, type: 'TRANSFER', channel: 'MOBILE_APP', amount,
      senderAccountNumber: '0111222555', senderName: sender, receiverName: 'Chidi Okeke', timestamp: new Date().toISOString() });
    expect(r.json.success, JSON.stringify(r.json)).toBe(true);
    liveOutcomes.push(r.json.data.outcome);
    expect(JSON.stringify(r.json.data.triggeredRules)).not.toContain(name);
  }
  await expect(async () => {
    await panel.getByRole('button', { name: 'Refresh comparison' }).click();
    await expect(panel.getByTestId('Shadow-summary')).toContainText(/Would have flagged 1 of \d+ screenings/, { timeout: 1000 });
  }).toPass({ timeout: 15000 });
  await expect(panel.getByTestId('Shadow-cases')).toContainText(/\d+ would have opened, 0 would not have opened/);
  const examples = panel.getByRole('table', { name: 'Shadow examples' }).getByRole('row');
  await expect(examples).toHaveCount(2);
  await expect(examples.nth(1)).toContainText('Flagged');
  await expect(examples.nth(1)).toContainText(liveOutcomes[0].charAt(0) + liveOutcomes[0].slice(1).toLowerCase());
  // The stored verdict names no shadow rule either.
  const stored = (await call('GET', '/transactions?limit=5', { token: adminTok })).json.data.items as { verdict?: { triggeredRules?: { name: string }[] } }[];
  expect(JSON.stringify(stored)).not.toContain(name);
  await panel.getByRole('button', { name: 'Back-test last 30 days' }).click();
  await expect(panel.getByTestId('Back-test-summary')).toContainText('Would have flagged 1 of');
  // The author sees no publish control, and the API refuses them.
  await expect(panel.getByRole('button', { name: 'Publish draft' })).toHaveCount(0);
  await expect(panel.getByText('a second officer (bank administrator or compliance officer) publishes it')).toBeVisible();
  await shot(page, 'rule-draft-author');
  const drafts = (await call('GET', '/rule-drafts?status=DRAFT', { token: adminTok })).json.data.items as { id: string; name: string }[];
  const draft = drafts.find((d) => d.name === name)!;
  const refused = await call('POST', `/rule-drafts/${draft.id}/publish`, { token: adminTok }, { reason: 'my own' });
  expect(refused.status).toBe(403);
  expect(refused.json.error.code).toBe('FORBIDDEN');

  // The checker (a compliance officer) compares and publishes with a reason.
  const ctx2 = await browser.newContext();
  const checker = await ctx2.newPage();
  await signIn(checker, f.users.officer1);
  await checker.getByRole('link', { name: 'Rules' }).click();
  await expect(checker.getByRole('button', { name: 'New rule' })).toHaveCount(0);
  const row2 = checker.getByRole('table', { name: 'Open drafts' }).getByRole('row', { name: new RegExp(name) });
  await row2.getByRole('button', { name: `Open draft ${name}` }).click();
  const panel2 = checker.getByRole('region', { name: `Draft ${name}` });
  await expect(panel2.getByTestId('Shadow-summary')).toContainText(/Would have flagged 1 of \d+ screenings/);
  await expect(panel2.getByRole('button', { name: 'Publish draft' })).toBeDisabled();
  await panel2.getByLabel('Reason for publishing').fill('Shadow flagged the one large transfer only');
  await panel2.getByRole('button', { name: 'Publish draft' }).click();
  await expect(checker.getByRole('table', { name: 'Custom rules' }).getByRole('row', { name: new RegExp(name) })).toContainText('v1');
  await expect(row2).toHaveCount(0);
  await shot(checker, 'rule-draft-published');
  await ctx2.close();

  const events = await audit(adminTok, 'rule.draft_published');
  expect(events.some((e) => e.resourceId === draft.id && e.after?.reason === 'Shadow flagged the one large transfer only')).toBe(true);
  // Live now: the same transfer triggers the published rule, at version 1.
  const live = await call('POST', '/transactions/screen', { token: adminTok }, { externalId: `SHADOW-${uniq()}`, type: 'TRANSFER', channel: 'MOBILE_APP', amount: 150000,
    senderAccountNumber: '0111222555', senderName: sender, receiverName: 'Chidi Okeke', timestamp: new Date().toISOString() });
  const fired = (live.json.data.triggeredRules as { name: string; ruleVersion: number }[]).find((r) => r.name === name);
  expect(fired?.ruleVersion).toBe(1);
});
