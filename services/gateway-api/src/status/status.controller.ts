import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { StatusResponse } from '@transfergate/contracts';
import { presentedCredentials } from '../auth/credentials.js';
import { ProviderAuthService } from '../auth/provider-auth.service.js';
import { TransactionRequestsService } from '../requests/transaction-requests.service.js';

/** POST /status/{identifier}: a provider's transaction by its id, with ApiKey + ApiSecret. */
@Controller()
export class StatusController {
  constructor(
    private readonly auth: ProviderAuthService,
    private readonly requests: TransactionRequestsService,
  ) {}

  @Post(['status/:identifier', 'api/status/:identifier'])
  @HttpCode(201)
  async status(@Param('identifier') identifier: string, @Req() request: FastifyRequest): Promise<StatusResponse> {
    const provider = await this.auth.authenticate(presentedCredentials(request), request.ip);
    return this.requests.status(provider, identifier);
  }
}
