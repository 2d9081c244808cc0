import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AuditLogQuery, AuditQuerySchema, parseBody, type AuditPage } from '@transfergate/contracts';
import { RequirePermission } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { panelPaths } from '../records/panel-paths.js';

/**
 * GET /panel/audit?operatorId=&type=A,B&from=&to=&limit=&cursor= — operator actions from the event
 * stream, newest first: who (actor, username, source), what (type, stream), when, from where (ip),
 * before/after for configuration events with secrets redacted (the ledger's AuditLogHandler).
 */
@Controller()
@UseGuards(PanelAuthGuard)
export class AuditController {
  constructor(private readonly queries: QueryBus) {}

  @Get(panelPaths('audit'))
  @RequirePermission('audit.view')
  async list(@Query() query: unknown): Promise<AuditPage> {
    return this.queries.execute(new AuditLogQuery(parseBody(AuditQuerySchema, query ?? {})));
  }
}
