import { DomainError } from '@transfergate/contracts';
import { BUILT_IN_ROLES } from '../auth/permissions.js';
import { assertWithin } from './grant-rule.js';

describe('assertWithin: an operator grants only what they hold', () => {
  const operator = { permissions: [...BUILT_IN_ROLES.operator!] };

  it('allows a subset of the actor permissions, and nothing at all', () => {
    expect(() =>
      assertWithin(operator, ['transactions.view', 'transactions.approve'], 'granting role x'),
    ).not.toThrow();
    expect(() => assertWithin(operator, [], 'granting role empty')).not.toThrow();
  });

  it('refuses a single permission the actor lacks', () => {
    expect(() => assertWithin(operator, ['transactions.view', 'roles.manage'], 'granting role y')).toThrow(
      'granting role y needs roles.manage, which you lack',
    );
  });

  it('refuses with permission_denied, naming what is done and every permission missing', () => {
    let refusal: unknown;
    try {
      assertWithin(operator, ['transactions.view', 'roles.manage', 'secrets.view'], 'granting role boss');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({
      errorCode: 'permission_denied',
      message: 'granting role boss needs roles.manage, secrets.view, which you lack',
    });
  });

  it('lets admin grant every built-in role, and no other built-in role grant admin', () => {
    for (const permissions of Object.values(BUILT_IN_ROLES)) {
      expect(() => assertWithin({ permissions: [...BUILT_IN_ROLES.admin!] }, permissions, 'granting')).not.toThrow();
    }
    for (const role of ['operator', 'finance', 'auditor']) {
      expect(() =>
        assertWithin({ permissions: [...BUILT_IN_ROLES[role]!] }, BUILT_IN_ROLES.admin!, 'granting'),
      ).toThrow(DomainError);
    }
  });
});
