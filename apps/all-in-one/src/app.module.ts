import { Module, type DynamicModule } from '@nestjs/common';
import type { PostgresEventStore, SqlDatabase } from '@transfergate/event-store';
import { CallbackDispatcherModule } from '@transfergate/callback-dispatcher';
import { GatewayApiModule, type GatewaySettings } from '@transfergate/gateway-api';
import { LedgerModule, type LedgerSettings } from '@transfergate/ledger';
import { ObservabilityModule, type Observability } from '@transfergate/observability';
import { PanelApiModule } from '@transfergate/panel-api';
import { WebhookIngestModule } from '@transfergate/webhook-ingest';
import { PersistenceModule } from './persistence/persistence.module.js';

/** The embedded runtime: all five services in one process, talking through the in-process bus. */
@Module({})
export class AllInOneModule {
  static forRoot(
    db: SqlDatabase,
    store: PostgresEventStore,
    ledger: LedgerSettings,
    gateway: GatewaySettings,
    observability: Observability,
  ): DynamicModule {
    return {
      module: AllInOneModule,
      imports: [
        PersistenceModule.forRoot(db, store, ledger, gateway),
        ObservabilityModule.forRoot(observability),
        LedgerModule,
        GatewayApiModule,
        PanelApiModule,
        CallbackDispatcherModule,
        WebhookIngestModule,
      ],
    };
  }
}
