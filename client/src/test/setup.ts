import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { DEFAULT_LOCALE, i18n, laterTexts, setupI18n } from '../i18n';
import { LOCALES } from '../lib/format';

// Lazy-loaded pages are transformed on first use; on a busy machine that takes over the default
// 1 s that findBy*/waitFor wait. A signed-in page's first render loads two in turn (the shell,
// then the page), which under a load of 20 on two cores has taken 5.5 s.
configure({ asyncUtilTimeout: 10000 });

// The app loads each language's texts on demand (src/i18n); tests get both up front, so that a
// render shows its texts at once in either language.
await setupI18n(DEFAULT_LOCALE);
await i18n.loadLanguages([...LOCALES]);
await laterTexts();

beforeEach(() => {
  // No test reaches a network: a call nobody mocked fails loudly.
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      throw new Error(`Unexpected fetch: ${url}`);
    }),
  );
});

afterEach(() => {
  // Pure tests run in the node environment, without a DOM.
  if (typeof window === 'undefined') return;
  cleanup();
  window.localStorage.clear();
  document.documentElement.className = '';
});
