// Idempotency keys for accredit, redeem and void (docs/points.md, "Idempotency-Key"): the server answers a
// repeated key with the first answer, so a double click or a retry after a lost answer never
// posts twice.

import { useCallback, useRef } from 'react';

function randomUuid(): string {
  const cryptoApi = globalThis.crypto;
  // randomUUID exists only in secure contexts (https, localhost); a till on a plain-http LAN
  // address still has getRandomValues.
  if (typeof cryptoApi?.randomUUID === 'function') return cryptoApi.randomUUID();
  const bytes = new Uint8Array(16);
  cryptoApi.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function newIdempotencyKey(): string {
  return randomUuid();
}

/**
 * Whether a failed attempt may still have been carried out by the server: no answer at all
 * (network, timeout) or a server error. Then a retry of the same request must reuse the key.
 */
export function mayHaveSucceeded(error: unknown): boolean {
  const status = error && typeof error === 'object' && 'status' in error ? (error as { status: unknown }).status : undefined;
  if (typeof status === 'number') return status >= 500 || status === 408 || status === 429;
  return true;
}

/**
 * Runs a posting at most once at a time, with one idempotency key per submit.
 *
 * - A second call while one is running is ignored (a double click), before React even re-renders
 *   the disabled button.
 * - A retry of the same request (same `fingerprint`) after a failure that may have gone through
 *   reuses the key, so the server answers it with the first result instead of posting again.
 * - A success, a definitive refusal, or a different request starts a new key.
 */
export function useIdempotentSubmit() {
  const running = useRef(false);
  const pending = useRef<{ fingerprint: string; key: string } | null>(null);

  return useCallback(async function submit<T>(
    fingerprint: string,
    post: (idempotencyKey: string) => Promise<T>,
  ): Promise<{ ran: false } | { ran: true; result: T }> {
    if (running.current) return { ran: false };
    running.current = true;
    const reuse = pending.current?.fingerprint === fingerprint;
    const key = reuse && pending.current ? pending.current.key : newIdempotencyKey();
    pending.current = { fingerprint, key };
    try {
      const result = await post(key);
      pending.current = null;
      return { ran: true, result };
    } catch (error) {
      if (!mayHaveSucceeded(error)) pending.current = null;
      throw error;
    } finally {
      running.current = false;
    }
  }, []);
}
