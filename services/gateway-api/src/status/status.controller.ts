import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { DomainError, FindTransactionQuery, kurusToNumber, type StatusResponse } from '@transfergate/contracts';
import { presentedCredentials } from '../auth/credentials.js';
import { ProviderAuthService } from '../auth/provider-auth.service.js';

/** POST /status/{identifier}: a provider's transaction by its id, with ApiKey + ApiSecret. */
@Controller()
export class StatusController {
  constructor(
    private readonly auth: ProviderAuthService,
    private readonly queries: QueryBus,
  ) {}

  @Post(['status/:identifier', 'api/status/:identifier'])
  @HttpCode(201)
  async status(@Param('identifier') identifier: string, @Req() request: FastifyRequest): Promise<StatusResponse> {
    const credentials = presentedCredentials(request);
    const provider = await this.auth.byApiKey(credentials.apiKey);
    this.auth.assertSecret(provider, credentials.apiSecret);
    if (!provider.active) throw new DomainError('provider_disabled', 'provider is disabled');
    if (!identifier || identifier.length > 128)
      throw new DomainError('validation_failed', 'identifier must be 1..128 characters');
    const view = await this.queries.execute(new FindTransactionQuery(provider.providerId, identifier));
    if (!view) throw new DomainError('transaction_not_found', `no transaction ${identifier} for this provider`);
    return {
      success: true,
      id: view.number,
      uuid: view.transactionId,
      transactionId: view.externalId,
      type: view.type,
      status: view.state,
      amount: kurusToNumber(BigInt(view.amountKurus)),
      originalAmount: kurusToNumber(BigInt(view.originalAmountKurus)),
      currency: 'TRY',
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
    };
  }
}
