import { vi } from 'vitest';

export interface MockRequest {
  method: string;
  path: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export interface MockResponse {
  status?: number;
  statusText?: string;
  body?: unknown;
  /** Send the body as text/plain instead of JSON. */
  text?: boolean;
}

export type MockHandler = MockResponse | ((request: MockRequest) => MockResponse | Promise<MockResponse>);

/**
 * Replaces fetch with a small router keyed by 'METHOD /api/path'. Unknown routes answer 404
 * {message}. Returns the recorded requests.
 */
export function mockApi(routes: Record<string, MockHandler>) {
  const requests: MockRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const raw = await request.text();
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // keep the text
    }
    const recorded: MockRequest = { method: request.method, path: url.pathname, url, headers: request.headers, body };
    requests.push(recorded);
    const handler = routes[`${request.method} ${url.pathname}`];
    const answer: MockResponse = handler
      ? typeof handler === 'function'
        ? await handler(recorded)
        : handler
      : { status: 404, body: { message: `No mock for ${request.method} ${url.pathname}` } };
    const status = answer.status ?? 200;
    if (status === 204) return new Response(null, { status });
    return new Response(answer.text ? String(answer.body ?? '') : JSON.stringify(answer.body ?? null), {
      status,
      statusText: answer.statusText ?? '',
      headers: { 'Content-Type': answer.text ? 'text/plain' : 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}

/** The tenant data every company screen loads first. */
export function tenantRoutes(settings: unknown): Record<string, MockHandler> {
  return {
    'GET /api/settings': { body: settings },
    'GET /api/pos': { body: [{ id: 3, name: 'Caja principal' }] },
    'GET /api/categories': { body: [] },
  };
}
