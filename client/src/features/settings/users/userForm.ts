// The user form's rules (docs/screens.md, "Forms"): username, password and role are required; the point
// of sale is required unless the role is admin. An admin has no point of sale: the field is
// disabled, shown as not applicable, and posId is left out of the request. Other roles send posId
// as a number.

import type { TKey } from '../../../i18n/keys';
import type { CompanyUser, NewUserBody, UserUpdateBody } from './usersApi';

export type CompanyRole = CompanyUser['role'];

export const COMPANY_ROLES: readonly CompanyRole[] = ['admin', 'supervisor', 'cajero'];

export interface UserFormValues {
  username: string;
  password: string;
  /** '' until a role is chosen. */
  role: CompanyRole | '';
  /** The chosen point of sale's id as the select holds it; '' for none. */
  posId: string;
}

export const EMPTY_USER: UserFormValues = { username: '', password: '', role: '', posId: '' };

/** Letters, digits, '.', '_' and '-', at most 50 (the server's rule). */
const USERNAME = /^[\p{L}\p{N}._-]{1,50}$/u;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

export function isCompanyRole(value: string): value is CompanyRole {
  return (COMPANY_ROLES as readonly string[]).includes(value);
}

/** Whether the role works at a point of sale (everyone but admin). */
export function roleHasPos(role: CompanyRole | ''): boolean {
  return role !== 'admin';
}

/** How the point-of-sale select looks for a role. */
export function posFieldState(role: CompanyRole | ''): { disabled: boolean; notApplicable: boolean } {
  const applies = roleHasPos(role);
  return { disabled: !applies, notApplicable: !applies };
}

/** Changing the role to admin clears the point of sale. */
export function withRole<V extends { role: CompanyRole | ''; posId: string }>(values: V, role: CompanyRole | ''): V {
  return { ...values, role, posId: roleHasPos(role) ? values.posId : '' };
}

type Check<B> = { ok: true; body: B } | { ok: false; error: TKey };

/** The role and point of sale as the API takes them: no posId for an admin, else a number. */
function assignment(role: CompanyRole, posId: string): Check<UserUpdateBody> {
  if (!roleHasPos(role)) return { ok: true, body: { role } };
  const id = Number(posId);
  if (posId.trim() === '' || !Number.isInteger(id) || id <= 0) return { ok: false, error: 'users.errorAllFieldsRequired' };
  return { ok: true, body: { role, posId: id } };
}

/** Validates the add form and builds POST /api/users. */
export function newUserBody(values: UserFormValues): Check<NewUserBody> {
  const username = values.username.trim();
  if (!username || !values.password || !values.role) return { ok: false, error: 'users.errorAllFieldsRequired' };
  const placed = assignment(values.role, values.posId);
  if (!placed.ok) return placed;
  if (!USERNAME.test(username)) return { ok: false, error: 'users.errorUsernameFormat' };
  if (values.password.length < PASSWORD_MIN || values.password.length > PASSWORD_MAX) {
    return { ok: false, error: 'users.errorPasswordLength' };
  }
  return { ok: true, body: { username, password: values.password, ...placed.body } };
}

/** Validates the edit modal (role and point of sale only) and builds PUT /api/users/{id}. */
export function userUpdateBody(values: { role: CompanyRole | ''; posId: string }): Check<UserUpdateBody> {
  if (!values.role) return { ok: false, error: 'users.errorAllFieldsRequired' };
  return assignment(values.role, values.posId);
}
