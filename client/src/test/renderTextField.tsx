import { screen } from '@testing-library/react';
import { useState, type ComponentType } from 'react';
import type { Locale } from '../lib/format';
import { loggedInState, makeUser } from './fixtures';
import { renderWithProviders } from './renderWithProviders';

/** A controlled text field that reports the value to store, as the formatted inputs do. */
type TextField = ComponentType<{ label: string; value: string; onChange: (value: string) => void }>;

/** The field held by a parent that stores what it reports and shows it next to it. */
function Harness({ Field }: { Field: TextField }) {
  const [value, setValue] = useState('');
  return (
    <>
      <Field label="Documento" value={value} onChange={setValue} />
      <output data-testid="stored">{value}</output>
    </>
  );
}

/**
 * Renders `Field` empty for a logged-in cashier reading `locale`; returns the input, what the parent
 * stored from it, and the user driving it.
 */
export function renderTextField(Field: TextField, locale: Locale = 'es') {
  const { user } = renderWithProviders(<Harness Field={Field} />, { preloadedState: loggedInState(makeUser('cajero'), { locale }) });
  return { user, input: screen.getByLabelText('Documento'), stored: () => screen.getByTestId('stored').textContent };
}
