import { openPglite, openPostgres, sqlState, type SqlDatabase } from '@transfergate/event-store';
import { TEST_DATABASE_URL } from '../../../../test/support/postgres.js';
import { indexesByTable } from '../../../../test/support/scratch-schemas.js';
import { BULK_TABLES, DeferredKeys } from './deferred-keys.js';
import { ScratchSchema } from './scratch-schema.js';

const TXN = '6f1c1a6e-0a5e-4c41-9d0e-3b7a2d6c8e01';

/** A transaction row as the memory projection writes it (only its not-null columns), always with id TXN: two are a duplicate key. */
const insertTransaction = (number: number) =>
  `insert into rm_transactions (transaction_id, number, type, state, merchant_id, provider_id, infrastructure_id,
     form, external_id, amount_kurus, original_amount_kurus, customer, version, created_at, updated_at)
   values ('${TXN}', ${number}, 'deposit', 'approved', 'm', 'p', 'i', 'h2h', 'e-${number}', 100, 100, '{}', 2,
     now(), now())`;

describe.each([
  ['PostgreSQL', () => openPostgres({ url: TEST_DATABASE_URL, poolSize: 2 })],
  ['PGlite', () => openPglite()],
])('the bulk tables keys, deferred (%s)', (_engine, open: () => Promise<SqlDatabase>) => {
  let db: SqlDatabase;
  let scratch: ScratchSchema;

  beforeAll(async () => {
    db = await open();
  }, 60_000);
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    scratch = await ScratchSchema.create(db);
  });
  afterEach(async () => {
    await scratch.drop();
  });

  it('takes off every key and index of the bulk tables, and only theirs, and puts back the same', async () => {
    const before = await indexesByTable(db, scratch.name);
    for (const table of BULK_TABLES) expect(before[table]?.length).toBeGreaterThan(0);
    expect(before.rm_transactions).toEqual(
      expect.arrayContaining([expect.stringMatching(/^CREATE UNIQUE INDEX rm_transactions_pkey /)]),
    );

    const keys = await scratch.run((tx) => DeferredKeys.takeOff(tx, BULK_TABLES));
    const off = await indexesByTable(db, scratch.name);
    for (const table of BULK_TABLES) expect(off[table]).toBeUndefined();
    const others = (byTable: Record<string, string[]>) =>
      Object.entries(byTable).filter(([table]) => !BULK_TABLES.includes(table));
    expect(others(off)).toEqual(others(before));
    await scratch.run((tx) => keys.restore(tx));
    expect(await indexesByTable(db, scratch.name)).toEqual(before);
    // The keys are constraints again, not only indexes (the comparison keys tables by their primary key).
    const constraints = await scratch.run(async (tx) => {
      const { rows } = await tx.query<{ name: string }>(
        `select conname as name from pg_constraint where conrelid = 'rm_transactions'::regclass order by conname`,
      );
      return rows.map((r) => r.name);
    });
    expect(constraints).toEqual(
      expect.arrayContaining([
        'rm_transactions_number_key',
        'rm_transactions_payment_token_key',
        'rm_transactions_pkey',
      ]),
    );
  });

  it('puts the keys back once, however often it is asked', async () => {
    const keys = await scratch.run((tx) => DeferredKeys.takeOff(tx, BULK_TABLES));
    await scratch.run(async (tx) => {
      const first = keys.restore(tx);
      expect(keys.restore(tx)).toBe(first);
      await first;
    });
    // A second statement that adds a key would fail (it exists): none is sent.
    await expect(scratch.run((tx) => keys.restore(tx))).resolves.toBeUndefined();
  });

  it('fails the replay at the key when a duplicate was loaded while it was off', async () => {
    const keys = await scratch.run((tx) => DeferredKeys.takeOff(tx, BULK_TABLES));
    await scratch.run(async (tx) => {
      await tx.query(insertTransaction(1));
      await tx.query(insertTransaction(2));
    });
    const failure = await scratch.run((tx) => keys.restore(tx)).catch((error: unknown) => error);
    expect(sqlState(failure)).toBe('23505');
    expect(String(failure)).toMatch(/could not create unique index "rm_transactions_pkey"/);
  });
});
