import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  DomainError,
  PortalCallbackResendRequestSchema,
  PortalCallbackUrlsRequestSchema,
  PortalInviteRequestSchema,
  PortalProviderRefSchema,
  PortalRecoverRequestSchema,
  PortalRotateSecretRequestSchema,
  TransactionRefSchema,
  parseBody,
} from '@transfergate/contracts';
import { CurrentOperator, RequirePermission, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { portalPaths } from './portal-paths.js';
import { PortalService } from './portal.service.js';

/**
 * The merchant portal's API (each path also under /api): a merchant user's own merchant only.
 * - GET /portal/me, /portal/balance, /portal/transactions (type, state, q, limit, cursor),
 *   /portal/transactions/:id (UUID or number; history and callbacks with attempts) — portal.view
 * - GET /portal/providers — portal.view; POST /portal/providers/rotate-secret {id, overlapSeconds?},
 *   /portal/providers/end-secret-overlap {id}, /portal/providers/callback-urls {id, callbackDeposit,
 *   callbackWithdrawal} (null: the infrastructure's; the egress policy applies) — portal.credentials
 * - POST /portal/callbacks/resend {id}, /portal/callbacks/recover {from, to} (every failed callback
 *   created in the range, at most 200, one audit entry) — portal.callbacks
 * - GET /portal/users, POST /portal/users/invite {username, role} — portal.users
 */
@Controller()
@UseGuards(PanelAuthGuard)
export class PortalController {
  constructor(private readonly portal: PortalService) {}

  @Get(portalPaths('me'))
  @RequirePermission('portal.view')
  me(@CurrentOperator() user: OperatorContext) {
    return this.portal.me(user);
  }

  @Get(portalPaths('balance'))
  @RequirePermission('portal.view')
  balance(@CurrentOperator() user: OperatorContext) {
    return this.portal.balance(user);
  }

  @Get(portalPaths('transactions'))
  @RequirePermission('portal.view')
  transactions(@Query() query: unknown, @CurrentOperator() user: OperatorContext) {
    return this.portal.transactions(user, query);
  }

  @Get(portalPaths('transactions/:id'))
  @RequirePermission('portal.view')
  transaction(@Param('id') id: string, @CurrentOperator() user: OperatorContext) {
    const ref = TransactionRefSchema.safeParse(id);
    if (!ref.success) throw new DomainError('transaction_not_found', `no transaction ${id.slice(0, 64)}`);
    return this.portal.transaction(user, ref.data);
  }

  @Get(portalPaths('providers'))
  @RequirePermission('portal.view')
  providers(@CurrentOperator() user: OperatorContext) {
    return this.portal.listProviders(user);
  }

  @Post(portalPaths('providers/rotate-secret'))
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @RequirePermission('portal.credentials')
  rotateSecret(@Body() body: unknown, @CurrentOperator() user: OperatorContext) {
    const input = parseBody(PortalRotateSecretRequestSchema, body);
    return this.portal.rotateSecret(user, input.id, input.overlapSeconds);
  }

  @Post(portalPaths('providers/end-secret-overlap'))
  @HttpCode(201)
  @RequirePermission('portal.credentials')
  endSecretOverlap(@Body() body: unknown, @CurrentOperator() user: OperatorContext) {
    return this.portal.endSecretOverlap(user, parseBody(PortalProviderRefSchema, body).id);
  }

  @Post(portalPaths('providers/callback-urls'))
  @HttpCode(201)
  @RequirePermission('portal.credentials')
  setCallbackUrls(@Body() body: unknown, @CurrentOperator() user: OperatorContext) {
    const { id, ...urls } = parseBody(PortalCallbackUrlsRequestSchema, body);
    return this.portal.setCallbackUrls(user, id, urls);
  }

  @Post(portalPaths('callbacks/resend'))
  @HttpCode(201)
  @RequirePermission('portal.callbacks')
  resend(@Body() body: unknown, @CurrentOperator() user: OperatorContext) {
    return this.portal.resendCallback(user, parseBody(PortalCallbackResendRequestSchema, body).id);
  }

  @Post(portalPaths('callbacks/recover'))
  @HttpCode(201)
  @RequirePermission('portal.callbacks')
  recover(@Body() body: unknown, @CurrentOperator() user: OperatorContext) {
    const input = parseBody(PortalRecoverRequestSchema, body);
    return this.portal.recoverCallbacks(user, input.from, input.to);
  }

  @Get(portalPaths('users'))
  @RequirePermission('portal.users')
  users(@CurrentOperator() user: OperatorContext) {
    return this.portal.listUsers(user);
  }

  @Post(portalPaths('users/invite'))
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @RequirePermission('portal.users')
  invite(@Body() body: unknown, @CurrentOperator() user: OperatorContext) {
    const input = parseBody(PortalInviteRequestSchema, body);
    return this.portal.invite(user, input.username, input.role);
  }
}
