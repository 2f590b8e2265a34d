// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { csvField, csvFormat, csvLines } from './csv';

describe('CSV writer', () => {
  it('leaves plain values as they are', () => {
    expect(csvField('Ana')).toBe('Ana');
    expect(csvField(1500)).toBe('1500');
    expect(csvField(-300)).toBe('-300');
    expect(csvField(0)).toBe('0');
  });

  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvField('Gómez, Ana')).toBe('"Gómez, Ana"');
    expect(csvField('Taza "grande"')).toBe('"Taza ""grande"""');
    expect(csvField('línea 1\nlínea 2')).toBe('"línea 1\nlínea 2"');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
  });

  it('writes missing values as asked', () => {
    expect(csvField(null, { missing: 'N/A' })).toBe('N/A');
    expect(csvField(undefined, { missing: 'N/A' })).toBe('N/A');
    expect(csvField('', { missing: 'N/A' })).toBe('N/A');
    expect(csvField(Number.NaN, { missing: 'N/A' })).toBe('N/A');
    expect(csvField(null)).toBe('');
  });

  it('keeps text that looks like a formula from running in a spreadsheet', () => {
    expect(csvField('=HYPERLINK("x")', { text: true })).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+57 300', { text: true })).toBe("'+57 300");
    expect(csvField('@user', { text: true })).toBe("'@user");
    expect(csvField(-5, { text: true })).toBe('-5');
    expect(csvField('-5')).toBe('-5');
  });

  it('joins fields with commas and rows with CRLF', () => {
    expect(csvLines([['a', 'b'], ['1', '"x,y"']])).toBe('a,b\r\n1,"x,y"\r\n');
  });

  it('writes Spanish files with semicolons and a decimal comma, English ones with commas', () => {
    const es = csvFormat('es');
    expect(csvField('Gómez, Ana', { format: es })).toBe('Gómez, Ana');
    expect(csvField('a;b', { format: es })).toBe('"a;b"');
    expect(csvField(1.5, { format: es })).toBe('1,5');
    expect(csvField(-300, { format: es })).toBe('-300');
    expect(csvLines([['a', '1,5'], ['b', '2']], es)).toBe('a;1,5\r\nb;2\r\n');
    const en = csvFormat('en');
    expect(csvField(1.5, { format: en })).toBe('1.5');
    expect(csvField('a;b', { format: en })).toBe('a;b');
    expect(csvLines([['a', '1.5']], en)).toBe('a,1.5\r\n');
  });
});
