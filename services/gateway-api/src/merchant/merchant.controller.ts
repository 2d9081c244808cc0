import { All, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  DomainError,
  MerchantDepositRequestSchema,
  MerchantSingleEndpointRequestSchema,
  MerchantWithdrawalRequestSchema,
  digestsEqual,
  merchantHash,
  type MerchantDepositResponse,
  type MerchantWithdrawalResponse,
  type ProviderCredentials,
  type StatusResponse,
  parseBody,
} from '@transfergate/contracts';
import { presentedCredentials } from '../auth/credentials.js';
import { ProviderAuthService, acceptedSecrets } from '../auth/provider-auth.service.js';

import { TransactionRequestsService } from '../requests/transaction-requests.service.js';
import { type RequestOrigin, originOf } from '@transfergate/runtime/http';
import { checkedReturnUrl } from '../requests/return-url.js';
import { merchantDepositRequest, merchantWithdrawalRequest } from '../requests/form-requests.js';

type DepositBody = ReturnType<typeof MerchantDepositRequestSchema.parse>;
type WithdrawalBody = ReturnType<typeof MerchantWithdrawalRequestSchema.parse>;

/**
 * Merchant API: /deposit and /withdrawal on every HTTP method (fields from the query string and/or
 * the JSON body, body winning), and the single endpoint POST / with `method`.
 */
@Controller()
export class MerchantController {
  constructor(
    private readonly auth: ProviderAuthService,
    private readonly requests: TransactionRequestsService,
  ) {}

  @All(['deposit', 'api/deposit'])
  @HttpCode(200)
  async deposit(@Req() request: FastifyRequest): Promise<MerchantDepositResponse> {
    const input = parseBody(MerchantDepositRequestSchema, fieldsOf(request));
    return this.createDeposit(await this.caller(request), input, originOf(request));
  }

  @All(['withdrawal', 'api/withdrawal'])
  @HttpCode(200)
  async withdrawal(@Req() request: FastifyRequest): Promise<MerchantWithdrawalResponse> {
    const input = parseBody(MerchantWithdrawalRequestSchema, fieldsOf(request));
    return this.createWithdrawal(await this.caller(request), input, originOf(request));
  }

  @Post(['', 'api'])
  @HttpCode(201)
  async single(
    @Req() request: FastifyRequest,
  ): Promise<MerchantDepositResponse | MerchantWithdrawalResponse | StatusResponse> {
    const input = parseBody(MerchantSingleEndpointRequestSchema, fieldsOf(request));
    const provider = await this.caller(request);
    switch (input.method) {
      case 'deposit':
        return this.createDeposit(provider, input, originOf(request));
      case 'withdraw':
        return this.createWithdrawal(provider, input, originOf(request));
      case 'checkStatus':
        return this.requests.status(provider, input.transactionId, input.by);
    }
  }

  private async caller(request: FastifyRequest): Promise<ProviderCredentials> {
    const provider = await this.auth.authenticate(presentedCredentials(request), request);
    this.auth.assertMayCall(provider, request.ip, 'merchant');
    return provider;
  }

  /** The optional hash: checked whenever it is sent, with any secret in force (a rotation's overlap window). */
  private checkHash(
    provider: ProviderCredentials,
    body: { transactionId: string; amount: bigint; hash?: string },
  ): void {
    if (body.hash === undefined) return;
    const matches = acceptedSecrets(provider).map((secret) =>
      digestsEqual(merchantHash(provider.apiKey, body.transactionId, secret, body.amount), body.hash!),
    );
    if (!matches.includes(true)) {
      throw new DomainError(
        'invalid_signature',
        'hash does not match SHA256(apiKey + transactionId + apiSecret + round(amount))',
      );
    }
  }

  private async createDeposit(
    provider: ProviderCredentials,
    body: DepositBody,
    origin: RequestOrigin,
  ): Promise<MerchantDepositResponse> {
    this.checkHash(provider, body);
    const returnUrl = checkedReturnUrl('returnUrl', body.returnUrl, provider);
    const view = await this.requests.deposit(provider, merchantDepositRequest(body, returnUrl, origin));
    return {
      success: true,
      message: 'Deposit created; send the customer to the payment page.',
      data: { paymentUrl: this.requests.paymentUrl(view), transactionId: view.externalId, id: view.number },
    };
  }

  private async createWithdrawal(
    provider: ProviderCredentials,
    body: WithdrawalBody,
    origin: RequestOrigin,
  ): Promise<MerchantWithdrawalResponse> {
    this.checkHash(provider, body);
    const view = await this.requests.withdrawal(provider, merchantWithdrawalRequest(body, origin));
    return {
      success: true,
      message: 'Withdrawal request received; it waits for approval and a callback follows.',
      data: { transactionId: view.externalId, id: view.number, status: 'pending' },
    };
  }
}

/** Query-string fields overlaid by the JSON body (GET and friends carry everything in the query). */
export function fieldsOf(request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new DomainError('validation_failed', 'request body must be a JSON object');
  }
  return { ...query, ...((body as Record<string, unknown> | undefined) ?? {}) };
}
