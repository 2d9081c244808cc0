import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { H2hWithdrawalRequestSchema, h2hCustomerFields, parseBody } from '@transfergate/contracts';
import { H2hCallerService } from './h2h-caller.js';

import { h2hWithdrawalRequest } from '../requests/form-requests.js';
import { TransactionRequestsService } from '../requests/transaction-requests.service.js';

export const H2H_WITHDRAWAL_MESSAGE = 'Withdrawal request received; a callback follows after approval.';

/** H2H withdrawal: same hash scheme as the deposit; amount + fee reserved on the merchant balance. */
@Controller()
export class H2hWithdrawalController {
  constructor(
    private readonly caller: H2hCallerService,
    private readonly requests: TransactionRequestsService,
  ) {}

  @Post(['withdrawal/bank', 'api/withdrawal/bank'])
  @HttpCode(201)
  async withdrawal(@Body() body: unknown, @Req() request: FastifyRequest) {
    const input = parseBody(H2hWithdrawalRequestSchema, body);
    const customer = h2hCustomerFields(body as Record<string, unknown>);
    const provider = await this.caller.authenticate(input, request, (p) => p.callbackWithdrawal);
    const view = await this.requests.withdrawal(
      provider,
      h2hWithdrawalRequest(input, customer, { ip: request.ip, requestId: String(request.id) }),
    );
    return {
      status: true,
      code: 200,
      id: view.number,
      transaction_id: view.externalId,
      message: H2H_WITHDRAWAL_MESSAGE,
    };
  }
}
