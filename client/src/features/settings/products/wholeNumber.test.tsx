import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { formatWholeNumber, parseWholeNumber } from './wholeNumber';
import { WholeNumberField } from './WholeNumberField';

describe('product numbers as typed', () => {
  it('keeps digits only, stripping everything else', () => {
    expect(parseWholeNumber('12a3')).toBe(123);
    expect(parseWholeNumber('$ 1.234.567')).toBe(1234567);
    expect(parseWholeNumber('-45,6')).toBe(456);
    expect(parseWholeNumber(' 7 8 ')).toBe(78);
  });

  it('reads an empty field, or one without digits, as 0', () => {
    expect(parseWholeNumber('')).toBe(0);
    expect(parseWholeNumber('abc')).toBe(0);
  });

  it('drops leading zeros', () => {
    expect(parseWholeNumber('0005')).toBe(5);
  });

  it('never exceeds an exact whole number (15 digits at most)', () => {
    expect(parseWholeNumber('1234567890123456789')).toBe(123456789012345);
  });

  it('shows Colombian thousands grouping', () => {
    expect(formatWholeNumber(0)).toBe('0');
    expect(formatWholeNumber(999)).toBe('999');
    expect(formatWholeNumber(1000)).toBe('1.000');
    expect(formatWholeNumber(1234567)).toBe('1.234.567');
  });
});

function PriceField({ initial = 0, onValue }: { initial?: number; onValue?: (value: number) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <WholeNumberField
        label="Precio"
        name="price"
        prefix="$"
        value={value}
        onChange={(next) => {
          setValue(next);
          onValue?.(next);
        }}
      />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('the product number field', () => {
  const input = () => screen.getByRole('textbox', { name: 'Precio' });
  const stored = () => screen.getByTestId('value').textContent;

  it('shows the $ prefix and the grouped value', () => {
    renderWithProviders(<PriceField initial={45000} />);
    expect(screen.getByText('$')).toBeInTheDocument();
    expect(input()).toHaveValue('45.000');
  });

  it('keeps the caret after the same digit when the grouping changes', async () => {
    const { user } = renderWithProviders(<PriceField initial={12345} />);
    // '12.345': put the caret after '12' and type 9 -> '129.345', caret after '129'.
    await user.click(input());
    (input() as HTMLInputElement).setSelectionRange(2, 2);
    await user.keyboard('9');
    expect(input()).toHaveValue('129.345');
    expect((input() as HTMLInputElement).selectionStart).toBe(3);
  });

  it('groups thousands as the user types and stores the number', async () => {
    const { user } = renderWithProviders(<PriceField />);
    await user.clear(input());
    await user.type(input(), '1234567');
    expect(input()).toHaveValue('1.234.567');
    expect(stored()).toBe('1234567');
  });

  it('ignores letters and symbols', async () => {
    const { user } = renderWithProviders(<PriceField initial={12} />);
    await user.type(input(), 'x-3,');
    expect(input()).toHaveValue('123');
    expect(stored()).toBe('123');
  });

  it('turns an emptied field into 0, shown as the placeholder', async () => {
    const { user } = renderWithProviders(<PriceField initial={2500} />);
    await user.clear(input());
    expect(input()).toHaveValue('');
    expect(input()).toHaveAttribute('placeholder', '0');
    expect(stored()).toBe('0');
    await user.type(input(), '8');
    expect(input()).toHaveValue('8');
  });

  it('takes what is typed into a field at 0 as the whole number, wherever the caret is', async () => {
    const { user } = renderWithProviders(<PriceField />);
    expect(input()).toHaveValue('');
    await user.click(input());
    (input() as HTMLInputElement).setSelectionRange(0, 0);
    await user.keyboard('45000');
    expect(input()).toHaveValue('45.000');
    expect(stored()).toBe('45000');
  });
});
