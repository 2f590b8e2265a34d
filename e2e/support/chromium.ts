// Debian's Chromium, never a downloaded browser (`npx playwright install` is not used), with the
// flags that keep it quiet and deterministic in containers and CI. Shared by the tests
// (playwright.config.ts) and the phone measurement of `make bench` (bench/phone.ts).

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const launchOptions = {
  executablePath: CHROMIUM_PATH,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
