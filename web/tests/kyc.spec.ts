import { test, expect } from '@playwright/test';
import { fixture, shot, signIn } from './fixture';

// Runs before the approval below: the auditor sees the unreviewed passport without the review
// buttons (an approved application shows none to anybody).
test('the auditor sees a document awaiting review, read-only', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.users.auditor);
  await page.goto(`/kyc/${f.kycId}`);
  await expect(page.getByRole('heading', { name: 'KYC: Amaka Eze' })).toBeVisible();
  await expect(page.getByText('Verification: pending review')).toBeVisible();
  await expect(page.getByRole('button', { name: /Verify document/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Reject document/ })).toHaveCount(0);
});

test('review and approve a KYC application with a document', async ({ page }) => {
  const f = fixture();
  await signIn(page, f.users.officer1);
  await page.getByRole('link', { name: 'KYC review' }).click();
  await page.getByRole('link', { name: 'Amaka Eze' }).click();
  await expect(page.getByRole('heading', { name: 'KYC: Amaka Eze' })).toBeVisible();
  const img = page.getByRole('img', { name: 'passport.png preview' });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(16);
  await expect(page.getByText('Verification: pending review')).toBeVisible();
  await shot(page, 'kyc-review');

  // The passport counts as an ID only once verified; rejecting needs a reason, said in words.
  const review = page.getByRole('group', { name: 'Review passport passport.png' });
  await review.getByRole('button', { name: 'Reject document passport passport.png' }).click();
  await expect(review.getByRole('alert')).toContainText('reason');
  await review.getByRole('button', { name: 'Verify document passport passport.png' }).click();
  await expect(page.getByText(/Verification: Verified/)).toBeVisible();
  await expect(page.getByRole('button', { name: /Verify document/ })).toHaveCount(0);
  await shot(page, 'kyc-document-verified');

  // Issue 48 point 4: the BVN was never verified, so the page lists it, and the approval first
  // asks, in a dialog naming what it overrides, for the reason (required).
  const evidence = page.getByRole('list', { name: 'Failed and missing checks' });
  await expect(evidence).toContainText('not verified');
  await page.getByLabel('Decision reason').fill('Passport matches the BVN record.');
  await page.getByRole('button', { name: 'Approve application' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve over open evidence' });
  await expect(dialog.getByRole('list', { name: 'Overridden' })).toContainText('not verified');
  await dialog.getByLabel('Override reason').fill('');
  await expect(dialog.getByRole('button', { name: 'Approve with override' })).toBeDisabled();
  await dialog.getByLabel('Override reason').fill('BVN registry down; passport verified in branch.');
  await shot(page, 'kyc-override-dialog');
  await dialog.getByRole('button', { name: 'Approve with override' }).click();
  await expect(page.getByTestId('kyc-status')).toHaveText('Approved');
  await expect(page.getByRole('button', { name: 'Approve application' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Overrides' })).toContainText('BVN registry down; passport verified in branch.');
  await shot(page, 'kyc-approved');

  // Issue 48 point 6: the approved applicant is a customer, reached from the application, with
  // its network.
  await page.getByRole('link', { name: 'Customer Amaka Eze' }).click();
  await expect(page.getByRole('heading', { name: /Amaka Eze/ }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Network of the customer' })).toBeVisible();
  await shot(page, 'kyc-customer-network');
});
