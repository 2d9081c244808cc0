import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import {
  ChangeOperatorPasswordCommand,
  DomainError,
  LoginRequestSchema,
  LogoutRequestSchema,
  PasswordChangeRequestSchema,
  RefreshRequestSchema,
  parseBody,
  type MeResponse,
  type TokenResponse,
} from '@transfergate/contracts';
import { verifyPassword } from '@transfergate/security';
import { originOf } from '@transfergate/runtime/http';

import { CurrentOperator, RequirePermission, actorOf, type OperatorContext } from './decorators.js';
import { LoginThrottle } from './login-throttle.service.js';
import { OperatorDirectory } from './operator-directory.service.js';
import { PanelAuthGuard } from './panel-auth.guard.js';
import { SignInAudit } from './sign-in-audit.service.js';
import { SessionTokens } from './session-tokens.service.js';
import { assertPasswordPolicy } from './password-policy.js';
import { SecondFactor } from './second-factor.js';
import { requiresTwoFactor } from './two-factor-policy.js';

/** A fixed scrypt hash to verify against when the username is unknown, so timing reveals nothing. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Operator authentication: /api/auth/* as the contract lists them (2FA routes in two-factor.controller). */
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly operators: OperatorDirectory,
    private readonly throttle: LoginThrottle,
    private readonly tokens: SessionTokens,
    private readonly secondFactor: SecondFactor,
    private readonly commands: CommandBus,
    private readonly signIns: SignInAudit,
  ) {}

  @Post('login')
  @HttpCode(201)
  async login(@Body() body: unknown, @Req() request: FastifyRequest) {
    const input = parseBody(LoginRequestSchema, body);
    await this.throttle.reserveAttempt(input.username);
    const operator = await this.operators.byUsername(input.username);
    const passwordOk = await verifyPassword(input.password, operator?.passwordHash ?? DUMMY_HASH);
    if (!operator || !operator.active || !passwordOk) {
      await this.throttle.recordFailure(input.username);
      await this.signIns.record('failed', input.username, operator?.operatorId, originOf(request));
      throw new DomainError('invalid_credentials', 'invalid username or password');
    }
    await this.throttle.recordSuccess(input.username);
    if (requiresTwoFactor(operator) && !operator.totpSecretSealed) {
      throw new DomainError(
        'two_factor_setup_required',
        'this account must set up two-factor authentication first: POST /api/auth/2fa/setup/init with username and password',
      );
    }
    await this.signIns.record(
      'signed_in',
      operator.username,
      operator.operatorId,
      originOf(request),
      Boolean(operator.totpSecretSealed),
    );
    if (operator.totpSecretSealed) return this.secondFactor.challenge(operator.operatorId);
    return this.tokens.open(operator.operatorId);
  }

  @Post('refresh')
  @HttpCode(201)
  async refresh(@Body() body: unknown): Promise<TokenResponse> {
    return this.tokens.refresh(parseBody(RefreshRequestSchema, body).refreshToken);
  }

  @Post('logout')
  @HttpCode(201)
  @UseGuards(PanelAuthGuard)
  @RequirePermission('authenticated')
  async logout(@CurrentOperator() operator: OperatorContext, @Body() body: unknown) {
    parseBody(LogoutRequestSchema, body ?? {});
    await this.tokens.revoke(operator.sessionId, 'logout');
    return { success: true };
  }

  @Get('me')
  @UseGuards(PanelAuthGuard)
  @RequirePermission('authenticated')
  async me(@CurrentOperator() operator: OperatorContext): Promise<MeResponse> {
    const record = await this.operators.byId(operator.operatorId);
    return {
      id: operator.operatorId,
      username: operator.username,
      role: operator.role,
      permissions: operator.permissions,
      twoFactorEnabled: Boolean(record?.totpSecretSealed),
      ...(operator.merchantId !== undefined ? { merchantId: operator.merchantId } : {}),
    };
  }

  @Post('password')
  @HttpCode(201)
  @UseGuards(PanelAuthGuard)
  @RequirePermission('authenticated')
  async password(@CurrentOperator() operator: OperatorContext, @Body() body: unknown, @Req() _request: FastifyRequest) {
    const input = parseBody(PasswordChangeRequestSchema, body);
    // Wrong current passwords are throttled like logins: a stolen session cannot guess the password.
    const subject = passwordChangeSubject(operator.operatorId);
    await this.throttle.reserveAttempt(subject);
    const record = await this.operators.byId(operator.operatorId);
    if (!record || !(await verifyPassword(input.oldPassword, record.passwordHash))) {
      await this.throttle.recordFailure(subject);
      throw new DomainError('invalid_credentials', 'the current password is not correct');
    }
    await this.throttle.recordSuccess(subject);
    assertPasswordPolicy(input.newPassword, record.username, input.oldPassword);
    await this.commands.execute(
      new ChangeOperatorPasswordCommand(operator.operatorId, input.newPassword, actorOf(operator)),
    );
    await this.tokens.revokeOperatorSessions(operator.operatorId, 'password changed', operator.sessionId);
    return { success: true };
  }
}

/** The throttle subject of an operator's current-password checks (apart from logins by username). */
function passwordChangeSubject(operatorId: string): string {
  return `password:${operatorId}`;
}
