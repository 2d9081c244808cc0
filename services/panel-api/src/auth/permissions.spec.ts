import { ALL_PERMISSIONS, BUILT_IN_ROLES, PERMISSIONS, isPermission } from './permissions.js';

describe('the permission catalogue and the built-in roles', () => {
  it('names every permission area.action and describes it', () => {
    for (const permission of ALL_PERMISSIONS) {
      expect(permission).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(PERMISSIONS[permission].trim().length).toBeGreaterThan(0);
    }
  });

  it('knows only catalogue names, whatever the object prototype holds', () => {
    expect(isPermission('transactions.view')).toBe(true);
    for (const value of ['transactions', 'Transactions.view', 'toString', '__proto__', 'constructor', '']) {
      expect(isPermission(value)).toBe(false);
    }
  });

  it('gives the built-in roles only catalogue permissions, each once', () => {
    for (const [role, permissions] of Object.entries(BUILT_IN_ROLES)) {
      expect({ role, unknown: permissions.filter((p) => !isPermission(p)) }).toEqual({ role, unknown: [] });
      expect(new Set(permissions).size).toBe(permissions.length);
    }
  });

  it('gives admin everything, and secrets.view to admin alone', () => {
    expect([...BUILT_IN_ROLES.admin!].sort()).toEqual([...ALL_PERMISSIONS].sort());
    const holders = Object.entries(BUILT_IN_ROLES)
      .filter(([, permissions]) => permissions.includes('secrets.view'))
      .map(([role]) => role);
    expect(holders).toEqual(['admin']);
  });

  it('lets the auditor read and nothing else', () => {
    expect(BUILT_IN_ROLES.auditor!.length).toBeGreaterThan(5);
    for (const permission of BUILT_IN_ROLES.auditor!) expect(permission).toMatch(/\.view$/);
  });

  it('keeps the management of people, roles, settings and secrets to admin', () => {
    for (const role of ['operator', 'finance', 'auditor']) {
      for (const permission of [
        'operators.manage',
        'roles.manage',
        'settings.manage',
        'providers.manage',
        'providers.reveal_secret',
        'merchants.manage',
      ] as const) {
        expect({ role, permission, held: BUILT_IN_ROLES[role]!.includes(permission) }).toEqual({
          role,
          permission,
          held: false,
        });
      }
    }
  });

  it('lets an operator decide transactions but not approve expired deposits; finance may', () => {
    expect(BUILT_IN_ROLES.operator).toEqual(
      expect.arrayContaining(['transactions.approve', 'transactions.reject', 'reconciliation.decide']),
    );
    expect(BUILT_IN_ROLES.operator).not.toContain('transactions.approve_expired');
    expect(BUILT_IN_ROLES.finance).toContain('transactions.approve_expired');
    expect(BUILT_IN_ROLES.finance).not.toContain('operators.view');
  });
});
