import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { fixture, signIn } from './fixture';
import { call, token } from './adminapi';

// Every screen of the workspace, walked by each role at a phone's, a tablet's and a laptop's width:
// no serious or critical axe violation, no horizontal page scroll, no console error, and a
// screenshot of each in web/artifacts/screens/ (.ci/run lists them as CI artefacts; Playwright
// empties test-results/ at each run, so they are not kept there; docs/guide/dashboard.md).
const out = resolve(import.meta.dirname, '..', 'artifacts', 'screens');
mkdirSync(out, { recursive: true });
const widths = [390, 768, 1366];

// Every screen each role reaches from the navigation, and the detail pages of the seeded case,
// transaction and KYC application. A role is walked only through the screens its navigation
// offers it (the server refuses the others; no screen calls an RPC its role cannot).
const everyone = ['/', '/overview', '/transactions', '/sanctions', '/interdictions', '/customers', '/kyc', '/kyb', '/reports',
  '/watchlists', '/account', '/api'];
const details = () => [`/cases/${fixture().caseId}`, `/transactions/${fixture().txId}`, `/kyc/${fixture().kycId}`, ...reportPage()];
// reportPage is the first report's page, when the suite has drafted one by then (the walk runs
// after the report specs in a full run; alone, there may be none).
let reportPath: string[] | undefined;
const reportPage = () => reportPath ?? [];
const adminOnly = ['/admin/users', '/admin/api-keys', '/admin/webhooks', '/admin/settings', '/admin/countries', '/admin/engines'];
const roles: { name: string; email: () => string; screens: () => string[] }[] = [
  { name: 'admin', email: () => fixture().admin, screens: () => [...everyone, '/audit', '/admin/rules', ...adminOnly, ...details()] },
  { name: 'officer', email: () => fixture().users.officer1, screens: () => [...everyone, '/admin/rules', ...details()] },
  { name: 'auditor', email: () => fixture().users.auditor, screens: () => [...everyone, '/audit', ...details()] },
];

// shotName names a screen's screenshot: its path, with an id replaced by what it is.
const shotName = (path: string) => (path === '/' ? '-queue' : path.replace(/^\/(cases|transactions|kyc|reports)\/.+$/, '/$1-page').replace(/\//g, '-'));

test.beforeAll(async () => {
  const l = await call('GET', '/reports?limit=1', { token: await token(fixture().admin) });
  const first = l.json.data?.items?.[0]?.id as string | undefined;
  reportPath = first ? [`/reports/${first}`] : [];
});

async function check(page: Page, errors: string[], role: string, path: string, width: number) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0, { timeout: 15_000 });
  // The API reference renders Swagger UI after its chunk loads.
  if (path === '/api') await expect(page.locator('.swagger-ui').first()).toBeVisible({ timeout: 20_000 });
  const scroll = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, iw: window.innerWidth }));
  expect.soft(scroll.sw, `${role} ${path} at ${width}px scrolls sideways`).toBeLessThanOrEqual(scroll.iw);
  // A status badge in a table shows its whole word (the KYC list cut "Pending" to "Pe…" at 390 px).
  const cut = await page.evaluate(() => [...document.querySelectorAll('td .mantine-Badge-label')]
    .filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent));
  expect.soft(cut, `${role} ${path} at ${width}px cuts badges`).toEqual([]);
  // No empty field leaves its separator behind (a report without a customer was named "SAR , 3 Dec 2026").
  const stray = await page.evaluate(() => document.querySelector('main')?.innerText.match(/\S* ,\S*/g) ?? []);
  expect.soft(stray, `${role} ${path} at ${width}px has a stray separator`).toEqual([]);
  const axe = await new AxeBuilder({ page }).analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect.soft(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`), `${role} ${path} at ${width}px`).toEqual([]);
  await page.screenshot({ path: resolve(out, `${role}${shotName(path)}-${width}.png`), fullPage: width !== 1366 });
  expect.soft(errors, `console errors on ${path}`).toEqual([]);
  errors.length = 0;
}

for (const r of roles) {
  for (const width of widths) {
    test(`${r.name} at ${width} px: every screen is accessible, fits and logs no error`, async ({ page }) => {
      const screens = r.screens();
      test.setTimeout(screens.length * 25_000);
      const errors: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      await signIn(page, r.email());
      // The sign-in screen's first Me (and its renewal) are refused by design: count from here.
      errors.length = 0;
      for (const path of screens) await check(page, errors, r.name, path, width);
    });
  }
}

// The navigation on a phone: behind a burger, readable, and it closes on the chosen screen.
test('on a phone the navigation opens from the burger and closes on a choice', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, fixture().users.officer1);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Overview' })).not.toBeInViewport();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeInViewport();
  await expect(nav.getByText('Customers and onboarding')).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0); // not an officer's
  await nav.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: /Regulatory reports/, level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Overview' })).not.toBeInViewport();
});
