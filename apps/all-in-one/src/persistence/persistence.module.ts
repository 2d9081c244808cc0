import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CALLBACK_SETTINGS, callbackSettingsFrom } from '@transfergate/callback-dispatcher';
import { EVENT_STORE, SQL_DATABASE, type PostgresEventStore, type SqlDatabase } from '@transfergate/event-store';
import { GATEWAY_SETTINGS, type GatewaySettings } from '@transfergate/gateway-api';
import { LEDGER_SETTINGS, type LedgerSettings } from '@transfergate/ledger';
import { PANEL_SETTINGS, panelSettingsFrom } from '@transfergate/panel-api';

/** Hands the opened database, the event store and the services' settings to every service module. */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(
    db: SqlDatabase,
    store: PostgresEventStore,
    ledger: LedgerSettings,
    gateway: GatewaySettings,
  ): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        { provide: SQL_DATABASE, useValue: db },
        { provide: EVENT_STORE, useValue: store },
        { provide: LEDGER_SETTINGS, useValue: ledger },
        { provide: GATEWAY_SETTINGS, useValue: gateway },
        {
          provide: PANEL_SETTINGS,
          // The gateway's settings as configured, before stored API settings change the live object;
          // the callback schedule of the environment is added by createApp with the dispatcher's.
          useValue: panelSettingsFrom(ledger.secretKey, {
            testAuthEnabled: gateway.testAuthEnabled,
            paymentPageUrl: gateway.paymentPageUrl,
            rateLimitPerMinute: gateway.rateLimitPerMinute,
          }),
        },
        { provide: CALLBACK_SETTINGS, useValue: callbackSettingsFrom(ledger.secretKey) },
      ],
      exports: [SQL_DATABASE, EVENT_STORE, LEDGER_SETTINGS, GATEWAY_SETTINGS, PANEL_SETTINGS, CALLBACK_SETTINGS],
    };
  }
}
