import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';

test('work a case from OPEN to a four-eyes resolution with a second officer', async ({ browser }) => {
  const f = fixture();
  const one = await (await browser.newContext()).newPage();
  await signIn(one, f.users.officer1);
  await one.getByRole('link', { name: f.caseNumber }).click();
  await expect(one.getByTestId('case-status')).toHaveText('Open');
  // Only the moves the state machine allows are offered.
  const moves = one.getByRole('group', { name: 'Change status' }).getByRole('button');
  await expect(moves).toHaveText(['Move to in progress', 'Move to escalated']);
  await one.getByRole('button', { name: 'Assign to me' }).click();
  await expect(one.getByText('ASSIGNED', { exact: false }).first()).toBeVisible();
  await one.getByRole('button', { name: 'Move to in progress' }).click();
  await expect(one.getByTestId('case-status')).toHaveText('In progress');
  await one.getByLabel('New note').fill('Called the branch: deposits were split on purpose.');
  await one.getByRole('button', { name: 'Add note' }).click();
  await expect(one.getByText('Called the branch: deposits were split on purpose.')).toBeVisible();
  await one.getByLabel('Proposed resolution').selectOption('TRUE_POSITIVE');
  await one.getByLabel('Resolution rationale').fill('Structuring confirmed; STR to be filed.');
  await one.getByRole('button', { name: 'Propose resolution' }).click();
  await expect(one.getByTestId('case-status')).toHaveText('Pending review');
  await expect(one.getByText('A second officer must confirm it.')).toBeVisible();
  await expect(one.getByRole('button', { name: 'Confirm resolution' })).toHaveCount(0);
  await shot(one, 'case-proposed');

  const two = await (await browser.newContext()).newPage();
  await signIn(two, f.users.officer2);
  await two.goto('/cases/' + f.caseId);
  await two.getByRole('button', { name: 'Confirm resolution' }).click();
  await expect(two.getByTestId('case-status')).toHaveText('Resolved true positive');
  // A resolved case takes no new proposal (the API would refuse it), so none is offered.
  await expect(two.getByRole('button', { name: 'Propose resolution' })).toHaveCount(0);
  await shot(two, 'case-resolved');
});

test('a viewer (auditor) sees the case read-only; an unknown case id is not found', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.users.auditor);
  await page.goto('/cases/' + f.caseId);
  await expect(page.getByRole('heading', { name: new RegExp(f.caseNumber) })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add note' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Assign to me' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Propose resolution' })).toHaveCount(0);
  await shot(page, 'case-viewer');
  await page.goto('/cases/case_00000000-0000-0000-0000-000000000000');
  await expect(page.getByRole('heading', { name: 'Case not found' })).toBeVisible();
});
