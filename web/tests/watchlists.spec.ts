import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';

// The tenant's PEP list, bulk-imported from a CSV file chosen in the browser.
test('import a watchlist CSV, see its entries, and see a bad file rejected with its line', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.admin);
  await page.getByRole('link', { name: 'Watchlists' }).click();

  // The global lists with their version, publication date and load time; a stale list and a
  // missing expected one are warnings.
  const global = page.getByRole('table', { name: 'Global lists' });
  await expect(global.getByRole('cell', { name: 'OFAC-SDN', exact: true })).toBeVisible();
  const os = global.getByRole('row').filter({ hasText: 'OPENSANCTIONS' });
  await expect(os.getByRole('cell', { name: '27 May 2024', exact: true })).toBeVisible();
  await expect(os.getByRole('cell', { name: /^Stale: \d+ days$/ })).toBeVisible();
  const ofac = global.getByRole('row').filter({ hasText: 'OFAC-SDN' });
  await expect(ofac.getByRole('cell', { name: 'not stated', exact: true })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: /OPENSANCTIONS is stale: published 27 May 2024, \d+ days ago \(maximum 8\)/ })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Expected list missing: UN-SC.' })).toBeVisible();
  await shot(page, 'watchlists-freshness');

  const listName = `Lagos PEPs ${Date.now()}`;
  await page.getByLabel('New list name').fill(listName);
  await page.getByLabel('List type').selectOption('PEP');
  await page.getByRole('button', { name: 'Create list' }).click();
  await expect(page.getByRole('heading', { name: `${listName} (PEP)` })).toBeVisible();

  // A bad file: the row without a name is reported by line, and nothing is kept.
  await page.getByLabel('CSV or JSON Lines file').setInputFiles({
    name: 'bad.csv', mimeType: 'text/csv',
    buffer: Buffer.from('name,dateOfBirth\nGood Person,1980-01-01\n,1975-05-05\nThird Person,14/02/1971\n'),
  });
  await page.getByRole('button', { name: 'Import file' }).click();
  const errors = page.getByRole('list', { name: 'Import errors' });
  await expect(errors.getByText('Line 3, name: must be 1-300 characters')).toBeVisible();
  await expect(errors.getByText('Line 4, dateOfBirth: must be an ISO 8601 date (YYYY-MM-DD)')).toBeVisible();
  await expect(page.getByText('This list has no entries.')).toBeVisible();
  await shot(page, 'watchlists-import-errors');

  await page.getByLabel('CSV or JSON Lines file').setInputFiles({
    name: 'peps.csv', mimeType: 'text/csv',
    buffer: Buffer.from('name,aliases,entityType,dateOfBirth,country,reference\n' +
      'Babajide Olusola Sanwo-Olu,Jide Sanwo-Olu;B. O. Sanwo-Olu,INDIVIDUAL,1965-06-25,NG,PEP-NG-0001\n' +
      'Ngozi Chinwe Okafor-Eze,,,1971-02-14,NG,PEP-NG-0002\n'),
  });
  await page.getByRole('button', { name: 'Import file' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported 2 entries (2 in the list).' })).toBeVisible();
  const entries = page.getByRole('table', { name: `Entries of ${listName}` });
  await expect(entries.getByRole('cell', { name: 'Babajide Olusola Sanwo-Olu', exact: true })).toBeVisible();
  await expect(entries.getByRole('cell', { name: 'Jide Sanwo-Olu; B. O. Sanwo-Olu', exact: true })).toBeVisible();
  await expect(entries.getByRole('cell', { name: 'PEP-NG-0002', exact: true })).toBeVisible();

  // Add and delete one entry by hand.
  await page.getByLabel('Entry name').fill('Musa Bello');
  await page.getByRole('button', { name: 'Add entry' }).click();
  await expect(entries.getByRole('cell', { name: 'Musa Bello', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Delete Musa Bello' }).click();
  await expect(entries.getByRole('cell', { name: 'Musa Bello', exact: true })).toHaveCount(0);
  await shot(page, 'watchlists-imported');
});
