import { Global, Module, type DynamicModule } from '@nestjs/common';
import { EVENT_STORE, SQL_DATABASE, type PostgresEventStore, type SqlDatabase } from '@transfergate/event-store';
import { LEDGER_SETTINGS, type LedgerSettings } from '@transfergate/ledger';

/** Hands the opened database, the event store and the ledger settings to every service module. */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(db: SqlDatabase, store: PostgresEventStore, ledger: LedgerSettings): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        { provide: SQL_DATABASE, useValue: db },
        { provide: EVENT_STORE, useValue: store },
        { provide: LEDGER_SETTINGS, useValue: ledger },
      ],
      exports: [SQL_DATABASE, EVENT_STORE, LEDGER_SETTINGS],
    };
  }
}
