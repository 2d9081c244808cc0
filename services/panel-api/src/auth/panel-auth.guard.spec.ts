import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@transfergate/contracts';
import { RequirePermission, type OperatorContext } from './decorators.js';
import type { OperatorDirectory } from './operator-directory.service.js';
import { PanelAuthGuard } from './panel-auth.guard.js';
import { BUILT_IN_ROLES, type Permission } from './permissions.js';
import type { SessionTokens } from './session-tokens.service.js';

/** Routes as the panel's controllers declare them: the guard reads the decorators through Nest's Reflector. */
class Routes {
  @RequirePermission('transactions.approve')
  approve() {}

  @RequirePermission('authenticated')
  me() {}

  @RequirePermission('portal.view')
  portalView() {}

  @RequirePermission('portal.credentials')
  portalCredentials() {}

  /** A route someone forgot to decorate. */
  undeclared() {}
}

interface Operator {
  operatorId: string;
  username: string;
  role: string;
  active: boolean;
  merchantId?: string;
}

/** The guard with its edges faked: tokens map to operators, roles to permissions; ended sessions counted. */
function guardWith(operators: Operator[], customRoles: Record<string, Permission[]> = {}) {
  const ended: string[] = [];
  const tokens = {
    verify: async (token: string) => {
      if (!token.startsWith('token-')) throw new DomainError('invalid_token', 'the access token is invalid or expired');
      return { operatorId: token.slice('token-'.length), sessionId: `session-of-${token}` };
    },
    endSessionsIfInactive: async (operatorId: string) => {
      ended.push(operatorId);
      throw new DomainError('invalid_token', 'the operator is not active');
    },
  } as unknown as SessionTokens;
  const directory = {
    byId: async (id: string) => operators.find((o) => o.operatorId === id),
    permissionsOf: async (role: string) => [...(BUILT_IN_ROLES[role] ?? customRoles[role] ?? [])],
  } as unknown as OperatorDirectory;
  return { guard: new PanelAuthGuard(new Reflector(), tokens, directory), ended };
}

type Request = { headers: Record<string, string>; ip: string; id: string; operator?: OperatorContext };

function call(route: keyof Routes, authorization?: string): { context: ExecutionContext; request: Request } {
  const request: Request = { headers: authorization ? { authorization } : {}, ip: '10.0.0.9', id: 'req-7' };
  const context = {
    getHandler: () => Routes.prototype[route],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { context, request };
}

const codeOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return error instanceof DomainError ? error.errorCode : `not a DomainError: ${String(error)}`;
  }
  return 'allowed';
};

const ALICE: Operator = { operatorId: 'alice', username: 'alice', role: 'operator', active: true };
const AUDITOR: Operator = { operatorId: 'ayla', username: 'ayla', role: 'auditor', active: true };

describe('PanelAuthGuard: bearer authentication and permissions on every route', () => {
  it('lets a role with the permission in, with the operator on the request', async () => {
    const { guard } = guardWith([ALICE]);
    const { context, request } = call('approve', 'Bearer token-alice');
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(request.operator).toEqual({
      operatorId: 'alice',
      username: 'alice',
      role: 'operator',
      permissions: [...BUILT_IN_ROLES.operator!],
      sessionId: 'session-of-token-alice',
      ip: '10.0.0.9',
      requestId: 'req-7',
    });
  });

  it('refuses a role without it (403 permission_denied), and lets any operator reach an authenticated route', async () => {
    const { guard } = guardWith([AUDITOR]);
    expect(await codeOf(() => guard.canActivate(call('approve', 'Bearer token-ayla').context))).toBe(
      'permission_denied',
    );
    expect(await codeOf(() => guard.canActivate(call('me', 'Bearer token-ayla').context))).toBe('allowed');
  });

  it('reads a custom role by its permissions', async () => {
    const { guard } = guardWith([{ ...ALICE, role: 'approver' }], { approver: ['transactions.approve'] });
    expect(await codeOf(() => guard.canActivate(call('approve', 'Bearer token-alice').context))).toBe('allowed');
  });

  it('fails closed: a route that declares no permission is refused even to admin', async () => {
    const { guard } = guardWith([{ ...ALICE, role: 'admin' }]);
    expect(await codeOf(() => guard.canActivate(call('undeclared', 'Bearer token-alice').context))).toBe(
      'permission_denied',
    );
  });

  it('needs a bearer token (any case of "Bearer"), and refuses other schemes or none', async () => {
    const { guard } = guardWith([ALICE]);
    expect(await codeOf(() => guard.canActivate(call('approve', 'bearer token-alice').context))).toBe('allowed');
    for (const header of [undefined, 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'token-alice']) {
      expect(await codeOf(() => guard.canActivate(call('approve', header).context))).toBe('authentication_required');
    }
    expect(await codeOf(() => guard.canActivate(call('approve', 'Bearer forged').context))).toBe('invalid_token');
  });

  it("ends an inactive or unknown operator's sessions on their first token", async () => {
    const { guard, ended } = guardWith([{ ...ALICE, active: false }]);
    expect(await codeOf(() => guard.canActivate(call('me', 'Bearer token-alice').context))).toBe('invalid_token');
    expect(await codeOf(() => guard.canActivate(call('me', 'Bearer token-ghost').context))).toBe('invalid_token');
    expect(ended).toEqual(['alice', 'ghost']);
  });

  it('keeps the portal and the panel apart: merchant roles only for merchant users, on portal routes only', async () => {
    const admin = { ...ALICE, operatorId: 'root', role: 'admin' };
    const developer = { ...ALICE, operatorId: 'dev', role: 'merchant_developer', merchantId: 'm-1' };
    const viewer = { ...ALICE, operatorId: 'view', role: 'merchant_viewer', merchantId: 'm-1' };
    const crossed = { ...ALICE, operatorId: 'crossed', role: 'admin', merchantId: 'm-1' };
    const unscoped = { ...ALICE, operatorId: 'unscoped', role: 'merchant_admin' };
    const { guard } = guardWith([admin, developer, viewer, crossed, unscoped], {
      merchant_admin: ['transactions.approve'],
    });
    const as = (route: keyof Routes, id: string) =>
      codeOf(() => guard.canActivate(call(route, `Bearer token-${id}`).context));
    // An operator, even admin, has no portal permission (and no merchant to act on).
    expect(await as('portalView', 'root')).toBe('permission_denied');
    // A merchant user reaches the portal routes of its role, never an operator route.
    expect(await as('portalView', 'dev')).toBe('allowed');
    expect(await as('portalCredentials', 'dev')).toBe('allowed');
    expect(await as('portalView', 'view')).toBe('allowed');
    expect(await as('portalCredentials', 'view')).toBe('permission_denied');
    expect(await as('approve', 'dev')).toBe('permission_denied');
    // Across the line: a merchant user holding an operator role, an operator holding a merchant role
    // (even one a custom role shadows), hold nothing.
    expect(await as('approve', 'crossed')).toBe('permission_denied');
    expect(await as('portalView', 'crossed')).toBe('permission_denied');
    expect(await as('approve', 'unscoped')).toBe('permission_denied');
    expect(await as('portalView', 'unscoped')).toBe('permission_denied');
    const { context, request } = call('portalView', 'Bearer token-dev');
    await guard.canActivate(context);
    expect(request.operator).toMatchObject({
      merchantId: 'm-1',
      permissions: ['portal.view', 'portal.callbacks', 'portal.credentials'],
    });
  });
});
