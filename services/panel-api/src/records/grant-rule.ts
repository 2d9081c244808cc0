import { DomainError } from '@transfergate/contracts';
import type { OperatorContext } from '../auth/decorators.js';
import type { Permission } from '../auth/permissions.js';

/**
 * An operator grants only what they hold: a role saved or given (to an operator, or by changing a
 * role's permissions) must be within the actor's own permissions, or nobody could be kept from
 * raising their own. Refused with permission_denied, naming every permission missing.
 */
export function assertWithin(
  actor: Pick<OperatorContext, 'permissions'>,
  permissions: readonly Permission[],
  doing: string,
): void {
  const missing = permissions.filter((p) => !actor.permissions.includes(p));
  if (missing.length > 0) {
    throw new DomainError('permission_denied', `${doing} needs ${missing.join(', ')}, which you lack`);
  }
}
