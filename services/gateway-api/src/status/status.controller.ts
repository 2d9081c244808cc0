import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { StatusRequestFieldsSchema, parseBody, type StatusResponse } from '@transfergate/contracts';
import { presentedCredentials } from '../auth/credentials.js';
import { fieldsOf } from '../merchant/merchant.controller.js';
import { ProviderAuthService } from '../auth/provider-auth.service.js';
import { TransactionRequestsService } from '../requests/transaction-requests.service.js';

/**
 * POST /status/{identifier}: a provider's transaction by its own transaction id, with ApiKey +
 * ApiSecret; by our integer id or uuid only when `by` says so (body or query).
 */
@Controller()
export class StatusController {
  constructor(
    private readonly auth: ProviderAuthService,
    private readonly requests: TransactionRequestsService,
  ) {}

  @Post(['status/:identifier', 'api/status/:identifier'])
  @HttpCode(201)
  async status(@Param('identifier') identifier: string, @Req() request: FastifyRequest): Promise<StatusResponse> {
    const { by } = parseBody(StatusRequestFieldsSchema, fieldsOf(request));
    const provider = await this.auth.authenticate(presentedCredentials(request), request);
    return this.requests.status(provider, identifier, by);
  }
}
