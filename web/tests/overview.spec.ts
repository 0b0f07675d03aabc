import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, type Download } from '@playwright/test';
import { fixture, password, shot, signIn } from './fixture';

// The Overview (issue 17): a tenant of its own (no other spec touches its figures) screens three
// transactions through the API; the Overview shows exactly what those screenings answered, and
// a chart's bar opens the transactions list filtered to them, which exports them as CSV. The
// audit log filters by action and exports the same rows as CSV.
const base = process.env.COMPLYD_TEST_URL ?? `http://127.0.0.1:${process.env.COMPLYD_TEST_PORT ?? 18089}`;
const art = resolve(import.meta.dirname, '..', 'artifacts');
// label and screenings spell an enum value and a count as the screens do (ui/format.ts).
const label = (s: string) => { const l = s.replace(/_/g, ' ').toLowerCase(); return l.charAt(0).toUpperCase() + l.slice(1); };
const screenings = (n: number) => `${n} ${n === 1 ? 'screening' : 'screenings'}`;

async function rest(path: string, token: string, body?: unknown) {
  const res = await fetch(base + '/api/v1' + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: 'Bearer ' + token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!json.success) throw new Error(`${path}: ${JSON.stringify(json.error)}`);
  return json.data;
}

// csvRows parses RFC 4180 CSV (quoted fields with commas, quotes and newlines).
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], cell = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; }
    else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; }
    else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}
const readDownload = async (d: Download) => readFileSync((await d.path())!, 'utf8');

const email = `ov-admin-${Date.now()}@overview.test`;
const screened: { externalId: string; outcome: string; caseId?: string }[] = [];

test.beforeAll(async () => {
  const f = fixture();
  const env = { ...process.env, DATABASE_URL: `postgres://${process.env.PGUSER ?? 'postgres'}@${process.env.PGHOST ?? '127.0.0.1'}:${process.env.PGPORT ?? '5432'}/${f.db}?sslmode=disable`,
    COMPLYD_JWT_SECRET: 'web-test-secret-web-test-secret-0123456789' };
  execFileSync(resolve(art, 'complyd'), ['tenant', 'create', '--name', 'Overview Bank', '--slug', `overview-${Date.now()}`, '--admin-email', email,
    '--admin-password', password, '--admin-first-name', 'Ovi', '--admin-last-name', 'Admin'], { env, stdio: 'ignore' });
  const token = (await rest('/auth/login', '', { email, password })).accessToken;
  const txs = [
    { externalId: 'OV-1', senderName: 'Emeka Okafor', amount: 2500000, senderAccountNumber: '0200000001' }, // the sanctions list's entry
    { externalId: 'OV-2', senderName: 'Ada Obi', amount: 1000, senderAccountNumber: '0200000002' },
    { externalId: 'OV-3', senderName: 'Bola Ade', amount: 5000, senderAccountNumber: '0200000003' },
  ];
  for (const t of txs) {
    const r = await rest('/transactions/screen', token, { ...t, type: 'TRANSFER', channel: 'MOBILE_APP', senderBvn: '22212345678',
      receiverName: 'Chidi Okeke', timestamp: new Date().toISOString() });
    screened.push({ externalId: t.externalId, outcome: r.outcome, caseId: r.caseId });
  }
});

test('the overview shows the screened figures and a bar opens the filtered list, which exports as CSV', async ({ page }) => {
  await signIn(page, email);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByTestId('screenings-total')).toHaveText('3');
  const byOutcome = new Map<string, number>();
  for (const s of screened) byOutcome.set(s.outcome, (byOutcome.get(s.outcome) ?? 0) + 1);
  for (const o of ['APPROVE', 'REVIEW', 'ESCALATE', 'BLOCK']) {
    await expect(page.getByRole('link', { name: `${label(o)}: ${screenings(byOutcome.get(o) ?? 0)}`, exact: true })).toBeVisible();
  }
  await expect(page.getByTestId('cases-opened')).toHaveText(String(screened.filter((s) => s.caseId).length));
  await expect(page.getByTestId('wallet-balance')).toHaveText('₦0.00');
  await shot(page, 'overview');

  // The outcome of the sanctions hit (BLOCK): its bar opens the transactions list filtered to it.
  const outcome = screened[0].outcome;
  const want = screened.filter((s) => s.outcome === outcome).map((s) => s.externalId);
  await page.getByRole('link', { name: `${label(outcome)}: ${screenings(want.length)}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/transactions\\?outcome=${outcome}&from=`));
  // The list's screen is loaded on first use (lazy route): the overview stays up until it is in.
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Outcome')).toHaveValue(outcome);
  const rows = page.getByRole('row');
  await expect(rows).toHaveCount(1 + want.length);
  for (const ext of want) await expect(page.getByRole('link', { name: ext })).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^transactions-\d{8}T\d{6}Z\.csv$/);
  const csv = csvRows(await readDownload(download));
  expect(csv[0].slice(0, 3)).toEqual(['id', 'externalId', 'transactionTimestamp']);
  expect(csv.slice(1).map((r) => r[1]).sort()).toEqual([...want].sort());
  for (const r of csv.slice(1)) expect(r[13]).toBe(outcome);
});

test('the audit log filters by action and exports the filtered events as CSV', async ({ page }) => {
  const f = fixture();
  const auditorTok = (await rest('/auth/login', '', { email: f.users.auditor, password })).accessToken;
  const expected = await rest('/audit-events?action=user.created&limit=100', auditorTok);
  expect(expected.total).toBeGreaterThanOrEqual(3); // the three users the setup created
  await signIn(page, f.users.auditor);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Action').fill('user.created');
  await expect(page.getByText(`(${expected.total} in all)`)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Audit events' }).getByRole('row')).toHaveCount(1 + Math.min(20, expected.total));
  // The action reads in words, its code on hover; the raw code is not the cell's text.
  const firstAction = page.getByRole('table', { name: 'Audit events' }).getByRole('row').nth(1).getByRole('cell').nth(2);
  await expect(firstAction).toHaveText('User created');
  await expect(firstAction.locator('[title="user.created"]')).toHaveCount(1);
  await shot(page, 'audit-log');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-events-.*\.csv$/);
  const csv = csvRows(await readDownload(download));
  expect(csv[0]).toEqual(['id', 'createdAt', 'actorId', 'actorType', 'action', 'resourceType', 'resourceId', 'ipAddress', 'requestId', 'before', 'after']);
  expect(csv.length - 1).toBe(expected.total);
  expect(new Set(csv.slice(1).map((r) => r[4]))).toEqual(new Set(['user.created']));
  expect(csv.slice(1).map((r) => r[0]).sort()).toEqual(expected.items.map((e: { id: string }) => e.id).sort());
});

test('the case queue exports its filtered cases as CSV', async ({ page }) => {
  await signIn(page, email);
  await page.goto('/?scope=all&status=OPEN');
  const want = screened.filter((s) => s.caseId).map((s) => s.caseId!);
  await expect(page.getByText(`(${want.length} in all)`)).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^cases-.*\.csv$/);
  const csv = csvRows(await readDownload(download));
  expect(csv[0].slice(0, 5)).toEqual(['id', 'caseNumber', 'type', 'priority', 'status']);
  expect(csv.slice(1).map((r) => r[0]).sort()).toEqual([...want].sort());
  for (const r of csv.slice(1)) expect(r[4]).toBe('OPEN');
});
