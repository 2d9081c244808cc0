import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  H2hDepositRequestSchema,
  h2hCustomerFields,
  type H2hDepositResponse,
  parseBody,
} from '@transfergate/contracts';
import { H2hCallerService } from './h2h-caller.js';

import { h2hDepositRequest } from '../requests/form-requests.js';
import { TransactionRequestsService } from '../requests/transaction-requests.service.js';

export const H2H_DEPOSIT_MESSAGE = 'Deposit request received; pay the amount to the account shown.';

/** H2H deposit (contract "H2H deposit request/response"): mandatory hash, bank account in the answer. */
@Controller()
export class H2hDepositController {
  constructor(
    private readonly caller: H2hCallerService,
    private readonly requests: TransactionRequestsService,
  ) {}

  @Post(['deposit/bank', 'api/deposit/bank'])
  @HttpCode(201)
  async deposit(@Body() body: unknown, @Req() request: FastifyRequest): Promise<H2hDepositResponse> {
    const input = parseBody(H2hDepositRequestSchema, body);
    const customer = h2hCustomerFields(body as Record<string, unknown>);
    const provider = await this.caller.authenticate(input, request, (p) => p.callbackDeposit);
    const view = await this.requests.deposit(
      provider,
      h2hDepositRequest(input, customer, { ip: request.ip, requestId: String(request.id) }),
    );
    return {
      status: true,
      code: 200,
      account_name: view.bankAccount!.holderName,
      account_iban: view.bankAccount!.iban,
      fast: view.bankAccount!.fast,
      id: view.externalId,
      transaction_id: view.externalId,
      message: H2H_DEPOSIT_MESSAGE,
    };
  }
}
