import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError, H2hWithdrawalRequestSchema, digestsEqual, h2hHash } from '@transfergate/contracts';
import { ProviderAuthService } from '../auth/provider-auth.service.js';
import { parseBody } from '../errors/validation.js';
import { TransactionRequestsService } from '../requests/transaction-requests.service.js';

export const H2H_WITHDRAWAL_MESSAGE = 'Withdrawal request received; a callback follows after approval.';

/** H2H withdrawal: same hash scheme as the deposit; amount + fee reserved on the merchant balance. */
@Controller()
export class H2hWithdrawalController {
  constructor(
    private readonly auth: ProviderAuthService,
    private readonly requests: TransactionRequestsService,
  ) {}

  @Post(['withdrawal/bank', 'api/withdrawal/bank'])
  @HttpCode(201)
  async withdrawal(@Body() body: unknown, @Req() request: FastifyRequest) {
    const input = parseBody(H2hWithdrawalRequestSchema, body);
    const provider = await this.auth.byApiKey(input.apikey);
    this.auth.assertMayCall(provider, request.ip, 'h2h');
    if (!digestsEqual(h2hHash(input.apikey, input.transaction_id, provider.apiSecret, input.amount), input.hash)) {
      throw new DomainError(
        'invalid_signature',
        'hash does not match SHA256(apikey + transaction_id + secret + round(amount))',
      );
    }
    if (input.callback_url !== undefined && input.callback_url !== provider.callbackWithdrawal) {
      throw new DomainError(
        'callback_url_mismatch',
        'callback_url must equal the callback URL registered for this integration',
      );
    }
    const view = await this.requests.withdrawal(provider, {
      form: 'h2h',
      externalId: input.transaction_id,
      amountKurus: input.amount,
      customer: { fullName: input.fullname },
      iban: input.iban.replace(/\s+/g, '').toUpperCase(),
      fingerprint: {
        transactionId: input.transaction_id,
        amountKurus: input.amount,
        fullname: input.fullname,
        callbackUrl: input.callback_url,
      },
      ...(input.callback_url ? { callbackUrl: input.callback_url } : {}),
      ip: request.ip,
    });
    return {
      status: true,
      code: 200,
      id: view.number,
      transaction_id: view.externalId,
      message: H2H_WITHDRAWAL_MESSAGE,
    };
  }
}
