import { GRANTABLE_PATHS, SUPERVISOR_ONLY_PATHS, type GrantablePath } from '../../../lib/paths';
import type { RolePermissions } from '../../../lib/types';

export type PermissionRole = keyof RolePermissions;

export const PERMISSION_ROLES: readonly PermissionRole[] = ['supervisor', 'cajero'];

function isGrantable(path: string): path is GrantablePath {
  return (GRANTABLE_PATHS as readonly string[]).includes(path);
}

/** Only the grantable paths (the server accepts no others), in menu order, without repeats. */
export function normalizePermissions(permissions: RolePermissions): RolePermissions {
  const clean = (list: readonly string[] | undefined) => GRANTABLE_PATHS.filter((path) => (list ?? []).filter(isGrantable).includes(path));
  return {
    supervisor: clean(permissions.supervisor),
    cajero: clean(permissions.cajero).filter((path) => mayGrant('cajero', path)),
  };
}

/** Whether `path` can be granted to `role` (alerts: supervisors only). */
export function mayGrant(role: PermissionRole, path: GrantablePath): boolean {
  return role === 'supervisor' || !SUPERVISOR_ONLY_PATHS.includes(path);
}

/** Grants or withdraws one path for one role. */
export function togglePermission(permissions: RolePermissions, role: PermissionRole, path: GrantablePath): RolePermissions {
  const list = permissions[role];
  const next = list.includes(path) ? list.filter((p) => p !== path) : [...list, path];
  return normalizePermissions({ ...permissions, [role]: next });
}
