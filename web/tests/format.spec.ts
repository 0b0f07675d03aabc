import { test, expect } from '@playwright/test';
import { dateTime, enumLabel, enumWords, money, plural, ruleLabel } from '../src/ui/format';

// The formatting every screen uses (web/src/ui/format.ts), checked on its own: no browser needed.
const t = new Date('2026-11-30T23:34:00Z');

test('a time in Lagos is named WAT, not the offset Intl gives (GMT+1)', () => {
  expect(dateTime(t, 'Africa/Lagos')).toBe('1 Dec 2026, 00:34 WAT');
  expect(dateTime(t)).toBe('1 Dec 2026, 00:34 WAT');
});

test('a zone Intl names keeps its name; an unknown offset-only zone shows the zone', () => {
  expect(dateTime(new Date('2026-07-01T12:00:00Z'), 'Europe/London')).toBe('1 Jul 2026, 13:00 BST');
  expect(dateTime(t, 'Europe/London')).toBe('30 Nov 2026, 23:34 GMT');
  expect(dateTime(t, 'America/Bogota')).toBe('30 Nov 2026, 18:34 America/Bogota');
});

test('amounts, plurals and enum values', () => {
  expect(money('10500000')).toBe('₦10,500,000.00');
  expect(plural(1, 'screening')).toBe('1 screening');
  expect(plural(2, 'screening')).toBe('2 screenings');
  expect(enumLabel('POST_NO_DEBIT')).toBe('Post no debit');
});

test('a built-in rule is named without its key; a numbered rule with its number once', () => {
  expect(ruleLabel('KYC_STATUS', 'KYC Not Verified')).toBe('KYC Not Verified');
  expect(ruleLabel('AML-008', 'AML-008 KYC Tier Limit')).toBe('AML-008 KYC Tier Limit');
  expect(ruleLabel('AML-002', 'Structuring')).toBe('AML-002 Structuring');
});

test('enum values keep their acronyms; sentences from the API read as words', async () => {
  const { prose } = await import('../src/ui/format');
  expect(enumLabel('TIER_1')).toBe('Tier 1');
  expect(enumLabel('VERIFIED_BVN_OR_NIN')).toBe('Verified BVN or NIN');
  expect(enumLabel('CALL_FOR_ACTION')).toBe('Call for action');
  expect(prose('KYC status DOCUMENT_UPLOADED at TIER_1')).toBe('KYC status Document uploaded at Tier 1');
  expect(prose('1 open case(s)')).toBe('1 open case');
  expect(prose('2 screening alert(s) in 90 days')).toBe('2 screening alerts in 90 days');
  expect(prose('3 case(s) resolved as true positive')).toBe('3 cases resolved as true positive');
  expect(prose('listed token(s) not in query')).toBe('listed tokens not in query');
});

test('inside a sentence an enum value is in lower-case words, its acronyms kept', () => {
  expect(enumWords('IN_PROGRESS')).toBe('in progress');
  expect(enumWords('RESOLVED_TRUE_POSITIVE')).toBe('resolved true positive');
  expect(enumWords('KYC_REVIEW')).toBe('KYC review');
  expect(enumWords('COMPLIANCE_OFFICER')).toBe('compliance officer');
  expect(enumWords('')).toBe('—');
});
