import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@transfergate/contracts';
import { REQUIRED_PERMISSION, type OperatorContext } from './decorators.js';
import { OperatorDirectory } from './operator-directory.service.js';
import { accountPermissions, isPortalPermission, type Permission, type PortalPermission } from './permissions.js';
import { SessionTokens } from './session-tokens.service.js';

/**
 * Bearer authentication and RBAC for every panel route. Fails closed: a route that declares no
 * permission is refused, so a forgotten decorator cannot open a route.
 */
@Injectable()
export class PanelAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: SessionTokens,
    private readonly operators: OperatorDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const required = this.reflector.getAllAndOverride<Permission | PortalPermission | 'authenticated' | undefined>(
      REQUIRED_PERMISSION,
      [context.getHandler(), context.getClass()],
    );
    const request = context.switchToHttp().getRequest<FastifyRequest & { operator?: OperatorContext }>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) throw new DomainError('authentication_required', 'a bearer token is required');
    const claims = await this.tokens.verify(match[1]!);
    const operator = await this.operators.byId(claims.operatorId);
    if (!operator || !operator.active) await this.tokens.endSessionsIfInactive(claims.operatorId);
    if (!operator) throw new DomainError('invalid_token', 'the operator is not active');
    const permissions = await accountPermissions(operator, (role) => this.operators.permissionsOf(role));
    if (!required) throw new DomainError('permission_denied', 'this route declares no permission');
    // A portal route acts on the caller's merchant: an account without one never passes (belt and braces).
    if (isPortalPermission(required) && operator.merchantId === undefined) {
      throw new DomainError('permission_denied', 'this route is for merchant users');
    }
    if (required !== 'authenticated' && !permissions.includes(required)) {
      throw new DomainError('permission_denied', `your role lacks the permission ${required}`);
    }
    request.operator = {
      operatorId: operator.operatorId,
      username: operator.username,
      role: operator.role,
      permissions,
      ...(operator.merchantId !== undefined ? { merchantId: operator.merchantId } : {}),
      sessionId: claims.sessionId,
      ip: request.ip,
      requestId: String(request.id),
    };
    return true;
  }
}
