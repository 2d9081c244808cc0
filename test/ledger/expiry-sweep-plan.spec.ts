import { openPglite, type SqlDatabase } from '@transfergate/event-store';
import { DUE_DEPOSITS_SQL, READ_MODEL_SCHEMA } from '@transfergate/ledger';
import { ENGINES } from '../support/test-app.js';
import { openTestPostgres } from '../support/postgres.js';

/** Pending deposits in the table, none of them due: what a busy day leaves for every sweep to pass over. */
const PENDING_DEPOSITS = 20_000;

/**
 * The expiry sweep runs every 15 s on the same connection as the deposits (PGlite has only one). It
 * must read the due deposits from the partial index `rm_transactions_due` in expiry order, not every
 * pending deposit: without it, at 200,000 pending deposits, each sweep took 24 ms on the server and
 * 35-48 ms on PGlite. Checked as the engines run it: a generic plan (PGlite forces them; the server
 * uses one from the sixth run of a prepared statement on).
 */
describe.each(ENGINES)('the expiry sweep on %s', (engine) => {
  let db: SqlDatabase;

  beforeAll(async () => {
    db = engine === 'pglite' ? await openPglite() : await openTestPostgres('sweepplan');
    await db.exec(READ_MODEL_SCHEMA);
    await db.query(
      `insert into rm_transactions (transaction_id, number, type, state, merchant_id, provider_id, infrastructure_id,
         form, external_id, amount_kurus, original_amount_kurus, customer, expires_at, version, created_at, updated_at)
       select gen_random_uuid(), i, case when i % 4 = 0 then 'withdrawal' else 'deposit' end, 'awaiting_payment',
         'm', 'p', 'i', 'h2h', 'x-' || i, 100, 100, '{}'::jsonb, now() + interval '30 minutes' + i * interval '1 ms',
         1, now(), now()
       from generate_series(1, $1::int) as i`,
      [PENDING_DEPOSITS],
    );
    await db.query('analyze rm_transactions');
  });
  afterAll(async () => {
    await db.close();
  });

  it('reads the due deposits from the partial index, in expiry order', async () => {
    const plan = await db.transaction(async (tx) => {
      await tx.query('set local plan_cache_mode = force_generic_plan');
      await tx.query(`prepare due_deposits (timestamptz, int) as ${DUE_DEPOSITS_SQL}`);
      try {
        const { rows } = await tx.query<Record<string, string>>(
          `explain (costs off) execute due_deposits ('${new Date().toISOString()}', 200)`,
        );
        return rows.map((row) => Object.values(row)[0]).join('\n');
      } finally {
        await tx.query('deallocate due_deposits');
      }
    });
    expect(plan).toContain('Index Scan using rm_transactions_due on rm_transactions');
    expect(plan).not.toMatch(/Sort|Seq Scan/);
  });

  it('answers the due deposits, oldest expiry first, and none of the others', async () => {
    // 1-6 made due; 4 is a withdrawal (every fourth) and 6 is decided: the sweep wants 1, 2, 3 and 5.
    await db.query(`update rm_transactions set expires_at = now() - number * interval '1 second' where number <= 6`);
    await db.query(`update rm_transactions set state = 'approved' where number = 6`);
    const { rows } = await db.query<{ id: string }>(DUE_DEPOSITS_SQL, [new Date().toISOString(), 200]);
    const { rows: numbers } = await db.query<{ id: string; n: string }>(
      `select transaction_id::text id, number::text n from rm_transactions where number <= 6`,
    );
    const numberOf = new Map(numbers.map((row) => [row.id, Number(row.n)]));
    expect(rows.map((row) => numberOf.get(row.id))).toEqual([5, 3, 2, 1]);
  });
});
