import { randomBytes } from 'node:crypto';
import { describeTransactionReadModelContract } from './transaction-read-model.contract.js';

/**
 * The same contract on MongoDB. The server cannot run on our machines: without MONGODB_URL
 * (e.g. mongodb://127.0.0.1:27017) the suite is reported as skipped, never as passed, with the
 * reason printed. Each run works in a fresh database and drops it.
 */
const url = process.env.MONGODB_URL;

if (url) {
  describeTransactionReadModelContract('MongoDB', async () => {
    // Loaded only when the suite runs: the driver takes about 0.4 s to load.
    const { MongoTransactionReadModel } =
      await import('../../services/ledger/src/read-models/mongo/mongo-transaction-read-model.js');
    const { MongoClient } = await import('mongodb');
    const client = await new MongoClient(url, { serverSelectionTimeoutMS: 10_000 }).connect();
    const db = client.db(`tg_test_rm_${randomBytes(5).toString('hex')}`);
    return {
      model: new MongoTransactionReadModel(db),
      close: async () => {
        await db.dropDatabase();
        await client.close();
      },
    };
  });
} else {
  // Jest hides console output of a suite that only skips: write the reason straight to stderr.
  process.stderr.write(
    'SKIPPED transaction-read-model.mongodb.spec: set MONGODB_URL=mongodb://host:27017 to run the read model contract on MongoDB\n',
  );
  describe.skip('transaction read model contract on MongoDB (MONGODB_URL not set)', () => {
    it('runs the transaction read model contract suite', () => undefined);
  });
}
