import { describe, expect, it } from 'vitest';
import { formatDocument, isAllDigits, normalizeDocument } from './document';

describe('ID documents', () => {
  it('drop dots and spaces and upper-case letters, as the server does', () => {
    expect(normalizeDocument('1.098.765.432')).toBe('1098765432');
    expect(normalizeDocument(' 79 888 777 ')).toBe('79888777');
    expect(normalizeDocument('pa-778899')).toBe('PA-778899');
    expect(normalizeDocument('Pa.778 899')).toBe('PA778899');
  });

  it('show thousands grouping only when all digits', () => {
    expect(formatDocument('1098765432', 'es')).toBe('1.098.765.432');
    expect(formatDocument('79888777', 'en')).toBe('79,888,777');
    expect(formatDocument('0123456', 'es')).toBe('0.123.456');
    expect(formatDocument('PA-778899', 'es')).toBe('PA-778899');
    expect(formatDocument('X1234567', 'en')).toBe('X1234567');
    expect(isAllDigits('')).toBe(false);
  });
});
