import { test, expect } from '@playwright/test';
import { fixture, password, shot, signIn } from './fixture';
import { call, token, uniq, newUser } from './adminapi';

test('interdictions: the queue filters by account; a lift asked in the browser cannot be approved by its requester (403) and is approved by a second officer', async ({ page, browser }) => {
  const f = fixture();
  const tok = await token(f.admin);
  // The second officer, created through the API for this test.
  const second = `lift-${uniq()}@web.test`;
  const u = await call('POST', '/auth/users', { token: tok }, { email: second, password, firstName: 'Second', lastName: 'Officer', role: 'COMPLIANCE_OFFICER' });
  expect(u.json.success, JSON.stringify(u.json)).toBe(true);
  // A case with a confirmed FREEZE on a fresh account: in force, so it can be lifted.
  const account = '30' + String(Date.now()).slice(-8);
  const kase = (await call('POST', '/cases', { token: tok }, { type: 'AML_ALERT', priority: 'HIGH', title: 'Mule account', description: 'Funds layered through a new account' })).json.data;
  const created = (await call('POST', `/cases/${kase.id}/interdictions`, { token: tok }, { action: 'FREEZE', accountNumber: account, reason: 'court order pending' })).json;
  expect(created.success, JSON.stringify(created)).toBe(true);
  const id = created.data.id as string;
  // Four eyes on the confirmation too: the second officer confirms the admin's request.
  const confirmed = (await call('POST', `/interdictions/${id}/confirm`, { token: await token(second) }, { reference: 'CORE-77' })).json;
  expect(confirmed.success, JSON.stringify(confirmed)).toBe(true);

  const requester = await newUser(tok, 'BANK_ADMIN', 'Ada', 'Admin');
  await signIn(page, requester);
  await page.getByRole('link', { name: 'Interdictions' }).click();
  const filters = page.getByRole('form', { name: 'Interdiction filters' });
  await filters.getByLabel('Account number').fill(account);
  await filters.getByLabel('In force').selectOption('yes');
  const table = page.getByRole('table', { name: 'Interdictions' });
  await expect(table.getByRole('row')).toHaveCount(2); // the header and ours
  const row = table.getByRole('row', { name: id });
  await expect(row.getByRole('link', { name: kase.caseNumber })).toHaveAttribute('href', `/cases/${kase.id}`);
  await expect(row).toContainText('Confirmed');

  await row.getByLabel('Lift reason').fill('court order discharged');
  await row.getByRole('button', { name: 'Request lift' }).click();
  await expect(row).toContainText('Lift requested');
  await expect(row).toContainText('by you: court order discharged');
  // Four eyes: the requester is offered neither approve nor reject, and the screen says why; the
  // API refuses the requester's approval (checked here through REST).
  await expect(row.getByRole('button', { name: 'Approve lift' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Reject lift' })).toHaveCount(0);
  await expect(row.getByRole('note')).toContainText('you asked for this lift');
  const refused = await call('POST', `/interdictions/${id}/lift/approve`, { token: await token(requester) }, {});
  expect(refused.status, JSON.stringify(refused.json)).toBe(403);
  await shot(page, 'interdictions-four-eyes');
  expect((await call('GET', `/interdictions/${id}`, { token: tok })).json.data.status).toBe('LIFT_REQUESTED');

  // The second officer approves.
  const two = await (await browser.newContext()).newPage();
  await signIn(two, second);
  await two.getByRole('link', { name: 'Interdictions' }).click();
  await two.getByRole('form', { name: 'Interdiction filters' }).getByLabel('Status').selectOption('LIFT_REQUESTED');
  const row2 = two.getByRole('table', { name: 'Interdictions' }).getByRole('row', { name: id });
  await row2.getByLabel('Note or rejection reason').fill('checked the discharge order');
  await row2.getByRole('button', { name: 'Approve lift' }).click();
  // Lifted: it leaves the LIFT_REQUESTED filter and shows under LIFTED.
  await expect(row2).toHaveCount(0);
  await two.getByRole('form', { name: 'Interdiction filters' }).getByLabel('Status').selectOption('LIFTED');
  await expect(two.getByRole('table', { name: 'Interdictions' }).getByRole('row', { name: id })).toContainText('lifted');
  const after = (await call('GET', `/interdictions/${id}`, { token: tok })).json.data;
  expect(after.status).toBe('LIFTED');
  expect(after.liftedBy).not.toBe(after.liftRequestedBy);
});

test('interdictions: a freeze requested from a case is confirmed in the screen by a second officer with the core banking reference; the requester has no confirm button and is refused by the API', async ({ page }) => {
  const f = fixture();
  const tok = await token(f.admin);
  const requester = await newUser(tok, 'COMPLIANCE_OFFICER', 'Rita', 'Requester');
  const confirmer = await newUser(tok, 'COMPLIANCE_OFFICER', 'Carl', 'Confirmer');
  const account = '31' + String(Date.now()).slice(-8);
  // A transaction from the account opens the case the freeze is requested from (pre-filled account).
  const scr = (await call('POST', '/transactions/screen', { token: tok }, { externalId: `FRZ-${uniq()}`, type: 'TRANSFER', channel: 'MOBILE_APP',
    amount: 5000000, currency: 'NGN', senderAccountNumber: account, senderName: 'Mule Account', receiverName: 'Viktor Petrovsky',
    receiverAccountNumber: '2999999999', timestamp: new Date().toISOString() })).json;
  expect(scr.success, JSON.stringify(scr)).toBe(true);
  const kase = (await call('POST', '/cases', { token: tok }, { type: 'AML_ALERT', priority: 'HIGH', title: 'Freeze from the screen',
    description: 'Mule account', relatedTransactionId: scr.data.transactionId })).json;
  expect(kase.success, JSON.stringify(kase)).toBe(true);

  await signIn(page, requester);
  await page.goto(`/cases/${kase.data.id}`);
  await expect(page.getByLabel('Account number')).toHaveValue(account); // pre-filled from the case's transaction
  await page.getByLabel('Interdiction reason').fill('court order FHC/L/CS/9/2026');
  await page.getByRole('button', { name: 'Request interdiction' }).click();
  await expect(page.getByText('awaiting the bank\'s confirmation')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm interdiction' })).toHaveCount(0);
  const list = (await call('GET', `/cases/${kase.data.id}/interdictions`, { token: await token(requester) })).json;
  const id = list.data.items[0].id as string;
  const refused = await call('POST', `/interdictions/${id}/confirm`, { token: await token(requester) }, { reference: 'CORE-1' });
  expect(refused.status).toBe(403);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Email')).toBeVisible(); // signed out before the next sign-in loads the app
  await signIn(page, confirmer);
  await page.goto(`/cases/${kase.data.id}`);
  const form = page.getByRole('form', { name: /Confirm/ });
  await expect(form.getByRole('button', { name: 'Confirm interdiction' })).toBeDisabled(); // the reference is required
  await form.getByLabel('Core banking reference').fill('CBS-2026-4411');
  await form.getByRole('button', { name: 'Confirm interdiction' }).click();
  await expect(page.getByTestId(`interdiction-status-${id}`)).toHaveText(/confirmed/i);
  await expect(page.getByText('(ref CBS-2026-4411)')).toBeVisible();
  await shot(page, 'interdiction-confirmed-in-screen');
});
