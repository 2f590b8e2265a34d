import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { IconField } from './IconPicker';

function Field({ initial = '' }: { initial?: string }) {
  const [icon, setIcon] = useState(initial);
  return <IconField label="Icono" value={icon} onChange={setIcon} />;
}

const dialog = () => screen.getByRole('dialog', { name: 'Elegir icono' });
const choices = () => within(dialog()).getAllByRole('button', { pressed: undefined }).filter((b) => b.hasAttribute('aria-pressed'));

describe('icon picker', () => {
  it('opens a dialog with the 26 icons and marks the chosen one', async () => {
    const { user } = renderWithProviders(<Field initial="Gift" />);
    await user.click(screen.getByRole('button', { name: 'Cambiar icono' }));
    expect(choices()).toHaveLength(26);
    expect(within(dialog()).getByRole('button', { name: 'Regalo' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(dialog()).getByRole('button', { name: 'Estrella' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('filters the icons by the search text', async () => {
    const { user } = renderWithProviders(<Field />);
    await user.click(screen.getByRole('button', { name: 'Elegir icono' }));
    await user.type(within(dialog()).getByRole('searchbox', { name: 'Buscar icono' }), 'shop');
    expect(choices().map((b) => b.textContent)).toEqual(['Bolsa de compras', 'Carrito']);
    await user.clear(within(dialog()).getByRole('searchbox'));
    await user.type(within(dialog()).getByRole('searchbox'), 'zzz');
    expect(within(dialog()).getByTestId('icon-picker-empty')).toHaveTextContent('Ningún icono coincide con la búsqueda.');
  });

  it('chooses an icon and closes', async () => {
    const { user } = renderWithProviders(<Field />);
    expect(screen.getByTestId('icon-field-value')).toHaveTextContent('Sin icono');
    await user.click(screen.getByRole('button', { name: 'Elegir icono' }));
    await user.type(within(dialog()).getByRole('searchbox'), 'truck');
    await user.click(within(dialog()).getByRole('button', { name: 'Envíos' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('icon-field-value')).toHaveTextContent('Envíos');
  });

  it('starts with an empty search the next time it opens', async () => {
    const { user } = renderWithProviders(<Field />);
    await user.click(screen.getByRole('button', { name: 'Elegir icono' }));
    await user.type(within(dialog()).getByRole('searchbox'), 'key');
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Elegir icono' }));
    expect(within(dialog()).getByRole('searchbox')).toHaveValue('');
    expect(choices()).toHaveLength(26);
  });
});
