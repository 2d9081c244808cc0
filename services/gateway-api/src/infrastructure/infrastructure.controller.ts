import { Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  DomainError,
  InfrastructureDepositRequestSchema,
  InfrastructureWithdrawalRequestSchema,
  infrastructureSecurityKey,
  type InfrastructureDepositResponse,
  type InfrastructureWithdrawalResponse,
  type ProviderCredentials,
  parseBody,
} from '@transfergate/contracts';
import { ProviderAuthService } from '../auth/provider-auth.service.js';

import { fieldsOf } from '../merchant/merchant.controller.js';
import { infrastructureDepositRequest, infrastructureWithdrawalRequest } from '../requests/form-requests.js';
import { checkedReturnUrl } from '../requests/return-url.js';
import { TransactionRequestsService } from '../requests/transaction-requests.service.js';

const DEPOSIT_PATHS = ['deposits/deposit-request', 'api/deposits/deposit-request'];
const WITHDRAWAL_PATHS = ['withdraws/withdraw-request', 'api/withdraws/withdraw-request'];

/**
 * Infrastructure API (PascalCase, betting-platform providers): GET (query string) or POST (JSON),
 * SecurityKey = SHA256(ApiKey + ApiSecret + OperationGuid). The SecurityKey and OperationGuid are
 * kept on the transaction: the callback echoes them.
 */
@Controller()
export class InfrastructureController {
  constructor(
    private readonly auth: ProviderAuthService,
    private readonly requests: TransactionRequestsService,
  ) {}

  // One handler per method: Nest keeps only one method decorator per handler.
  @Get(DEPOSIT_PATHS)
  @HttpCode(200)
  depositByQuery(@Req() request: FastifyRequest): Promise<InfrastructureDepositResponse> {
    return this.deposit(request);
  }

  @Post(DEPOSIT_PATHS)
  @HttpCode(200)
  depositByBody(@Req() request: FastifyRequest): Promise<InfrastructureDepositResponse> {
    return this.deposit(request);
  }

  @Get(WITHDRAWAL_PATHS)
  @HttpCode(200)
  withdrawalByQuery(@Req() request: FastifyRequest): Promise<InfrastructureWithdrawalResponse> {
    return this.withdrawal(request);
  }

  @Post(WITHDRAWAL_PATHS)
  @HttpCode(200)
  withdrawalByBody(@Req() request: FastifyRequest): Promise<InfrastructureWithdrawalResponse> {
    return this.withdrawal(request);
  }

  private async deposit(request: FastifyRequest): Promise<InfrastructureDepositResponse> {
    const input = parseBody(InfrastructureDepositRequestSchema, fieldsOf(request));
    const provider = await this.caller(input, request);
    const returnUrl = checkedReturnUrl('ReturnUrl', input.ReturnUrl, provider);
    const view = await this.requests.deposit(
      provider,
      infrastructureDepositRequest(input, returnUrl, { ip: request.ip, requestId: String(request.id) }),
    );
    return {
      success: true,
      message: 'Deposit request created',
      data: {
        paymentLink: this.requests.paymentUrl(view),
        requestId: view.externalId,
        operationGuidBack: input.OperationGuid,
      },
    };
  }

  private async withdrawal(request: FastifyRequest): Promise<InfrastructureWithdrawalResponse> {
    const input = parseBody(InfrastructureWithdrawalRequestSchema, fieldsOf(request));
    const provider = await this.caller(input, request);
    await this.requests.withdrawal(
      provider,
      infrastructureWithdrawalRequest(input, { ip: request.ip, requestId: String(request.id) }),
    );
    return { Success: true, Message: 'Withdrawal request received', OperationGuidBack: input.OperationGuid };
  }

  private async caller(
    input: { ApiKey: string; OperationGuid: string; SecurityKey: string },
    request: FastifyRequest,
  ): Promise<ProviderCredentials> {
    // Signature first: an unknown key and a wrong SecurityKey get the same answer, before the key's settings.
    const provider = await this.auth.verifySigned(
      request,
      input.ApiKey,
      input.SecurityKey,
      (secret) => infrastructureSecurityKey(input.ApiKey, secret, input.OperationGuid),
      () =>
        new DomainError('invalid_signature', 'SecurityKey does not match SHA256(ApiKey + ApiSecret + OperationGuid)'),
    );
    this.auth.assertMayCall(provider, request.ip, 'infrastructure');
    return provider;
  }
}
