import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';
import { launchOptions } from './support/chromium';

const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  // Starts a fresh database and the real server; its returned function tears them down.
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  // Sized for the 2-core machines the project runs on (E2E_WORKERS overrides).
  workers: Number(process.env.E2E_WORKERS) || Math.max(1, Math.min(4, availableParallelism())),
  forbidOnly: CI,
  // CI retries once to capture a trace; a test that needed the retry is reported as flaky.
  retries: CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    // Set by the global setup once the server listens (workers start after it).
    baseURL: process.env.E2E_BASE_URL,
    headless: true,
    locale: 'es-CO',
    timezoneId: 'America/Bogota',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    video: 'off',
    // The client's service worker would serve later loads of a test from its cache; only
    // tests/operations/offline.spec.ts, which is about it, lets it run.
    serviceWorkers: 'block',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    launchOptions,
  },
  projects: [
    {
      name: 'setup',
      testMatch: /.*\.setup\.ts/,
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
    {
      name: 'chromium',
      dependencies: ['setup'],
      testIgnore: /.*\.setup\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 900 }, launchOptions },
    },
  ],
});
