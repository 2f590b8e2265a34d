import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toastShown } from '../app/toasts';
import { renderWithProviders } from '../test/renderWithProviders';
import { Toaster } from './Toaster';

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('show a translated key or a server message, fade at 5 s and go 300 ms later', () => {
    const { store } = renderWithProviders(<Toaster />);
    act(() => {
      store.dispatch(toastShown('success', { messageKey: 'users.successAdded', params: { login: 'ana@demo' } }));
      store.dispatch(toastShown('error', { message: 'Prefix already exists' }));
    });
    expect(screen.getByText('Usuario ana@demo creado.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Prefix already exists');

    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(screen.getByText('Usuario ana@demo creado.').parentElement).not.toHaveClass('toast-leaving');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText('Usuario ana@demo creado.').parentElement).toHaveClass('toast-leaving');
    act(() => {
      vi.advanceTimersByTime(299);
    });
    expect(store.getState().toasts.items).toHaveLength(2);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(store.getState().toasts.items).toHaveLength(0);
    expect(screen.queryByText('Usuario ana@demo creado.')).not.toBeInTheDocument();
  });
});
