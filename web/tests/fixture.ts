import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';

export const password = 'correct-horse-battery';
export const fixture = () => JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'artifacts', 'fixture.json'), 'utf8')) as {
  admin: string; users: Record<string, string>; caseId: string; caseNumber: string; kycId: string; txId: string;
  mfa: { email: string; secret: string; usedStep: number }; otherCaseId: string;
};
export const shot = (page: Page, name: string) => page.screenshot({ path: resolve(import.meta.dirname, '..', 'artifacts', 'screens', name + '.png'), fullPage: true });

export async function signIn(page: Page, email: string) {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}
