import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Lazy-loaded pages are transformed on first use; on a busy machine that takes over the default
// 1 s that findBy*/waitFor wait.
configure({ asyncUtilTimeout: 5000 });

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
