// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { EMPTY_USER, newUserBody, posFieldState, userUpdateBody, withRole, type UserFormValues } from './userForm';

const filled = (overrides: Partial<UserFormValues> = {}): UserFormValues => ({
  username: 'maria.p',
  password: 'secreto123',
  role: 'cajero',
  posId: '3',
  ...overrides,
});

describe("the user form's point-of-sale rule", () => {
  it('disables the point of sale for an admin and shows it as not applicable', () => {
    expect(posFieldState('admin')).toEqual({ disabled: true, notApplicable: true });
    expect(posFieldState('supervisor')).toEqual({ disabled: false, notApplicable: false });
    expect(posFieldState('cajero')).toEqual({ disabled: false, notApplicable: false });
    expect(posFieldState('')).toEqual({ disabled: false, notApplicable: false });
  });

  it('clears the point of sale when the role becomes admin, and keeps it otherwise', () => {
    expect(withRole(filled(), 'admin')).toMatchObject({ role: 'admin', posId: '' });
    expect(withRole(filled(), 'supervisor')).toMatchObject({ role: 'supervisor', posId: '3' });
  });

  it('sends no posId for an admin', () => {
    const check = newUserBody(filled({ role: 'admin', posId: '' }));
    expect(check).toEqual({ ok: true, body: { username: 'maria.p', password: 'secreto123', role: 'admin' } });
    expect(check.ok && 'posId' in check.body).toBe(false);
  });

  it('ignores a stale point of sale for an admin', () => {
    const check = newUserBody(filled({ role: 'admin', posId: '3' }));
    expect(check.ok && 'posId' in check.body).toBe(false);
  });

  it('sends posId as a number for the other roles', () => {
    expect(newUserBody(filled({ role: 'cajero', posId: '3' }))).toEqual({
      ok: true,
      body: { username: 'maria.p', password: 'secreto123', role: 'cajero', posId: 3 },
    });
    expect(newUserBody(filled({ role: 'supervisor', posId: '12' }))).toMatchObject({ ok: true, body: { posId: 12 } });
  });

  it('requires a point of sale unless the role is admin', () => {
    expect(newUserBody(filled({ role: 'cajero', posId: '' }))).toEqual({ ok: false, error: 'users.errorAllFieldsRequired' });
    expect(newUserBody(filled({ role: 'supervisor', posId: '' }))).toEqual({ ok: false, error: 'users.errorAllFieldsRequired' });
  });

  it('requires username, password and role', () => {
    expect(newUserBody(EMPTY_USER)).toEqual({ ok: false, error: 'users.errorAllFieldsRequired' });
    expect(newUserBody(filled({ username: '  ' }))).toEqual({ ok: false, error: 'users.errorAllFieldsRequired' });
    expect(newUserBody(filled({ password: '' }))).toEqual({ ok: false, error: 'users.errorAllFieldsRequired' });
    expect(newUserBody(filled({ role: '' }))).toEqual({ ok: false, error: 'users.errorAllFieldsRequired' });
  });

  it("checks the server's username and password rules before sending", () => {
    expect(newUserBody(filled({ username: 'maria@demo' }))).toEqual({ ok: false, error: 'users.errorUsernameFormat' });
    expect(newUserBody(filled({ username: 'a'.repeat(51) }))).toEqual({ ok: false, error: 'users.errorUsernameFormat' });
    expect(newUserBody(filled({ password: 'corta' }))).toEqual({ ok: false, error: 'users.errorPasswordLength' });
    expect(newUserBody(filled({ password: 'x'.repeat(129) }))).toEqual({ ok: false, error: 'users.errorPasswordLength' });
  });

  it('edits only role and point of sale, with the same rule', () => {
    expect(userUpdateBody({ role: 'admin', posId: '3' })).toEqual({ ok: true, body: { role: 'admin' } });
    expect(userUpdateBody({ role: 'cajero', posId: '5' })).toEqual({ ok: true, body: { role: 'cajero', posId: 5 } });
    expect(userUpdateBody({ role: 'cajero', posId: '' })).toEqual({ ok: false, error: 'users.errorAllFieldsRequired' });
  });
});
