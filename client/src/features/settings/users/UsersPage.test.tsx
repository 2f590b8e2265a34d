import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSettings } from '../../../test/fixtures';
import { openListScreen } from '../../../test/listScreen';
import { mockApi, tenantRoutes } from '../../../test/mockApi';
import type { CompanyUser } from './usersApi';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
}, 60_000);

// The session user is the admin, id 10 (see makeUser).
const USERS: CompanyUser[] = [
  { id: 10, username: 'admin', role: 'admin', posId: null, posName: null },
  { id: 12, username: 'caja2', role: 'cajero', posId: 3, posName: 'Caja principal' },
  { id: 11, username: 'beto', role: 'supervisor', posId: 3, posName: 'Caja principal' },
];

function usersServer(usage: Record<number, number> = {}) {
  let users = [...USERS];
  return mockApi({
    ...tenantRoutes(makeSettings()),
    'GET /api/pos': { body: [{ id: 3, name: 'Caja principal' }, { id: 4, name: 'Norte' }] },
    'GET /api/users': () => ({ body: users }),
    'POST /api/users': ({ body }) => {
      const input = body as { username: string; role: CompanyUser['role']; posId?: number };
      const created: CompanyUser = { id: 20, username: input.username, role: input.role, posId: input.posId ?? null, posName: null };
      users = [...users, created];
      return { status: 201, body: created };
    },
    'PUT /api/users/12': ({ body }) => {
      users = users.map((u) => (u.id === 12 ? { ...u, ...(body as object) } : u));
      return { body: users.find((u) => u.id === 12) };
    },
    'GET /api/users/12/usage': { body: { transactions: usage[12] ?? 0 } },
    'DELETE /api/users/12': () => {
      users = users.filter((u) => u.id !== 12);
      return { body: { message: 'user deleted', deleted: (usage[12] ?? 0) > 0 ? 'soft' : 'hard' } };
    },
  });
}

const addForm = () => screen.getByRole('region', { name: 'Nuevo usuario' });
const list = () => screen.getByRole('region', { name: 'Usuarios de la empresa' });
const posSelect = (scope: HTMLElement) => within(scope).getByRole('combobox', { name: /Punto de venta/ });
const roleSelect = (scope: HTMLElement) => within(scope).getByRole('combobox', { name: /Rol/ });

async function openUsers() {
  const rendered = await openListScreen('/settings/users', 'Usuarios de la empresa', 'beto');
  expect(screen.getByRole('heading', { level: 1, name: 'Usuarios' })).toBeInTheDocument();
  return rendered;
}

/** Types a new user's username and password into the add form. */
async function typeNewUser(user: UserEvent, username: string) {
  await user.type(within(addForm()).getByRole('textbox', { name: /Usuario/ }), username);
  await user.type(within(addForm()).getByLabelText(/Contraseña/), 'clave-segura');
}

describe('users screen', () => {
  it('lists users by username with role and point of sale, the own account marked and not deletable', async () => {
    usersServer();
    await openUsers();
    const rows = within(list()).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('.row-title')?.textContent)).toEqual(['admin@demoTú', 'beto@demo', 'caja2@demo']);
    expect(rows[1]).toHaveTextContent('Supervisor · Caja principal');
    expect(rows[0]).toHaveTextContent('Administrador · No aplica');
    const ownDelete = within(list()).getByRole('button', { name: 'Eliminar admin' });
    expect(ownDelete).toBeDisabled();
    expect(ownDelete).toHaveAttribute('title', 'No puedes eliminar tu propio usuario.');
    expect(within(list()).getByRole('button', { name: 'Eliminar beto' })).toBeEnabled();
  });

  it("shows the username beside '@' and the company prefix", async () => {
    usersServer();
    await openUsers();
    const username = within(addForm()).getByRole('textbox', { name: /Usuario/ });
    expect(username.parentElement).toHaveTextContent('@demo');
  });

  it('disables the point of sale for an admin, shows it as not applicable and sends no posId', async () => {
    const server = usersServer();
    const { user } = await openUsers();
    await typeNewUser(user, 'gerente');
    await user.selectOptions(posSelect(addForm()), '4');
    await user.selectOptions(roleSelect(addForm()), 'admin');
    expect(posSelect(addForm())).toBeDisabled();
    expect(posSelect(addForm())).toHaveDisplayValue('No aplica');
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar usuario' }));
    expect(await screen.findByText('Usuario gerente@demo creado.')).toBeInTheDocument();
    const body = server.requests.find((r) => r.method === 'POST')?.body;
    expect(body).toEqual({ username: 'gerente', password: 'clave-segura', role: 'admin' });
  });

  it('sends posId as a number for a cajero, and requires it', async () => {
    const server = usersServer();
    const { user } = await openUsers();
    await typeNewUser(user, 'caja9');
    await user.selectOptions(roleSelect(addForm()), 'cajero');
    expect(posSelect(addForm())).toBeEnabled();
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar usuario' }));
    expect(within(addForm()).getByRole('alert')).toHaveTextContent('Todos los campos obligatorios deben estar completos.');
    await user.selectOptions(posSelect(addForm()), 'Norte');
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar usuario' }));
    expect(await screen.findByText('Usuario caja9@demo creado.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      username: 'caja9',
      password: 'clave-segura',
      role: 'cajero',
      posId: 4,
    });
  });

  it('edits only role and point of sale; making the user admin clears the point of sale', async () => {
    const server = usersServer();
    const { user } = await openUsers();
    await user.click(within(list()).getByRole('button', { name: 'Editar caja2' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar usuario caja2@demo' });
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    expect(posSelect(dialog)).toHaveValue('3');
    await user.selectOptions(roleSelect(dialog), 'admin');
    expect(posSelect(dialog)).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Actualizar' }));
    expect(await screen.findByText('Usuario actualizado.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ role: 'admin' });
  });

  it('deletes a user with history softly after saying so', async () => {
    usersServer({ 12: 5 });
    const { user } = await openUsers();
    await user.click(within(list()).getByRole('button', { name: 'Eliminar caja2' }));
    const dialog = screen.getByRole('alertdialog');
    await waitFor(() =>
      expect(within(dialog).getByTestId('delete-text')).toHaveTextContent('ya no podrá iniciar sesión'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Usuario eliminado.')).toBeInTheDocument();
    await waitFor(() => expect(within(list()).queryByText('caja2')).not.toBeInTheDocument());
  });

  it('shows the server message when the last admin would be demoted', async () => {
    mockApi({
      ...tenantRoutes(makeSettings()),
      'GET /api/users': { body: USERS },
      'PUT /api/users/10': { status: 409, body: { message: 'the company must keep at least one admin' } },
    });
    const { user } = await openUsers();
    await user.click(within(list()).getByRole('button', { name: 'Editar admin' }));
    const dialog = screen.getByRole('dialog');
    await user.selectOptions(roleSelect(dialog), 'supervisor');
    await user.selectOptions(posSelect(dialog), '3');
    await user.click(within(dialog).getByRole('button', { name: 'Actualizar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('the company must keep at least one admin');
  });
});
