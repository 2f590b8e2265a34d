// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isSystemCashier } from './ledger';

describe('the cashier of a row', () => {
  it('is the expiration job when the server names none or names it system', () => {
    expect(isSystemCashier('system')).toBe(true);
    expect(isSystemCashier(null)).toBe(true);
    expect(isSystemCashier('')).toBe(true);
    expect(isSystemCashier('cajero')).toBe(false);
    expect(isSystemCashier('System2')).toBe(false);
  });
});
