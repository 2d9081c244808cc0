import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

/**
 * The webhook-ingest service. Wired into both runtimes now so its place in the architecture is fixed; it has
 * no routes or consumers yet: its capabilities arrive with issue #5 (incoming webhooks by slug).
 */
@Module({ imports: [CqrsModule] })
export class WebhookIngestModule {}
