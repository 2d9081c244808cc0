import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  FindWebhookLogEntryQuery,
  ListWebhookLogQuery,
  WebhookLogIdSchema,
  type WebhookLogEntry,
  type WebhookLogPage,
} from '@transfergate/contracts';
import { WebhookLogRepository } from './webhook-log.repository.js';

/** GET /panel/webhooks: newest first, filters and cursor (the panel validated them). */
@QueryHandler(ListWebhookLogQuery)
export class ListWebhookLogHandler implements IQueryHandler<ListWebhookLogQuery, WebhookLogPage> {
  constructor(private readonly log: WebhookLogRepository) {}

  async execute({ filters }: ListWebhookLogQuery): Promise<WebhookLogPage> {
    return this.log.list(filters);
  }
}

/** GET /panel/webhooks/:id: one entry with headers and body; null for an id that is not one. */
@QueryHandler(FindWebhookLogEntryQuery)
export class FindWebhookLogEntryHandler implements IQueryHandler<FindWebhookLogEntryQuery, WebhookLogEntry | null> {
  constructor(private readonly log: WebhookLogRepository) {}

  async execute({ id }: FindWebhookLogEntryQuery): Promise<WebhookLogEntry | null> {
    if (!WebhookLogIdSchema.safeParse(id).success) return null;
    return this.log.find(id);
  }
}
