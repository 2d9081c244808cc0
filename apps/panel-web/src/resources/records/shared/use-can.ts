import { usePermissions } from 'react-admin';

/**
 * Whether the operator holds a permission (the auth provider gives `string[]` of permission names,
 * services/panel-api/src/auth/permissions.ts). While permissions load the answer is "no": a button
 * appears late rather than flashing for someone who may not use it.
 */
export function useCan(permission: string): boolean {
  const { permissions } = usePermissions<string[]>();
  return Array.isArray(permissions) && permissions.includes(permission);
}
