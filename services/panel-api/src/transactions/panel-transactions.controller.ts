import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  DomainError,
  PanelAmountChangeApproveRequestSchema,
  PanelAmountChangeRejectRequestSchema,
  PanelAssignRequestSchema,
  PanelDepositCreateRequestSchema,
  PanelRejectRequestSchema,
  PanelTransactionActionRequestSchema,
  PanelTransactionListRequestSchema,
  PanelUpdateAmountRequestSchema,
  PanelUpdateFullRequestSchema,
  PanelUpdateQuickRequestSchema,
  PanelWithdrawalCreateRequestSchema,
  TransactionRefSchema,
  parseBody,
  type PanelAmountChangeList,
  type PanelTransaction,
  type PanelTransactionDetail,
  type PanelTransactionList,
} from '@transfergate/contracts';
import { CurrentOperator, RequirePermission, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { maySeeSecrets } from '../secrets/secret-redaction.js';
import { PanelTransactionsService } from './panel-transactions.service.js';

/** An amount change that waits for a second operator was accepted, not made: 202. */
function waitingIs202(reply: FastifyReply, transaction: PanelTransaction): PanelTransaction {
  if (transaction.pendingAmountChange) void reply.status(202);
  return transaction;
}

/** Every panel path is served bare and under /api. */
const both = (path: string) => [`panel/${path}`, `api/panel/${path}`];

/**
 * The contract's panel transaction routes (/panel/deposit/*, /panel/withdrawal/*) and our list and
 * detail (/panel/transactions). Thin: parse the body, check the permission (guard), one call.
 *
 * update-quick = {id, amount?, assignee?}: the queue's inline edit (amount change and/or assignment,
 * as separate ledger commands; assignee also needs transactions.assign).
 * update-full = {id, amount?, assignee?, customerName?, iban?}: the whole edit form sent back;
 * unchanged fields are no-ops, and since the ledger has no command to change a customer name or an
 * IBAN, a changed customerName/iban is refused with 400 before anything is written.
 * Both refuse unknown keys (400) rather than ignore an edit. /panel/deposit/assign is not in the
 * contract and does not exist here.
 *
 * An amount change beyond the four-eyes limits answers 202 with `pendingAmountChange`: it waits in
 * GET /panel/amount-changes until another operator posts /panel/amount-changes/approve or /reject
 * {id, requestId[, reason]}.
 */
@Controller()
@UseGuards(PanelAuthGuard)
export class PanelTransactionsController {
  constructor(private readonly transactions: PanelTransactionsService) {}

  @Get(both('transactions'))
  @RequirePermission('transactions.view')
  async list(@Query() query: unknown): Promise<PanelTransactionList> {
    return this.transactions.list(parseBody(PanelTransactionListRequestSchema, query ?? {}));
  }

  @Get(both('transactions/:id'))
  @RequirePermission('transactions.view')
  async detail(@Param('id') id: string, @CurrentOperator() operator: OperatorContext): Promise<PanelTransactionDetail> {
    const ref = TransactionRefSchema.safeParse(id);
    if (!ref.success) throw new DomainError('transaction_not_found', `no transaction ${id}`);
    return this.transactions.detail(ref.data, { secrets: maySeeSecrets(operator) });
  }

  // Deposits

  @Post(both('deposit/approve'))
  @HttpCode(201)
  @RequirePermission('transactions.approve')
  async approveDeposit(@Body() body: unknown, @CurrentOperator() operator: OperatorContext): Promise<PanelTransaction> {
    return this.transactions.approve('deposit', parseBody(PanelTransactionActionRequestSchema, body).id, operator);
  }

  @Post(both('deposit/reject'))
  @HttpCode(201)
  @RequirePermission('transactions.reject')
  async rejectDeposit(@Body() body: unknown, @CurrentOperator() operator: OperatorContext): Promise<PanelTransaction> {
    return this.transactions.reject('deposit', parseBody(PanelRejectRequestSchema, body), operator);
  }

  /** A deposit a risk rule holds, released (rejecting it is deposit/reject). */
  @Post(both('deposit/release'))
  @HttpCode(201)
  @RequirePermission('risk.review')
  async releaseDeposit(@Body() body: unknown, @CurrentOperator() operator: OperatorContext): Promise<PanelTransaction> {
    return this.transactions.release('deposit', parseBody(PanelTransactionActionRequestSchema, body).id, operator);
  }

  /** A withdrawal a risk rule holds, released (rejecting it is withdrawal/reject). */
  @Post(both('withdrawal/release'))
  @HttpCode(201)
  @RequirePermission('risk.review')
  async releaseWithdrawal(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.release('withdrawal', parseBody(PanelTransactionActionRequestSchema, body).id, operator);
  }

  @Post(both('deposit/update-amount'))
  @HttpCode(201)
  @RequirePermission('transactions.update')
  async updateDepositAmount(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PanelTransaction> {
    return waitingIs202(
      reply,
      await this.transactions.updateAmount('deposit', parseBody(PanelUpdateAmountRequestSchema, body), operator),
    );
  }

  @Post(both('deposit/update-quick'))
  @HttpCode(201)
  @RequirePermission('transactions.update')
  async updateDepositQuick(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.update('deposit', parseBody(PanelUpdateQuickRequestSchema, body), operator);
  }

  @Post(both('deposit/update-full'))
  @HttpCode(201)
  @RequirePermission('transactions.update')
  async updateDepositFull(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.update('deposit', parseBody(PanelUpdateFullRequestSchema, body), operator);
  }

  @Post(both('deposit/create'))
  @HttpCode(201)
  @RequirePermission('transactions.create')
  async createDeposit(@Body() body: unknown, @CurrentOperator() operator: OperatorContext): Promise<PanelTransaction> {
    return this.transactions.create('deposit', parseBody(PanelDepositCreateRequestSchema, body), operator);
  }

  // Withdrawals

  @Post(both('withdrawal/approve'))
  @HttpCode(201)
  @RequirePermission('transactions.approve')
  async approveWithdrawal(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.approve('withdrawal', parseBody(PanelTransactionActionRequestSchema, body).id, operator);
  }

  @Post(both('withdrawal/reject'))
  @HttpCode(201)
  @RequirePermission('transactions.reject')
  async rejectWithdrawal(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.reject('withdrawal', parseBody(PanelRejectRequestSchema, body), operator);
  }

  @Post(both('withdrawal/assign'))
  @HttpCode(201)
  @RequirePermission('transactions.assign')
  async assignWithdrawal(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.assign('withdrawal', parseBody(PanelAssignRequestSchema, body), operator);
  }

  @Post(both('withdrawal/update-amount'))
  @HttpCode(201)
  @RequirePermission('transactions.update')
  async updateWithdrawalAmount(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PanelTransaction> {
    return waitingIs202(
      reply,
      await this.transactions.updateAmount('withdrawal', parseBody(PanelUpdateAmountRequestSchema, body), operator),
    );
  }

  // Amount changes that wait for a second operator (four eyes)

  @Get(both('amount-changes'))
  @RequirePermission('transactions.update')
  async pendingAmountChanges(): Promise<PanelAmountChangeList> {
    return this.transactions.pendingAmountChanges();
  }

  @Post(both('amount-changes/approve'))
  @HttpCode(201)
  @RequirePermission('transactions.update')
  async approveAmountChange(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.decideAmountChange(
      'approve',
      parseBody(PanelAmountChangeApproveRequestSchema, body),
      operator,
    );
  }

  @Post(both('amount-changes/reject'))
  @HttpCode(201)
  @RequirePermission('transactions.update')
  async rejectAmountChange(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.decideAmountChange(
      'reject',
      parseBody(PanelAmountChangeRejectRequestSchema, body),
      operator,
    );
  }

  @Post(both('withdrawal/update-quick'))
  @HttpCode(201)
  @RequirePermission('transactions.update')
  async updateWithdrawalQuick(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.update('withdrawal', parseBody(PanelUpdateQuickRequestSchema, body), operator);
  }

  @Post(both('withdrawal/update-full'))
  @HttpCode(201)
  @RequirePermission('transactions.update')
  async updateWithdrawalFull(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.update('withdrawal', parseBody(PanelUpdateFullRequestSchema, body), operator);
  }

  @Post(both('withdrawal/create'))
  @HttpCode(201)
  @RequirePermission('transactions.create')
  async createWithdrawal(
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ): Promise<PanelTransaction> {
    return this.transactions.create('withdrawal', parseBody(PanelWithdrawalCreateRequestSchema, body), operator);
  }
}
