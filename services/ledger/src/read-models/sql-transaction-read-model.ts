import {
  ListPanelTransactionsQuery,
  type PanelTransactionFilters,
  type PanelTransactionPage,
} from '@transfergate/contracts';
import type { RecordedEvent, SqlDatabase } from '@transfergate/event-store';
import { ListPanelTransactionsHandler } from '../queries/panel-transactions.handlers.js';
import { projectEvents } from './projector.js';
import { READ_MODEL_SCHEMA } from './schema.js';
import { ReadModelGapError, TRANSACTION_STREAM_PREFIX, type TransactionReadModel } from './transaction-read-model.js';

/**
 * The SQL adapter of the port: exactly the code the embedded and PostgreSQL paths run (the
 * projector and the panel's list handler), plus the version check that makes apply() idempotent
 * on its own (the running projection gets that from its transactional checkpoint).
 */
export class SqlTransactionReadModel implements TransactionReadModel {
  readonly adapter = 'sql' as const;
  private readonly listHandler: ListPanelTransactionsHandler;

  constructor(private readonly db: SqlDatabase) {
    this.listHandler = new ListPanelTransactionsHandler(db);
  }

  async prepare(): Promise<void> {
    await this.db.exec(READ_MODEL_SCHEMA);
  }

  async apply(events: readonly RecordedEvent[]): Promise<void> {
    const relevant = events.filter((event) => event.streamId.startsWith(TRANSACTION_STREAM_PREFIX));
    if (relevant.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const event of relevant) {
        const transactionId = event.streamId.slice(TRANSACTION_STREAM_PREFIX.length);
        const { rows } = await tx.query<{ version: number }>(
          'select version from rm_transactions where transaction_id = $1 for update',
          [transactionId],
        );
        const stored = rows[0]?.version ?? 0;
        if (event.streamVersion <= stored) continue;
        if (event.streamVersion !== stored + 1) throw new ReadModelGapError(transactionId, stored, event.streamVersion);
        await projectEvents(tx, [event]);
      }
    });
  }

  async findIdByNumber(number: string, providerId?: string): Promise<string | undefined> {
    if (!/^[1-9]\d{0,14}$/.test(number)) return undefined;
    const { rows } = await this.db.query<{ id: string }>(
      providerId === undefined
        ? 'select transaction_id::text id from rm_transactions where number = $1::bigint'
        : 'select transaction_id::text id from rm_transactions where number = $1::bigint and provider_id = $2',
      providerId === undefined ? [number] : [number, providerId],
    );
    return rows[0]?.id;
  }

  list(filters: PanelTransactionFilters): Promise<PanelTransactionPage> {
    return this.listHandler.execute(new ListPanelTransactionsQuery(filters));
  }
}
