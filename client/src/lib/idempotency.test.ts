import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mayHaveSucceeded, newIdempotencyKey, useIdempotentSubmit } from './idempotency';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency keys', () => {
  it('are random v4 UUIDs', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(UUID);
    expect(newIdempotencyKey()).not.toBe(a);
  });

  it('are made without crypto.randomUUID too (plain-http addresses)', () => {
    const original = globalThis.crypto.randomUUID;
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toMatch(UUID);
    } finally {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: original, configurable: true });
    }
  });

  it('treat lost answers and server errors as possibly done', () => {
    expect(mayHaveSucceeded({ status: 'FETCH_ERROR' })).toBe(true);
    expect(mayHaveSucceeded({ status: 502 })).toBe(true);
    expect(mayHaveSucceeded({ status: 409 })).toBe(false);
    expect(mayHaveSucceeded({ status: 400 })).toBe(false);
  });
});

/**
 * Submits through the hook, noting each key a request was sent with; a request given `failure`
 * fails with it (as the API's error) after it was sent.
 */
function keyedSubmits() {
  const { result } = renderHook(() => useIdempotentSubmit());
  const keys: string[] = [];
  const submit = (request: string, failure?: unknown) =>
    result.current(request, async (key) => {
      keys.push(key);
      if (failure !== undefined) throw failure;
    });
  return { keys, submit };
}

describe('useIdempotentSubmit', () => {
  it('ignores a second submit while the first runs (double click)', async () => {
    const { result } = renderHook(() => useIdempotentSubmit());
    let release!: () => void;
    const post = vi.fn(() => new Promise<string>((resolve) => (release = () => resolve('ok'))));
    const first = result.current('same', post);
    const second = await result.current('same', post);
    expect(second).toEqual({ ran: false });
    release();
    expect(await first).toEqual({ ran: true, result: 'ok' });
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('retries with the same key after a failure that may have gone through', async () => {
    const { keys, submit } = keyedSubmits();
    await expect(submit('request-1', { status: 'FETCH_ERROR' })).rejects.toEqual({ status: 'FETCH_ERROR' });
    await submit('request-1');
    expect(keys[1]).toBe(keys[0]);
  });

  it('uses a new key after a success, a refusal, or for a different request', async () => {
    const { keys, submit } = keyedSubmits();
    await submit('a');
    await submit('a');
    await expect(submit('a', { status: 409 })).rejects.toBeTruthy();
    await submit('a');
    await expect(submit('b', { status: 503 })).rejects.toBeTruthy();
    await submit('c');
    expect(new Set(keys).size).toBe(6);
  });
});
