import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImportAnswer } from '../../../lib/types';
import { loggedInState, makeUser } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { ImportCustomersButton } from './ImportCustomers';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** An XMLHttpRequest that reports the upload's progress and answers what `answer` gives. */
function fakeXhr(answer: (url: URL) => { status: number; body: unknown }) {
  const sent: Sent[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    send(body: unknown) {
      sent.push({ url: this.url, headers: this.headers, body });
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
        const { status, body: json } = answer(new URL(this.url));
        this.status = status;
        this.responseText = JSON.stringify(json);
        this.onload?.();
      }, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

function answerOf(dryRun: boolean, overrides: Partial<ImportAnswer> = {}): ImportAnswer {
  return {
    dryRun,
    rows: 3,
    valid: 2,
    created: 2,
    updated: 0,
    skipped: 0,
    openingPoints: 150,
    errorCount: 1,
    errors: [{ line: 3, column: 'correo', message: 'El correo electrónico no es una dirección válida.' }],
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('customer import', () => {
  it('is offered to admins only', () => {
    renderWithProviders(<ImportCustomersButton />, { preloadedState: loggedInState(makeUser('supervisor')) });
    expect(screen.queryByRole('button', { name: 'Importar' })).not.toBeInTheDocument();
  });

  it("checks the file first, shows the dry run's errors as a table, then imports the valid rows", async () => {
    const sent = fakeXhr((url) => ({ status: 200, body: answerOf(url.searchParams.get('dryRun') === 'true') }));
    const { user } = renderWithProviders(<ImportCustomersButton />, { preloadedState: loggedInState(makeUser('admin')) });
    await user.click(screen.getByRole('button', { name: 'Importar' }));
    const dialog = screen.getByRole('dialog', { name: 'Importar clientes' });
    const importButton = within(dialog).getByRole('button', { name: 'Importar 0 filas válidas' });
    expect(importButton).toBeDisabled();

    const file = new File(['documento;nombre\n'], 'clientes.csv', { type: 'text/csv' });
    await user.upload(within(dialog).getByLabelText(/Archivo/), file);
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Si el documento ya existe' }), 'update');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Consentimiento de todo el archivo' }), 'store');
    await user.click(within(dialog).getByRole('button', { name: 'Revisar archivo' }));

    const table = await within(dialog).findByTestId('import-errors');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('3');
    expect(rows[1]).toHaveTextContent('correo');
    expect(rows[1]).toHaveTextContent('El correo electrónico no es una dirección válida.');
    expect(within(dialog).getByRole('status')).toHaveTextContent('Revisión: 3 filas, 2 válidas');
    const check = new URL(sent[0]!.url);
    expect(Object.fromEntries(check.searchParams)).toEqual({ dryRun: 'true', onExisting: 'update', consentChannel: 'store' });
    expect(sent[0]!.headers['Accept-Language']).toBe('es');
    expect(sent[0]!.body).toBe(file);

    await user.click(within(dialog).getByRole('button', { name: 'Importar 2 filas válidas' }));
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent('Importación terminada'));
    expect(new URL(sent[1]!.url).searchParams.get('dryRun')).toBe('false');
  });

  it("shows the server's refusal of a file in the interface's language", async () => {
    fakeXhr(() => ({ status: 400, body: { message: 'x', code: 'import.missingColumns' } }));
    const { user } = renderWithProviders(<ImportCustomersButton />, { preloadedState: loggedInState(makeUser('admin')) });
    await user.click(screen.getByRole('button', { name: 'Importar' }));
    const dialog = screen.getByRole('dialog', { name: 'Importar clientes' });
    await user.upload(within(dialog).getByLabelText(/Archivo/), new File(['x'], 'x.csv'));
    await user.click(within(dialog).getByRole('button', { name: 'Revisar archivo' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('El encabezado debe tener las columnas documento y nombre.');
  });
});
