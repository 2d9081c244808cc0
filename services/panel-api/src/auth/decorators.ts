import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Permission, PortalPermission } from './permissions.js';

export const REQUIRED_PERMISSION = 'transfergate:requiredPermission';

/** The permission a panel route needs; `authenticated` = any logged-in operator. */
export const RequirePermission = (permission: Permission | PortalPermission | 'authenticated') =>
  SetMetadata(REQUIRED_PERMISSION, permission);

/** The operator the guard authenticated for this request. */
export interface OperatorContext {
  operatorId: string;
  username: string;
  role: string;
  permissions: Array<Permission | PortalPermission>;
  /** A merchant user's merchant: every portal route acts on this one only. Absent for operators. */
  merchantId?: string;
  sessionId: string;
  ip: string;
  /** The HTTP request's id, stamped on the events the operator's commands append. */
  requestId: string;
}

export const CurrentOperator = createParamDecorator((_data: unknown, context: ExecutionContext): OperatorContext => {
  const operator = context.switchToHttp().getRequest<{ operator?: OperatorContext }>().operator;
  if (!operator) throw new Error('CurrentOperator used on a route without PanelAuthGuard');
  return operator;
});

/** The actor recorded on events: who and from where. */
export function actorOf(operator: OperatorContext) {
  return { source: 'panel', operatorId: operator.operatorId, ip: operator.ip, requestId: operator.requestId };
}
