import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';
import { call, token } from './adminapi';

// Issue 48 point 1: four eyes on a case cannot be skipped. The case page offers only the moves
// the server allows the caller (Case.allowedTransitions), and the API refuses the bypass.

async function escalatedCase(tok: string, title: string) {
  const c = await call('POST', '/cases', { token: tok }, { type: 'SANCTIONS_HIT', priority: 'HIGH', title, description: 'OFAC hit at 0.87' });
  expect(c.status).toBe(201);
  expect((await call('PATCH', `/cases/${c.json.data.id}/status`, { token: tok }, { status: 'ESCALATED' })).status).toBe(200);
  return c.json.data as { id: string; caseNumber: string };
}

test('the proposer of a resolution is not offered, and is refused, a direct resolution or its approval; a second officer confirms it', async ({ page, browser }) => {
  const f = fixture();
  const officerTok = await token(f.users.officer1);
  const c = await escalatedCase(officerTok, 'Proposed, then resolved alone?');
  await signIn(page, f.users.officer1);
  await page.goto('/cases/' + c.id);
  const moves = page.getByRole('group', { name: 'Change status' }).getByRole('button');
  await expect(moves).toHaveText(['Move to in progress', 'Move to pending review', 'Move to resolved true positive', 'Move to resolved false positive']);

  await page.getByLabel('Proposed resolution').selectOption('FALSE_POSITIVE');
  await page.getByLabel('Resolution rationale').fill('Namesake: date of birth differs.');
  await page.getByRole('button', { name: 'Propose resolution' }).click();
  await expect(page.getByText('A second officer must confirm it.')).toBeVisible();
  // The bypass of the issue: no "Move to resolved …" while the proposal is pending.
  await expect(moves).toHaveText(['Move to in progress', 'Move to escalated']);
  await expect(page.getByRole('button', { name: /Move to resolved/ })).toHaveCount(0);
  await shot(page, 'four-eyes-pending');

  // The API refuses the same bypass, naming the pending proposal.
  const r = await call('PATCH', `/cases/${c.id}/status`, { token: officerTok }, { status: 'RESOLVED_FALSE_POSITIVE', resolutionNote: 'me alone' });
  expect(r.status).toBe(409);
  expect(r.json.error.code).toBe('CONFLICT');
  expect(r.json.error.data.reason).toBe('RESOLUTION_PENDING');
  expect(r.json.error.data.pendingProposal.resolution).toBe('FALSE_POSITIVE');
  await page.reload();
  await expect(page.getByTestId('case-status')).toHaveText('Pending review');
  // Nor may the proposer decide it: no "Confirm resolution" for him, and the API refuses it.
  await expect(page.getByRole('button', { name: 'Confirm resolution' })).toHaveCount(0);
  const own = await call('POST', `/cases/${c.id}/resolution-proposals/${r.json.error.data.pendingProposal.id}/approve`, { token: officerTok }, {});
  expect(own.status).toBe(403);

  // A second officer confirms it in the screen: the case is resolved, by two people.
  const two = await (await browser.newContext()).newPage();
  await signIn(two, f.users.officer2);
  await two.goto('/cases/' + c.id);
  await two.getByRole('button', { name: 'Confirm resolution' }).click();
  await expect(two.getByTestId('case-status')).toHaveText('Resolved false positive');
});

test('with four eyes mandatory (Settings), no officer is offered a direct resolution', async ({ page }) => {
  const f = fixture();
  const adminTok = await token(f.admin);
  try {
    await signIn(page, f.admin);
    await page.goto('/admin/settings');
    const form = page.getByRole('form', { name: 'Case controls' });
    await form.getByLabel('Four eyes for every case resolution').check();
    await form.getByRole('button', { name: 'Save case controls' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved.');
    expect((await call('GET', '/tenants/me/case-settings', { token: adminTok })).json.data.fourEyesResolution).toBe(true);

    const c = await escalatedCase(adminTok, 'Four eyes mandatory');
    await page.goto('/cases/' + c.id);
    const moves = page.getByRole('group', { name: 'Change status' }).getByRole('button');
    await expect(moves).toHaveText(['Move to in progress', 'Move to pending review']);
    await expect(page.getByText('Resolving this case goes through a proposal that a second officer confirms')).toBeVisible();
    await shot(page, 'four-eyes-mandatory');
    const r = await call('PATCH', `/cases/${c.id}/status`, { token: adminTok }, { status: 'RESOLVED_TRUE_POSITIVE', resolutionNote: 'direct' });
    expect(r.status).toBe(409);
    expect(r.json.error.data.reason).toBe('FOUR_EYES_REQUIRED');
  } finally {
    // The fixture tenant is shared by the other specs: leave its default (off) as found.
    await call('PATCH', '/tenants/me/case-settings', { token: adminTok }, { fourEyesResolution: false });
  }
});
