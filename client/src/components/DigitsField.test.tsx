import { describe, expect, it } from 'vitest';
import { renderTextField } from '../test/renderTextField';
import { caretAfterDigits, DigitsField, storedDigits } from './DigitsField';

describe('digits-only input', () => {
  it('keeps only digits and shows them with Colombian thousands grouping', async () => {
    const { user, input, stored } = renderTextField(DigitsField);
    await user.type(input, '1a0-2 0.3,0x4050');
    expect(stored()).toBe('1020304050');
    expect(input).toHaveValue('1.020.304.050');
    expect(input).toHaveAttribute('inputmode', 'numeric');
  });

  it('groups with commas in English', async () => {
    const { user, input, stored } = renderTextField(DigitsField, 'en');
    await user.type(input, '79888777');
    expect(input).toHaveValue('79,888,777');
    expect(stored()).toBe('79888777');
  });

  it('accepts a pasted formatted number and clears to empty', async () => {
    const { user, input, stored } = renderTextField(DigitsField);
    await user.click(input);
    await user.paste('$ 52.111.222');
    expect(stored()).toBe('52111222');
    await user.clear(input);
    expect(stored()).toBe('');
    expect(input).toHaveValue('');
  });

  it('stores what it shows: no leading zeros', () => {
    expect(storedDigits('00120')).toBe('120');
    expect(storedDigits('0')).toBe('0');
    expect(storedDigits('abc')).toBe('');
  });

  it('keeps the caret after the same digit when the grouping changes', () => {
    expect(caretAfterDigits('1.234.567', 4)).toBe(5);
    expect(caretAfterDigits('1.234.567', 1)).toBe(1);
    expect(caretAfterDigits('1.234.567', 0)).toBe(0);
    expect(caretAfterDigits('1.234', 9)).toBe(5);
  });
});
