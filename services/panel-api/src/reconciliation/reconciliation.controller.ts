import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentOperator, RequirePermission, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { panelPaths } from '../records/panel-paths.js';
import { ReconciliationService } from './reconciliation.service.js';

/**
 * Bank statement reconciliation (bare and under /api):
 * POST …/reconciliation/accounts/:id/statements?format=camt053|camt052|mt940|csv|xlsx[&preset=][&mapping=][&fileName=]
 *   with the file's raw bytes as the body (content-type application/octet-stream): the import report;
 * GET …/reconciliation/lines[?bankAccountId&state&direction&limit&offset] and …/lines/:lineId;
 * POST …/lines/:lineId/match {transactionId, amount: requested|received} (202 with `amountChangeWaiting` when
 *   the received amount needs a second operator) and …/lines/:lineId/dismiss {reason};
 * GET/POST …/reconciliation/settings (automatic approval per infrastructure).
 */
@Controller()
@UseGuards(PanelAuthGuard)
export class ReconciliationController {
  constructor(private readonly reconciliation: ReconciliationService) {}

  @Post(panelPaths('reconciliation/accounts/:id/statements'))
  @HttpCode(201)
  @RequirePermission('reconciliation.import')
  importStatement(
    @Param('id') id: string,
    @Query() query: unknown,
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
  ) {
    return this.reconciliation.importStatement(id, query, body, operator);
  }

  /** The account's statements beside what the gateway issued and approved, for Turkish days [from, to]. */
  @Get(panelPaths('reconciliation/accounts/:id/summary'))
  @RequirePermission('reconciliation.view')
  summary(@Param('id') id: string, @Query() query: unknown) {
    return this.reconciliation.summary(id, query);
  }

  /** Every line of the range with its state and decision, as a CSV attachment. */
  @Get(panelPaths('reconciliation/accounts/:id/report.csv'))
  @RequirePermission('reconciliation.view')
  async report(@Param('id') id: string, @Query() query: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const { body, filename } = await this.reconciliation.reportCsv(id, query);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${filename}"`);
    reply.header('cache-control', 'no-store');
    return body;
  }

  /** A bulk payment file of approved withdrawals (per beneficiary bank with ?bankCode=, in a layout). */
  @Get(panelPaths('reconciliation/withdrawals/payment-file.csv'))
  @RequirePermission('reconciliation.import')
  async paymentFile(@Query() query: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const { body, filename } = await this.reconciliation.paymentFile(query);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${filename}"`);
    reply.header('cache-control', 'no-store');
    return body;
  }

  @Get(panelPaths('reconciliation/lines'))
  @RequirePermission('reconciliation.view')
  list(@Query() query: unknown) {
    return this.reconciliation.list(query);
  }

  @Get(panelPaths('reconciliation/lines/:lineId'))
  @RequirePermission('reconciliation.view')
  line(@Param('lineId') lineId: string) {
    return this.reconciliation.line(lineId);
  }

  @Post(panelPaths('reconciliation/lines/:lineId/match'))
  @HttpCode(201)
  @RequirePermission('reconciliation.decide')
  async match(
    @Param('lineId') lineId: string,
    @Body() body: unknown,
    @CurrentOperator() operator: OperatorContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const line = await this.reconciliation.match(lineId, body, operator);
    // At a received amount that needs a second operator: the change was asked for, the line stays queued.
    if (line.amountChangeWaiting) void reply.status(202);
    return line;
  }

  @Post(panelPaths('reconciliation/lines/:lineId/dismiss'))
  @HttpCode(201)
  @RequirePermission('reconciliation.decide')
  dismiss(@Param('lineId') lineId: string, @Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.reconciliation.dismiss(lineId, body, operator);
  }

  @Get(panelPaths('reconciliation/settings'))
  @RequirePermission('reconciliation.view')
  settings() {
    return this.reconciliation.settings();
  }

  @Post(panelPaths('reconciliation/settings'))
  @HttpCode(201)
  @RequirePermission('reconciliation.manage')
  configure(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.reconciliation.configure(body, operator);
  }
}
