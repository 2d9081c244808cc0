import { openPglite } from '@transfergate/event-store';
import { SqlTransactionReadModel } from '@transfergate/ledger';
import { openTestPostgres } from '../support/postgres.js';
import { describeTransactionReadModelContract } from './transaction-read-model.contract.js';

describeTransactionReadModelContract('SQL on PGlite (embedded)', async () => {
  const db = await openPglite();
  return { model: new SqlTransactionReadModel(db), close: () => db.close() };
});

describeTransactionReadModelContract('SQL on PostgreSQL server', async () => {
  const db = await openTestPostgres('rm');
  return { model: new SqlTransactionReadModel(db), close: () => db.close() };
});
