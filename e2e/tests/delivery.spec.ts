// How the browser gets the built client and the API's answers: compressed as the build left
// them, hashed files cached for a year, the page itself revalidated, the API never stored
// (docs/performance.md, "Serving the client").

import { statSync } from 'node:fs';
import path from 'node:path';
import type { Response } from '@playwright/test';
import { as, expect, test } from '../support/fixtures';
import { t } from '../support/i18n';
import { AppShell } from '../support/pages/shell';
import { CLIENT_COPY_DIR } from '../support/run';

const IMMUTABLE = 'public, max-age=31536000, immutable';

test.use(as('cajero'));

test('the dashboard arrives compressed at build time, its scripts cached for a year and the page revalidated', async ({ page }) => {
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));
  await new AppShell(page).open('/main', 'dashboard.title');
  await expect(page.getByRole('img', { name: t('dashboard.chart.description') })).toBeVisible();

  const answered = (pattern: RegExp) => {
    const found = responses.filter((response) => pattern.test(new URL(response.url()).pathname));
    expect(found, `an answer for ${pattern}`).not.toHaveLength(0);
    return found;
  };

  const [document] = answered(/^\/main$/);
  const documentHeaders = await document!.allHeaders();
  expect(documentHeaders['cache-control']).toBe('no-cache');
  expect(documentHeaders['content-encoding']).toBe('br');

  // The entry script, the chart's chunk and the styles: the build's own brotli file, whole.
  const files = [...answered(/^\/assets\/index-[^/]+\.js$/), ...answered(/^\/assets\/PointsChart-[^/]+\.js$/), ...answered(/^\/assets\/[^/]+\.css$/)];
  for (const file of files) {
    const headers = await file.allHeaders();
    const name = new URL(file.url()).pathname;
    expect(headers['content-encoding'], name).toBe('br');
    expect(headers['cache-control'], name).toBe(IMMUTABLE);
    expect(Number(headers['content-length']), name).toBe(statSync(path.join(CLIENT_COPY_DIR, `${name}.br`)).size);
  }

  for (const api of answered(/^\/api\//)) {
    expect((await api.allHeaders())['cache-control'], new URL(api.url()).pathname).toBe('no-store');
  }
});
