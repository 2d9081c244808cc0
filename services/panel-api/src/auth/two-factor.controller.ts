import { Body, Controller, Headers, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { originOf } from '@transfergate/runtime/http';
import {
  LoginRequestSchema,
  TwoFactorDisableDtoSchema,
  TwoFactorSetupConfirmDtoSchema,
  TwoFactorVerifyRequestSchema,
  parseBody,
} from '@transfergate/contracts';

import { CurrentOperator, RequirePermission, type OperatorContext } from './decorators.js';
import { PanelAuthGuard } from './panel-auth.guard.js';
import { TwoFactorService } from './two-factor.service.js';

/** Our setup always goes through the signed setup token, so it is required here. */
const SetupConfirmSchema = TwoFactorSetupConfirmDtoSchema.required({ setupToken: true });

/** TOTP second factor: /api/auth/2fa/* (the flows live in TwoFactorService). */
@Controller('api/auth/2fa')
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  /**
   * Starts enrollment for the bearer's operator or, without a bearer, for the operator a
   * `{username, password}` body names (first enrollment before a login is possible).
   */
  @Post('setup/init')
  @HttpCode(201)
  async setupInit(@Headers('authorization') authorization: string | undefined, @Body() body: unknown) {
    if (authorization !== undefined) {
      const { operator, sessionId } = await this.twoFactor.operatorByBearer(authorization);
      return this.twoFactor.initSetup(operator, sessionId);
    }
    return this.twoFactor.initSetup(await this.loginOf(body));
  }

  @Post('setup/confirm')
  @HttpCode(201)
  async setupConfirm(@Body() body: unknown, @Req() request: FastifyRequest) {
    const input = parseBody(SetupConfirmSchema, body);
    return this.twoFactor.confirmSetup(input.setupToken, input.code, originOf(request));
  }

  @Post('verify')
  @HttpCode(201)
  async verify(@Body() body: unknown, @Req() request: FastifyRequest) {
    const input = parseBody(TwoFactorVerifyRequestSchema, body);
    return this.twoFactor.verifyChallenge(input.challengeToken, input.code, originOf(request));
  }

  @Post('disable')
  @HttpCode(201)
  @UseGuards(PanelAuthGuard)
  @RequirePermission('authenticated')
  async disable(@CurrentOperator() operator: OperatorContext, @Body() body: unknown) {
    const input = parseBody(TwoFactorDisableDtoSchema, body);
    return this.twoFactor.disable(operator, input.password, input.code);
  }

  private async loginOf(body: unknown) {
    const input = parseBody(LoginRequestSchema, body);
    return this.twoFactor.operatorByPassword(input.username, input.password);
  }
}
