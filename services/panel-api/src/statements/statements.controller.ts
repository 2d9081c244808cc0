import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RequirePermission } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { panelPaths } from '../records/panel-paths.js';
import { StatementsService } from './statements.service.js';

/** Under /panel/merchants/:id and its contract synonym /panel/dealers/:id, bare and under /api. */
const both = (action: string) => panelPaths(`merchants/:id/${action}`, `dealers/:id/${action}`);

/**
 * GET …/:id/statement?from=&to=[&format=csv] and …/:id/statement.csv?from=&to= — the merchant's
 * account statement for [from, to) from the ledger's event stream (JSON, or CSV as an attachment).
 */
@Controller()
@UseGuards(PanelAuthGuard)
export class StatementsController {
  constructor(private readonly statements: StatementsService) {}

  @Get(both('statement'))
  @RequirePermission('statements.view')
  async statement(@Param('id') id: string, @Query() query: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.answer(reply, await this.statements.statement(id, query, false));
  }

  @Get(both('statement.csv'))
  @RequirePermission('statements.view')
  async statementCsv(
    @Param('id') id: string,
    @Query() query: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.answer(reply, await this.statements.statement(id, query, true));
  }

  private answer(reply: FastifyReply, answer: Awaited<ReturnType<StatementsService['statement']>>) {
    if (answer.format === 'json') return answer.statement;
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${answer.filename}"`);
    reply.header('cache-control', 'no-store');
    return answer.body;
  }
}
