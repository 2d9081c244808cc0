import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { ForgetWebhookDirectoryHandler } from './directory/forget-webhook-directory.handler.js';
import { WebhookDirectory } from './directory/webhook-directory.js';
import { FindWebhookLogEntryHandler, ListWebhookLogHandler } from './log/webhook-log.handlers.js';
import { WebhookLogRepository } from './log/webhook-log.repository.js';
import { WEBHOOK_LOG_SCHEMA } from './log/webhook-log.schema.js';
import { WebhookCapture } from './webhook-capture.js';
import { WebhookIngestController } from './webhook-ingest.controller.js';
import { WebhookIngestService } from './webhook-ingest.service.js';
import { WEBHOOK_SETTINGS, webhookSettingsFrom } from './webhook.settings.js';

/**
 * The webhook-ingest service: incoming upstream status webhooks by infrastructure slug (or alias),
 * IP allow-listed, each mapped to one ledger command; every webhook is stored in its log (wh_log,
 * created here on start), which the panel reads through ListWebhookLogQuery / FindWebhookLogEntryQuery.
 *
 * Settings come from the environment through a factory (this module is wired by the runtimes without
 * arguments): WEBHOOK_ALIASES, see webhook.settings.ts. Needs SQL_DATABASE.
 */
@Module({
  imports: [CqrsModule],
  controllers: [WebhookIngestController],
  providers: [
    { provide: WEBHOOK_SETTINGS, useFactory: () => webhookSettingsFrom(process.env) },
    WebhookLogRepository,
    WebhookDirectory,
    ForgetWebhookDirectoryHandler,
    WebhookIngestService,
    WebhookCapture,
    ListWebhookLogHandler,
    FindWebhookLogEntryHandler,
  ],
})
export class WebhookIngestModule implements OnModuleInit {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async onModuleInit(): Promise<void> {
    await this.db.exec(WEBHOOK_LOG_SCHEMA);
  }
}
