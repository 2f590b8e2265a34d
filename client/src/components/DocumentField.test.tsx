import { describe, expect, it } from 'vitest';
import { renderTextField } from '../test/renderTextField';
import { caretAfter, DocumentField } from './DocumentField';

describe('ID document input', () => {
  it('keeps letters (upper-cased), digits and dashes, and drops dots and spaces', async () => {
    const { user, input, stored } = renderTextField(DocumentField);
    await user.type(input, 'pa-778 899');
    expect(stored()).toBe('PA-778899');
    expect(input).toHaveValue('PA-778899');
  });

  it('groups an all-digit document by thousands, typed or pasted with its dots', async () => {
    const { user, input, stored } = renderTextField(DocumentField);
    await user.type(input, '1.098.765.432');
    expect(stored()).toBe('1098765432');
    expect(input).toHaveValue('1.098.765.432');
    await user.clear(input);
    expect(stored()).toBe('');
  });

  it('groups with commas in English, and a pasted grouped number stays digits', async () => {
    const { user, input, stored } = renderTextField(DocumentField, 'en');
    await user.click(input);
    await user.paste('1,098,765,432');
    expect(stored()).toBe('1098765432');
    expect(input).toHaveValue('1,098,765,432');
  });

  it('puts the caret back after the same characters', () => {
    expect(caretAfter('1.098.765', 2, '.')).toBe(3);
    expect(caretAfter('PA-77', 3, '')).toBe(3);
    expect(caretAfter('12', 5, '.')).toBe(2);
  });
});
