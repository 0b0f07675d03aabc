import { defineConfig } from '@playwright/test';

// The browser tests run against a real `complyd serve` (the built binary) on a fresh PostgreSQL
// database that tests/global-setup.ts creates and seeds. Playwright drives Debian's Chromium
// (its own browser download is not reachable here): CHROMIUM_PATH, default /usr/bin/chromium.
export default defineConfig({
  testDir: 'tests',
  globalSetup: './tests/global-setup.ts',
  globalTeardown: './tests/global-teardown.ts',
  workers: 1,
  timeout: 60_000,
  outputDir: 'test-results',
  use: {
    baseURL: process.env.COMPLYD_TEST_URL ?? `http://127.0.0.1:${process.env.COMPLYD_TEST_PORT ?? 18089}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
