import { loadOptionalAdapter, type SqlDatabase } from '@transfergate/event-store';
import type { TransactionReadModel } from './transaction-read-model.js';
import { SqlTransactionReadModel } from './sql-transaction-read-model.js';

/**
 * The transaction read model for this process: MongoDB when MONGODB_URL is set, else the SQL
 * tables in the event store's database. The MongoDB driver takes ~0.4 s to load, so it is imported
 * only when asked for: the embedded default path never loads it.
 */
export async function openTransactionReadModel(options: {
  db: SqlDatabase;
  mongodbUrl?: string;
}): Promise<TransactionReadModel & { close?(): Promise<void> }> {
  if (options.mongodbUrl) {
    const { MongoTransactionReadModel } = await loadOptionalAdapter(
      'mongodb',
      'MONGODB_URL',
      () => import('./mongo/mongo-transaction-read-model.js'),
    );
    return MongoTransactionReadModel.connect(options.mongodbUrl);
  }
  return new SqlTransactionReadModel(options.db);
}
