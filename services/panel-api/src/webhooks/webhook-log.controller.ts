import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  DomainError,
  FindWebhookLogEntryQuery,
  ListWebhookLogQuery,
  WebhookLogIdSchema,
  WebhookLogListRequestSchema,
  parseBody,
  type WebhookLogEntry,
  type WebhookLogPage,
} from '@transfergate/contracts';
import { RequirePermission } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { panelPaths } from '../records/panel-paths.js';

/**
 * The incoming-webhook log, read from webhook-ingest over the query bus (it owns the log):
 * GET /panel/webhooks?slug=&outcome=refused,failed&kind=&transactionId=&limit=&cursor= (newest first;
 * every webhook, refused ones with the reason) and GET /panel/webhooks/:id (with headers and body).
 */
@Controller()
@UseGuards(PanelAuthGuard)
export class WebhookLogController {
  constructor(private readonly queries: QueryBus) {}

  @Get(panelPaths('webhooks'))
  @RequirePermission('callbacks.view')
  async list(@Query() query: unknown): Promise<WebhookLogPage> {
    return this.queries.execute(new ListWebhookLogQuery(parseBody(WebhookLogListRequestSchema, query ?? {})));
  }

  @Get(panelPaths('webhooks/:id'))
  @RequirePermission('callbacks.view')
  async detail(@Param('id') id: string): Promise<WebhookLogEntry> {
    const found = WebhookLogIdSchema.safeParse(id).success
      ? await this.queries.execute(new FindWebhookLogEntryQuery(id))
      : null;
    if (!found) throw new DomainError('not_found', `no webhook log entry ${id}`);
    return found;
  }
}
